// TextGradientBenchmarks: a 2,000-glyph paragraph and a 1080p gradient, ours against cairo (issue 13).
//
// Text: the same glyphs at the same positions (our TextLayout of a wrapped paragraph in DejaVu
// Sans 13 px; cairo draws those glyph indices with cairo_show_glyphs through its own FreeType
// font for the same family), into a cleared 800x600 frame; glyph caches warm on both sides.
// Layout itself (shaping, kerning, line breaking) is measured separately, on our side only.
// Gradient: a three-stop axial and a two-stop radial gradient over a whole 1920x1080 frame
// (ours dithered, cairo's pixman not).
import Benchmark
import CCairo
import Foundation
import Raster

final class Box<T>: @unchecked Sendable {
    private let make: () -> T
    private var made: T?
    init(_ make: @escaping () -> T) { self.make = make }
    var state: T {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}

/// About 2,000 glyphs of ordinary prose (spaces excluded), wrapped to 780 px at 13 px.
let paragraph: String = {
    let sentence = "The quick brown fox jumps over the lazy dog, then Core Animation's layers turn, fade and slide on Linux. "
    var text = ""
    while text.filter({ $0 != " " }).count < 2000 { text += sentence }
    return text
}()

let textStyle = TextStyle(fontFamily: "DejaVu Sans", fontSize: 13, color: .black)

func paragraphLayout() -> TextLayout {
    var layout = TextLayout(StyledText(paragraph), style: textStyle, width: 780, isWrapped: true)
    // Trim to exactly 2,000 drawn glyphs.
    if layout.glyphs.count > 2000 {
        var text = paragraph
        while layout.glyphs.count > 2000 {
            text.removeLast()
            layout = TextLayout(StyledText(text), style: textStyle, width: 780, isWrapped: true)
        }
    }
    return layout
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 400
    )

    let oursText = Box { () -> (TextLayout, Bitmap, GraphicsContext) in
        let target = try! Bitmap(width: 800, height: 600)
        return (paragraphLayout(), target, GraphicsContext(bitmap: target))
    }
    Benchmark("text 2000 glyphs 13px draw ours") { benchmark in
        let (layout, target, context) = oursText.state
        precondition(layout.glyphs.count == 2000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            target.clear(to: 0xFFFF_FFFF)
            context.draw(layout, at: Point(x: 10, y: 10))
        }
        blackHole(target[20, 20])
    }
    Benchmark("text 2000 glyphs 13px layout ours") { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(TextLayout(StyledText(paragraph), style: textStyle, width: 780, isWrapped: true).glyphs.count)
        }
    }
    let cairoText = Box { () -> (OpaquePointer, [cairo_glyph_t]) in
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 800, 600)
        let cr = cairo_create(surface)!
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 13)
        let layout = oursText.state.0
        let glyphs = layout.glyphs.map { cairo_glyph_t(index: UInt($0.glyph), x: $0.position.x + 10, y: $0.position.y + 10) }
        return (cr, glyphs)
    }
    Benchmark("text 2000 glyphs 13px draw cairo") { benchmark in
        let (cr, glyphs) = cairoText.state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
        }
        cairo_surface_flush(cairo_get_target(cr))
    }

    let stops: [(Double, Color)] = [(0, Color(rgb: 0x1E3C72)), (0.5, Color(rgb: 0xE0C040)), (1, Color(rgb: 0x802040))]
    let oursGradient = Box { () -> (Bitmap, GraphicsContext, Shading, Shading) in
        let target = try! Bitmap(width: 1920, height: 1080)
        let axial = Shading(Gradient(stops: stops), geometry: .axial(start: Point(x: 0, y: 0), end: Point(x: 1920, y: 1080)))
        let radial = Shading(Gradient(from: .white, to: Color(rgb: 0x203050)), geometry: .radial(center: Point(x: 960, y: 540), radius: 900))
        return (target, GraphicsContext(bitmap: target), axial, radial)
    }
    Benchmark("gradient axial 1920x1080 ours") { benchmark in
        let (target, context, axial, _) = oursGradient.state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { context.drawShading(axial) }
        blackHole(target[960, 540])
    }
    Benchmark("gradient radial 1920x1080 ours") { benchmark in
        let (target, context, _, radial) = oursGradient.state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { context.drawShading(radial) }
        blackHole(target[960, 540])
    }
    let cairoGradient = Box { () -> (OpaquePointer, OpaquePointer, OpaquePointer) in
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1920, 1080)
        let cr = cairo_create(surface)!
        let axial = cairo_pattern_create_linear(0, 0, 1920, 1080)!
        for (t, c) in stops { cairo_pattern_add_color_stop_rgb(axial, t, c.red, c.green, c.blue) }
        cairo_pattern_set_extend(axial, CAIRO_EXTEND_PAD)
        let radial = cairo_pattern_create_radial(960, 540, 0, 960, 540, 900)!
        cairo_pattern_add_color_stop_rgb(radial, 0, 1, 1, 1)
        let end = Color(rgb: 0x203050)
        cairo_pattern_add_color_stop_rgb(radial, 1, end.red, end.green, end.blue)
        cairo_pattern_set_extend(radial, CAIRO_EXTEND_PAD)
        return (cr, axial, radial)
    }
    Benchmark("gradient axial 1920x1080 cairo") { benchmark in
        let (cr, axial, _) = cairoGradient.state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            cairo_set_source(cr, axial)
            cairo_paint(cr)
        }
        cairo_surface_flush(cairo_get_target(cr))
    }
    Benchmark("gradient radial 1920x1080 cairo") { benchmark in
        let (cr, _, radial) = cairoGradient.state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            cairo_set_source(cr, radial)
            cairo_paint(cr)
        }
        cairo_surface_flush(cairo_get_target(cr))
    }
}

// RasterBenchmarks: the arrow fill and composite, ours against cairo, per frame (issue 3).
//
// One iteration is one frame of a 600-frame sweep of the arrow's length 0 → 2π → 0.
// (a) fill the arrow into a cleared coverage mask; (b) (a) plus compositing a W×H image through
// the mask over an opaque background, and the direct route: fill the arrow with the image as paint.
// Geometry: centre of the canvas, outer radius min(W,H)/2 − 10, thickness 60·min(W,H)/600,
// start −π/2, head π/16.
import Benchmark
import CCairo
import Foundation
import Raster

/// The arrow of the seed at one frame of the sweep.
struct ArrowSweep {
    let width: Int, height: Int
    let center: Point, outerRadius: Double, innerRadius: Double, midRadius: Double
    let startAngle = -Double.pi / 2
    let headLength = Double.pi / 16
    var frame = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let side = Double(min(width, height))
        center = Point(x: Double(width) / 2, y: Double(height) / 2)
        outerRadius = side / 2 - 10
        innerRadius = outerRadius - 60 * side / 600
        midRadius = (outerRadius + innerRadius) / 2
    }

    /// The length at the current frame, then advances: a triangle wave 0 → 2π → 0 over 600 frames.
    mutating func nextLength() -> Double {
        let f = frame % 600
        frame += 1
        let t = Double(f < 300 ? f : 600 - f) / 300
        return t * 2 * .pi
    }

    func angles(_ length: Double) -> (tip: Double, head: Double) {
        let tip = startAngle + length
        let sign: Double = length < 0 ? -1 : 1
        return (tip, tip - sign * min(headLength, abs(length)))
    }

    /// Builds the arrow into `path`, reusing its storage.
    func build(_ length: Double, into path: inout Path) {
        let (tip, head) = angles(length)
        path.removeAll()
        path.move(to: Point(x: center.x + midRadius * cos(tip), y: center.y + midRadius * sin(tip)))
        path.addArc(center: center, radius: outerRadius, startAngle: head, endAngle: startAngle, clockwise: length > 0)
        path.addArc(center: center, radius: innerRadius, startAngle: startAngle, endAngle: head, clockwise: length < 0)
        path.closeSubpath()
    }

    /// The same arrow as a cairo path.
    func build(_ length: Double, into cr: OpaquePointer) {
        let (tip, head) = angles(length)
        cairo_new_path(cr)
        cairo_move_to(cr, center.x + midRadius * cos(tip), center.y + midRadius * sin(tip))
        if length > 0 {
            cairo_arc_negative(cr, center.x, center.y, outerRadius, head, startAngle)
            cairo_arc(cr, center.x, center.y, innerRadius, startAngle, head)
        } else {
            cairo_arc(cr, center.x, center.y, outerRadius, head, startAngle)
            cairo_arc_negative(cr, center.x, center.y, innerRadius, startAngle, head)
        }
        cairo_close_path(cr)
    }
}

/// A W×H opaque test image: a colour ramp with a grid, so nothing is constant.
func makeImage(_ w: Int, _ h: Int) -> Bitmap {
    let image = try! Bitmap(width: w, height: h)
    for y in 0..<h {
        for x in 0..<w {
            let grid: UInt32 = (x % 32 == 0 || y % 32 == 0) ? 0x40 : 0
            image[x, y] = 0xFF00_0000 | UInt32(x * 255 / w) << 16 | UInt32(y * 255 / h) << 8 | (0x80 + grid)
        }
    }
    return image
}

/// A cairo ARGB32 surface holding the same pixels (same premultiplied 0xAARRGGBB layout).
func cairoImage(_ image: Bitmap) -> OpaquePointer {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))!
    cairo_surface_flush(surface)
    let data = cairo_image_surface_get_data(surface)!
    let stride = Int(cairo_image_surface_get_stride(surface))
    for y in 0..<image.height {
        let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<image.width { row[x] = image[x, y] }
    }
    cairo_surface_mark_dirty(surface)
    return surface
}

let background = Color(red: 0.1, green: 0.12, blue: 0.15)

/// State that lives across samples: package-benchmark calls a benchmark's closure once per
/// sample, and each sample must be the next frame of one continuing sweep, drawn into buffers
/// that were allocated once. Each benchmark owns its box and only it touches it.
final class Box<State>: @unchecked Sendable {
    private let make: () -> State
    private var made: State?
    init(_ make: @escaping () -> State) { self.make = make }
    var state: State {
        if let made { return made }
        let s = make()
        made = s
        return s
    }
}

/// One benchmark's frame counter, reference-typed so the sweep continues across samples.
final class SweepState {
    var sweep: ArrowSweep
    var path = Path()
    init(_ w: Int, _ h: Int) {
        sweep = ArrowSweep(width: w, height: h)
        path.reserveCapacity(64)
    }
    /// Builds the next frame's arrow into `path`.
    func next() { let l = sweep.nextLength(); sweep.build(l, into: &path) }
    /// Builds the next frame's arrow into a cairo context.
    func next(_ cr: OpaquePointer) { let l = sweep.nextLength(); sweep.build(l, into: cr) }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(4),
        maxIterations: 600
    )

    let clearTarget = Box { try! Bitmap(width: 800, height: 600) }
    Benchmark("bitmap clear 800x600") { benchmark in
        let bitmap = clearTarget.state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { bitmap.clear(to: 0xFF20_2020) }
        blackHole(bitmap[0, 0])
    }

    for (w, h) in [(1920, 1080), (800, 600)] {
        let size = "\(w)x\(h)"

        // (a) fill the arrow into a cleared mask.
        let oursA = Box { (SweepState(w, h), try! AlphaMask(width: w, height: h)) }
        Benchmark("(a) mask fill \(size) ours AlphaMask") { benchmark in
            let (frame, mask) = oursA.state
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                frame.next()
                mask.clear()
                mask.fill(frame.path)
            }
            blackHole(mask[w / 2, 10])
        }
        for (format, name) in [(CAIRO_FORMAT_A8, "A8"), (CAIRO_FORMAT_ARGB32, "ARGB32")] {
            let cairoA = Box { () -> (SweepState, OpaquePointer) in
                let surface = cairo_image_surface_create(format, Int32(w), Int32(h))
                return (SweepState(w, h), cairo_create(surface)!)
            }
            Benchmark("(a) mask fill \(size) cairo \(name)") { benchmark in
                let (frame, cr) = cairoA.state
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
                    cairo_paint(cr)
                    cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                    cairo_set_source_rgba(cr, 1, 1, 1, 1)
                    frame.next(cr)
                    cairo_fill(cr)
                }
                cairo_surface_flush(cairo_get_target(cr))
            }
        }

        // (b) (a) plus compositing a W×H image through the mask over an opaque background.
        let bg = background.premultipliedPixel
        let oursB = Box { () -> (SweepState, AlphaMask, Bitmap, GraphicsContext, Bitmap) in
            let target = try! Bitmap(width: w, height: h)
            return (SweepState(w, h), try! AlphaMask(width: w, height: h), makeImage(w, h), GraphicsContext(bitmap: target), target)
        }
        Benchmark("(b) image through mask \(size) ours AlphaMask") { benchmark in
            let (frame, mask, image, context, target) = oursB.state
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                frame.next()
                mask.clear()
                mask.fill(frame.path)
                target.clear(to: bg)
                context.draw(image, through: mask)
            }
            blackHole(target[w / 2, 10])
        }
        let oursDirect = Box { () -> (SweepState, GraphicsContext, Bitmap) in
            let target = try! Bitmap(width: w, height: h)
            let context = GraphicsContext(bitmap: target)
            context.setFillPaint(.image(makeImage(w, h), transform: .identity))
            return (SweepState(w, h), context, target)
        }
        Benchmark("(b) image through mask \(size) ours direct") { benchmark in
            let (frame, context, target) = oursDirect.state
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                frame.next()
                target.clear(to: bg)
                context.fill(frame.path)
            }
            blackHole(target[w / 2, 10])
        }
        for (format, name) in [(CAIRO_FORMAT_A8, "A8"), (CAIRO_FORMAT_ARGB32, "ARGB32")] {
            let cairoB = Box { () -> (SweepState, OpaquePointer, OpaquePointer, OpaquePointer, OpaquePointer) in
                let image = cairoImage(makeImage(w, h))
                let maskSurface = cairo_image_surface_create(format, Int32(w), Int32(h))!
                let target = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h))
                return (SweepState(w, h), image, maskSurface, cairo_create(maskSurface)!, cairo_create(target)!)
            }
            Benchmark("(b) image through mask \(size) cairo \(name)") { benchmark in
                let (frame, image, maskSurface, mcr, cr) = cairoB.state
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    cairo_set_operator(mcr, CAIRO_OPERATOR_CLEAR)
                    cairo_paint(mcr)
                    cairo_set_operator(mcr, CAIRO_OPERATOR_OVER)
                    cairo_set_source_rgba(mcr, 1, 1, 1, 1)
                    frame.next(mcr)
                    cairo_fill(mcr)
                    cairo_set_source_rgb(cr, background.red, background.green, background.blue)
                    cairo_paint(cr)
                    cairo_set_source_surface(cr, image, 0, 0)
                    cairo_mask_surface(cr, maskSurface, 0, 0)
                }
                cairo_surface_flush(cairo_get_target(cr))
            }
        }
        let cairoDirect = Box { () -> (SweepState, OpaquePointer, OpaquePointer) in
            let image = cairoImage(makeImage(w, h))
            let target = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h))
            return (SweepState(w, h), image, cairo_create(target)!)
        }
        Benchmark("(b) image through mask \(size) cairo direct") { benchmark in
            let (frame, image, cr) = cairoDirect.state
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                cairo_set_source_rgb(cr, background.red, background.green, background.blue)
                cairo_paint(cr)
                cairo_set_source_surface(cr, image, 0, 0)
                frame.next(cr)
                cairo_fill(cr)
            }
            cairo_surface_flush(cairo_get_target(cr))
        }
    }
}

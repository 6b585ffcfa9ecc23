import Foundation
import Raster
import RasterTestSupport
import Testing

/// A scene exercising paints, clipping, alpha and blend modes together, checked against a golden.
@Suite struct PaintGalleryTests {
    static func checkerboard() throws -> Bitmap {
        let image = try Bitmap(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 { image[x, y] = (x / 4 + y / 4) % 2 == 0 ? 0xFFE0_E0E0 : 0xFF20_60C0 } }
        return image
    }

    static func render() throws -> Bitmap {
        let bitmap = try Bitmap(width: 240, height: 120)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.setFillColor(Color(white: 0.15))
        ctx.fill(Rect(x: 0, y: 0, width: 240, height: 120))

        // A linear gradient with three stops, padded beyond its ends.
        ctx.setFillPaint(.linearGradient(Gradient(stops: [(0, .red), (0.5, .white), (1, .blue)]),
                                         start: Point(x: 20, y: 0), end: Point(x: 60, y: 0)))
        ctx.fill(Rect(x: 10, y: 10, width: 60, height: 40))

        // A radial gradient fading to transparent, in an ellipse.
        ctx.setFillPaint(.radialGradient(Gradient(from: .green, to: Color.green.withAlpha(0)), center: Point(x: 110, y: 30), radius: 25))
        ctx.addEllipse(in: Rect(x: 85, y: 5, width: 50, height: 50))
        ctx.fillPath()

        // A rotated, scaled image, sampled bilinearly.
        ctx.saveGState()
        ctx.translateBy(x: 190, y: 30)
        ctx.rotate(by: .pi / 7)
        ctx.draw(try Self.checkerboard(), in: Rect(x: -20, y: -20, width: 40, height: 40))
        ctx.restoreGState()

        // An image clipped to a star (even-odd), at half alpha.
        ctx.saveGState()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * .pi / 5
            let p = Point(x: 40 + 28 * cos(a), y: 88 + 28 * sin(a))
            if i == 0 { ctx.move(to: p) } else { ctx.addLine(to: p) }
        }
        ctx.closePath()
        ctx.clip(using: .evenOdd)
        ctx.setAlpha(0.5)
        ctx.draw(try Self.checkerboard(), in: Rect(x: 10, y: 58, width: 60, height: 60))
        ctx.restoreGState()

        // Translucent overlapping discs, a cleared hole, and a copy-mode square.
        ctx.setFillColor(Color(red: 1, green: 0.8, blue: 0, alpha: 0.6))
        ctx.fill(Path(ellipseIn: Rect(x: 90, y: 65, width: 40, height: 40)))
        ctx.setFillColor(Color(red: 0, green: 0.8, blue: 1, alpha: 0.6))
        ctx.fill(Path(ellipseIn: Rect(x: 110, y: 65, width: 40, height: 40)))
        ctx.clear(Rect(x: 115.5, y: 80.5, width: 10, height: 10))
        ctx.setBlendMode(.copy)
        ctx.setFillColor(Color(red: 1, green: 0, blue: 1, alpha: 0.5))
        ctx.fill(Rect(x: 165, y: 70, width: 30, height: 30))
        ctx.setBlendMode(.normal)

        // A dashed, round-capped stroke.
        ctx.setStrokeColor(.white)
        ctx.setLineWidth(3)
        ctx.setLineCap(.round)
        ctx.setLineDash(phase: 0, lengths: [8, 6])
        ctx.move(to: Point(x: 160, y: 110))
        ctx.addLine(to: Point(x: 230, y: 110))
        ctx.strokePath()
        return bitmap
    }

    @Test func galleryMatchesGolden() throws {
        assertMatchesGolden(try Self.render(), named: "paint-gallery", in: Bundle.module)
    }
}

extension Path {
    init(ellipseIn rect: Rect) {
        self.init()
        addEllipse(in: rect)
    }
}

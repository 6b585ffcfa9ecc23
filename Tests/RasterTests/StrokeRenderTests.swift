import Foundation
@testable import Raster
import RasterTestSupport
import Testing

/// Stroke outlines through the real rasterizer: covered area and a golden gallery.
@Suite struct StrokeRenderTests {
    /// The summed coverage of a mask, in pixels.
    private func coveredArea(_ mask: AlphaMask) -> Double {
        var sum = 0
        for y in 0..<mask.height { for x in 0..<mask.width { sum += Int(mask[x, y]) } }
        return Double(sum) / 255
    }

    @Test func rasterizedLineStrokeCoversWidthTimesLength() throws {
        let mask = try AlphaMask(width: 64, height: 32)
        var path = Path()
        path.move(to: Point(x: 10.3, y: 12.7))
        path.addLine(to: Point(x: 50.9, y: 12.7))
        mask.fill(path.strokedOutline(StrokeStyle(lineWidth: 3.5)))
        #expect(abs(coveredArea(mask) - 40.6 * 3.5) < 0.3)
    }

    @Test func rasterizedClosedStrokeHasNoDoubleCountingAtJoins() throws {
        // Union coverage must not exceed the exact frame area anywhere (the joins overlap
        // nothing, so a sum would show up as extra coverage).
        let mask = try AlphaMask(width: 64, height: 64)
        var square = Path()
        square.addRect(Rect(x: 12.25, y: 12.25, width: 30, height: 30))
        mask.fill(square.strokedOutline(StrokeStyle(lineWidth: 5, lineJoin: .round)))
        let exact = 35.0 * 35 - 25 * 25 - (25 - 6.25 * Double.pi)   // round outer corners
        #expect(abs(coveredArea(mask) - exact) / exact < 0.005)
        #expect(mask[27, 27] == 0)
    }

    /// A sheet of strokes, black on white: joins and caps on a zigzag, dashes, trims, dots,
    /// thin lines and curves. Golden tolerance: the default (1 per channel).
    @Test func strokeGallery() throws {
        let mask = try AlphaMask(width: 360, height: 240)
        func zigzag(at x: Double, _ y: Double) -> Path {
            var p = Path()
            p.addLines(between: [Point(x: x, y: y + 40), Point(x: x + 20, y: y), Point(x: x + 40, y: y + 40),
                                 Point(x: x + 52, y: y + 4)])
            return p
        }
        let joins: [LineJoin] = [.miter, .round, .bevel]
        let caps: [LineCap] = [.butt, .round, .square]
        for (i, join) in joins.enumerated() {
            for (j, cap) in caps.enumerated() {
                let style = StrokeStyle(lineWidth: 9, lineJoin: join, lineCap: cap)
                mask.fill(zigzag(at: 14 + Double(j) * 75, 12 + Double(i) * 62).strokedOutline(style))
            }
        }
        var circle = Path()
        circle.addEllipse(in: Rect(x: 250, y: 14, width: 90, height: 90))
        mask.fill(circle.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .round, dashLengths: [12, 6, 0, 6])))
        var inner = Path()
        inner.addEllipse(in: Rect(x: 270, y: 34, width: 50, height: 50))
        mask.fill(inner.trimmed(from: 0.1, to: 0.6).strokedOutline(StrokeStyle(lineWidth: 3, lineCap: .round)))
        var spiral = Path()
        spiral.move(to: Point(x: 295, y: 175))
        for k in 1...200 {
            let a = Double(k) * 0.1, r = 1 + Double(k) * 0.25
            spiral.addLine(to: Point(x: 295 + r * cos(a), y: 175 + r * sin(a)))
        }
        mask.fill(spiral.strokedOutline(StrokeStyle(lineWidth: 1.5, lineJoin: .round)))
        var hairlines = Path()
        for k in 0..<6 {
            hairlines.move(to: Point(x: 14, y: 200.5 + Double(k) * 6))
            hairlines.addLine(to: Point(x: 230, y: 196 + Double(k) * 7))
        }
        mask.fill(hairlines.strokedOutline(StrokeStyle(lineWidth: 1, dashLengths: [4])))

        let bitmap = try Bitmap(width: mask.width, height: mask.height)
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let v = UInt32(255 - mask[x, y])
                bitmap[x, y] = 0xFF00_0000 | v << 16 | v << 8 | v
            }
        }
        assertMatchesGolden(bitmap, named: "stroke-gallery", in: Bundle.module)
    }
}

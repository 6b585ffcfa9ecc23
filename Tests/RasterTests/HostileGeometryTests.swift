import Foundation
@testable import Raster
import Testing

/// Degenerate and hostile input: each must neither crash nor write outside the target.
/// (In the style of font-rs's raster_issues.rs: each case names what it guards against.)
@Suite struct HostileGeometryTests {
    static func covered(_ mask: AlphaMask) -> Int {
        var n = 0
        for y in 0..<mask.height { for x in 0..<mask.width where mask[x, y] != 0 { n += 1 } }
        return n
    }

    /// NaN and infinite points are dropped; the finite rest of the path still fills.
    @Test func nonFinitePointsAreDropped() throws {
        let mask = try AlphaMask(width: 32, height: 32)
        var path = Path()
        path.move(to: Point(x: 4, y: 4))
        path.addLine(to: Point(x: .nan, y: 10))
        path.addLine(to: Point(x: 28, y: 4))
        path.addLine(to: Point(x: .infinity, y: -.infinity))
        path.addLine(to: Point(x: 28, y: 28))
        path.addLine(to: Point(x: 4, y: 28))
        path.closeSubpath()
        mask.fill(path)
        #expect(mask[16, 16] == 255)
        #expect(mask[2, 2] == 0)
        var nothing = Path()
        nothing.move(to: Point(x: .nan, y: .nan))
        nothing.addLine(to: Point(x: .nan, y: 1))
        let empty = try AlphaMask(width: 8, height: 8)
        empty.fill(nothing)
        #expect(Self.covered(empty) == 0)
    }

    /// Coordinates of 1e9 are clipped in double precision: a huge triangle covering the target
    /// fills it exactly, and one entirely off to the side leaves it untouched.
    @Test func hugeCoordinatesAreClippedSafely() throws {
        let mask = try AlphaMask(width: 40, height: 30)
        mask.fill(CoverageTests.polygon([Point(x: -1e9, y: -1e9), Point(x: 1e9, y: -1e9), Point(x: 0, y: 1e9)]))
        #expect(Self.covered(mask) == 40 * 30)
        #expect(mask[0, 0] == 255 && mask[39, 29] == 255)
        let off = try AlphaMask(width: 40, height: 30)
        off.fill(CoverageTests.polygon([Point(x: 1e9, y: -1e9), Point(x: 2e9, y: 5), Point(x: 1e9, y: 1e9)]))
        #expect(Self.covered(off) == 0)
        // Left of the target: the shape's winding still reaches column 0.
        let left = try AlphaMask(width: 40, height: 30)
        left.fill(CoverageTests.polygon([Point(x: -1e9, y: 10), Point(x: 20.5, y: 10), Point(x: 20.5, y: 20), Point(x: -1e9, y: 20)]))
        #expect(left[0, 15] == 255 && left[19, 15] == 255 && left[20, 15] == 128 && left[21, 15] == 0)
    }

    @Test func zeroAreaAndEmptyPathsDrawNothing() throws {
        let mask = try AlphaMask(width: 16, height: 16)
        mask.fill(Path())
        var line = Path()
        line.move(to: Point(x: 1, y: 1)); line.addLine(to: Point(x: 15, y: 15)); line.closeSubpath()
        mask.fill(line)
        var point = Path()
        point.move(to: Point(x: 3, y: 3)); point.addLine(to: Point(x: 3, y: 3))
        mask.fill(point)
        var horizontal = Path()
        horizontal.addRect(Rect(x: 2, y: 5, width: 10, height: 0))
        mask.fill(horizontal)
        #expect(Self.covered(mask) == 0)
    }

    /// A path of a million tiny segments (a finely sampled circle) fills like the circle.
    @Test func millionSegmentPathWorks() throws {
        let mask = try AlphaMask(width: 200, height: 200)
        var path = Path()
        let n = 1_000_000
        path.reserveCapacity(n + 2)
        path.move(to: Point(x: 190, y: 100))
        for i in 1..<n {
            let a = Double(i) / Double(n) * 2 * .pi
            path.addLine(to: Point(x: 100 + 90 * cos(a), y: 100 + 90 * sin(a)))
        }
        path.closeSubpath()
        mask.fill(path)
        let area = CoverageTests.totalCoverage(mask)
        #expect(abs(area - .pi * 90 * 90) / (.pi * 90 * 90) < 0.001)
    }

    /// Random wild paths (huge, tiny, crossing the edges) keep coverage inside a mask that is
    /// a window into a larger guarded one: nothing outside the window is ever written.
    @Test func randomPathsNeverWriteOutsideTheTarget() throws {
        var rng = SplitMix64(seed: 0xBAD)
        let mask = try AlphaMask(width: 23, height: 17)
        for _ in 0..<300 {
            var path = Path()
            let scale = [1.0, 30, 1e4, 1e12].randomElement(using: &rng)!
            for i in 0..<Int.random(in: 1...12, using: &rng) {
                let p = Point(x: Double.random(in: -1...1, using: &rng) * scale + 11, y: Double.random(in: -1...1, using: &rng) * scale + 8)
                if i == 0 { path.move(to: p) } else if i % 3 == 0 {
                    path.addQuadCurve(to: p, control: Point(x: Double.random(in: -scale...scale, using: &rng), y: 3))
                } else { path.addLine(to: p) }
            }
            mask.clear()
            mask.fill(path, rule: Bool.random(using: &rng) ? .winding : .evenOdd)
            #expect(mask.coveredBounds.intersection(mask.bounds) == mask.coveredBounds)
        }
    }
}

/// Hostile input through the context: non-finite transforms, rectangles, paints and line widths
/// draw nothing (or something bounded) and never crash.
@Suite struct HostileContextTests {
    @Test func nonFiniteStateDrawsNothingHarmful() throws {
        let bitmap = try Bitmap(width: 32, height: 24)
        let image = try Bitmap(width: 4, height: 4)
        image.clear(to: 0xFFFF_FFFF)
        let ctx = GraphicsContext(bitmap: bitmap)
        for bad in [Double.nan, .infinity, -.infinity, 1e300, 0] {
            ctx.saveGState()
            ctx.scaleBy(x: bad, y: 1)
            ctx.setFillColor(.white)
            ctx.fill(Rect(x: 1, y: 1, width: 10, height: 10))
            ctx.draw(image, in: Rect(x: 0, y: 0, width: 8, height: 8))
            ctx.setFillPaint(.linearGradient(Gradient(from: .red, to: .blue), start: .zero, end: Point(x: bad, y: 0)))
            ctx.fill(Rect(x: 0, y: 0, width: 32, height: 24))
            ctx.restoreGState()
            ctx.saveGState()
            ctx.setFillPaint(.radialGradient(Gradient(from: .red, to: .blue), center: Point(x: bad, y: 3), radius: bad))
            ctx.fill(Rect(x: 0, y: 0, width: 32, height: 24))
            ctx.setFillPaint(.image(image, transform: Transform(a: bad, b: 0, c: 0, d: 1, tx: 0, ty: 0)))
            ctx.fill(Rect(x: 0, y: 0, width: 32, height: 24))
            ctx.draw(image, in: Rect(x: bad, y: 0, width: 5, height: bad))
            ctx.setLineWidth(bad)
            ctx.setStrokeColor(.green)
            ctx.stroke(Rect(x: 2, y: 2, width: 20, height: 10))
            ctx.clip(to: Rect(x: 0, y: 0, width: bad, height: 10))
            ctx.clip(toMask: image, in: Rect(x: bad, y: 0, width: 10, height: 10))
            ctx.fill(Rect(x: 0, y: 0, width: 32, height: 24))
            ctx.restoreGState()
        }
        // Every pixel is still a valid premultiplied value.
        for y in 0..<24 {
            for x in 0..<32 {
                let p = bitmap[x, y], a = p >> 24
                #expect((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a)
            }
        }
    }

    @Test func unbalancedRestoreAndHugeImagesAreHarmless() throws {
        let bitmap = try Bitmap(width: 16, height: 16)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.restoreGState()
        ctx.restoreGState()
        let wide = try Bitmap(width: 4000, height: 1)
        wide.clear(to: 0xFF00_FF00)
        ctx.draw(wide, in: Rect(x: -2000, y: 3, width: 4000, height: 1))
        #expect(bitmap[0, 3] == 0xFF00_FF00 && bitmap[15, 3] == 0xFF00_FF00 && bitmap[0, 4] == 0)
    }
}

@testable import Raster
import Testing

/// A shape's pixels inside a clip are the pixels it has drawn whole, wherever the clip is: a frame
/// drawn damage rectangle by damage rectangle, or in bands of rows, must be the frame drawn at once.
@Suite struct ClipIndependenceTests {
    /// Random closed cubic shapes at 70 % alpha over a colour (fixed seed), each drawn whole and
    /// clipped to a random rectangle; the number of pixels inside the rectangle that differ.
    func clippedPixelsThatDiffer(seed: UInt64, clip makeClip: (inout SeededGenerator) -> IntRect) throws -> [String] {
        var rng = SeededGenerator(state: seed)
        var differing: [String] = []
        for trial in 0..<300 {
            let cx = Double.random(in: 50...350, using: &rng), cy = Double.random(in: 50...250, using: &rng)
            func near(_ r: Double) -> Point {
                Point(x: cx + Double.random(in: -r...r, using: &rng), y: cy + Double.random(in: -r...r, using: &rng))
            }
            var path = Path()
            path.move(to: near(40))
            for _ in 0..<4 { path.addCurve(to: near(60), control1: near(80), control2: near(80)) }
            path.closeSubpath()
            let clip = makeClip(&rng)
            let whole = try Bitmap(width: 400, height: 300), clipped = try Bitmap(width: 400, height: 300)
            for (bitmap, isClipped) in [(whole, false), (clipped, true)] {
                bitmap.clear(to: 0xFF20_4060)
                let context = GraphicsContext(bitmap: bitmap)
                context.setFillColor(Color(red: 0.8, green: 0.5, blue: 0.2, alpha: 0.7))
                if isClipped { context.clip(to: clip.rect) }
                context.fill(path)
            }
            var count = 0
            for y in clip.y..<clip.maxY { for x in clip.x..<clip.maxX where whole[x, y] != clipped[x, y] { count += 1 } }
            if count > 0 { differing.append("trial \(trial), clip \(clip): \(count) px") }
        }
        return differing
    }

    /// A clip that cuts rows only (the full width): bands of rows are exact.
    @Test func aClipOfWholeRowsKeepsThePixels() throws {
        let differing = try clippedPixelsThatDiffer(seed: 0x5EED) { rng in
            let y = Int.random(in: 0...200, using: &rng)
            return IntRect(x: 0, y: y, width: 400, height: Int.random(in: 3...100, using: &rng))
        }
        #expect(differing.isEmpty, "\(differing.count) of 300 differ: \(differing.prefix(3))")
    }

    /// A clip that cuts columns too. Known defect: x is clip-local single precision (its rounding
    /// depends on the clip's left edge) and the cover left of the clip is summed onto its first
    /// column in another order, so a pixel can differ by 1 (a few shapes in a hundred). Lottie
    /// files drawn damage rectangle by damage rectangle differ from a whole-frame render by 1 in
    /// up to 12 pixels this way. Integer accumulation with a clip-independent x would make it exact.
    @Test func aClipOfColumnsKeepsThePixels() throws {
        let differing = try clippedPixelsThatDiffer(seed: 0x5EED) { rng in
            IntRect(x: Int.random(in: 0...300, using: &rng), y: Int.random(in: 0...200, using: &rng),
                    width: Int.random(in: 3...100, using: &rng), height: Int.random(in: 3...100, using: &rng))
        }
        withKnownIssue("a clip's left edge changes a pixel's rounding by 1 (clip-local Float x)") {
            #expect(differing.isEmpty, "\(differing.count) of 300 differ: \(differing.prefix(3))")
        }
    }
}

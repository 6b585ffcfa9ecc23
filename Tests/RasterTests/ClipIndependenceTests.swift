@testable import Raster
import Testing

/// A shape's pixels inside a clip are the pixels it has drawn whole, wherever the clip is: a frame
/// drawn damage rectangle by damage rectangle, or in bands of rows, must be the frame drawn at once.
@Suite struct ClipIndependenceTests {
    /// A closed shape of four random cubics around a random centre inside 400x300, and that centre.
    static func randomShape(_ rng: inout SeededGenerator) -> (Path, Double, Double) {
        let cx = Double.random(in: 50...350, using: &rng), cy = Double.random(in: 50...250, using: &rng)
        func near(_ r: Double) -> Point {
            Point(x: cx + Double.random(in: -r...r, using: &rng), y: cy + Double.random(in: -r...r, using: &rng))
        }
        var path = Path()
        path.move(to: near(40))
        for _ in 0..<4 { path.addCurve(to: near(60), control1: near(80), control2: near(80)) }
        path.closeSubpath()
        return (path, cx, cy)
    }

    /// Random closed cubic shapes at 70 % alpha over a colour (fixed seed), each drawn whole and
    /// clipped to a random rectangle; the number of pixels inside the rectangle that differ.
    func clippedPixelsThatDiffer(seed: UInt64, clip makeClip: (inout SeededGenerator) -> IntRect) throws -> [String] {
        var rng = SeededGenerator(state: seed)
        var differing: [String] = []
        for trial in 0..<300 {
            let (path, _, _) = Self.randomShape(&rng)
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

    /// A clip that cuts columns too: damage rectangles are exact. (Before the cells spanned the
    /// target's columns, x was clip-local single precision, whose rounding depends on the clip's
    /// left edge, and the cover left of the clip was summed onto its first column in another
    /// order: 3 of 300 differed by 1.)
    @Test func aClipOfColumnsKeepsThePixels() throws {
        let differing = try clippedPixelsThatDiffer(seed: 0x5EED) { rng in
            IntRect(x: Int.random(in: 0...300, using: &rng), y: Int.random(in: 0...200, using: &rng),
                    width: Int.random(in: 3...100, using: &rng), height: Int.random(in: 3...100, using: &rng))
        }
        #expect(differing.isEmpty, "\(differing.count) of 300 differ: \(differing.prefix(3))")
    }

    /// The ways of drawing a shape that reach the rasterizer by other paths than a solid fill's
    /// AVX2 sweep: the even-odd rule and a gradient (the Swift sweep and the sink's cells), a
    /// stroke, a fill and stroke over a held-back opaque background (the lookup sweep), a clip to
    /// the shape (the mask writer), the AVX2 loops off, and rows swept one by one.
    enum Drawing: CaseIterable { case evenOdd, gradient, stroke, fillAndStrokeOverBackground, maskedByTheShape, scalar, rowByRow }

    /// A shape drawn `drawing`'s way, whole and clipped to a random rectangle, 300 seeded shapes:
    /// the pixels inside the rectangle are the same. (With clip-local cells, 1 to 4 of the 300
    /// differed by 1 in each way; the stroke is wide enough to have pixels where they did.)
    @Test(arguments: Drawing.allCases) func everyWayOfDrawingKeepsThePixelsInsideAClip(_ drawing: Drawing) throws {
        var rng = SeededGenerator(state: 0xC11F)
        var differing: [String] = []
        for trial in 0..<300 {
            let (path, cx, cy) = Self.randomShape(&rng)
            let lineWidth = Double.random(in: 1...9, using: &rng)
            let clip = IntRect(x: Int.random(in: 0...300, using: &rng), y: Int.random(in: 0...200, using: &rng),
                               width: Int.random(in: 3...100, using: &rng), height: Int.random(in: 3...100, using: &rng))
            let whole = try Bitmap(width: 400, height: 300), clipped = try Bitmap(width: 400, height: 300)
            for (bitmap, isClipped) in [(whole, false), (clipped, true)] {
                bitmap.clear(to: 0xFF20_4060)
                let context = GraphicsContext(bitmap: bitmap)
                context.usesAVX2Kernels = drawing != .scalar && Kernels.hasAVX2
                context.rasterizer.sweepsWholeBands = drawing != .rowByRow
                context.setFillColor(Color(red: 0.8, green: 0.5, blue: 0.2, alpha: 0.7))
                context.setStrokeColor(Color(red: 0.1, green: 0.6, blue: 0.9, alpha: 0.8))
                context.setLineWidth(lineWidth)
                if isClipped { context.clip(to: clip.rect) }
                switch drawing {
                case .evenOdd: context.fill(path, rule: .evenOdd)
                case .gradient:
                    context.setFillPaint(.linearGradient(Gradient(from: .red, to: Color(red: 0, green: 0, blue: 1, alpha: 0.5)),
                                                         start: Point(x: cx - 60, y: cy), end: Point(x: cx + 60, y: cy + 20)))
                    context.fill(path)
                case .stroke:
                    context.setLineWidth(4 * lineWidth)
                    context.stroke(path)
                case .fillAndStrokeOverBackground:
                    context.defersOpaqueFills = true
                    context.setFillColor(Color(red: 0.9, green: 0.9, blue: 0.8, alpha: 1))
                    context.fill(Rect(x: 0, y: 0, width: 400, height: 300))
                    context.setFillColor(Color(red: 0.8, green: 0.5, blue: 0.2, alpha: 1))
                    context.fillAndStroke(path)
                    context.defersOpaqueFills = false
                case .maskedByTheShape:
                    context.beginPath()
                    context.addPath(path)
                    context.clip(using: .winding)
                    context.setFillColor(Color(red: 0.8, green: 0.5, blue: 0.2, alpha: 1))
                    context.fill(Rect(x: 0, y: 0, width: 400, height: 300))
                case .scalar, .rowByRow: context.fillAndStroke(path)
                }
            }
            var count = 0
            for y in clip.y..<clip.maxY { for x in clip.x..<clip.maxX where whole[x, y] != clipped[x, y] { count += 1 } }
            if count > 0 { differing.append("trial \(trial), clip \(clip): \(count) px") }
        }
        #expect(differing.isEmpty, "\(drawing): \(differing.count) of 300 differ: \(differing.prefix(3))")
    }
}

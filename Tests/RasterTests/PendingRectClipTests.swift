@testable import Raster
import Testing

/// A rectangle clip under a rotation or a fractional scale is rasterized into a mask only when a
/// drawing reaches past its inside (GraphicsContext.clip(to:)): the pixels must be those of the
/// clip rasterized at once, whatever is drawn inside, across or outside it.
@Suite struct PendingRectClipTests {
    enum Drawing: CaseIterable { case fills, fillAndStroke, stroke, shading, nestedRect, rectFill }

    /// 300 seeded scenes: an optional shape mask (made in the state of the rectangle clip, or in
    /// one saved before it), a rotated and scaled rectangle clip, then small
    /// shapes drawn inside, across and outside it (`drawing`'s way), drawn once with the clip
    /// rasterized on the spot and once deferred; the number of scenes whose pixels differ.
    @Test(arguments: Drawing.allCases) func aDeferredRectangleClipGivesThePixelsOfTheRasterizedOne(_ drawing: Drawing) throws {
        var rng = SeededGenerator(state: 0x9E_C7)
        var differing: [String] = []
        var deferredFills = 0
        for trial in 0..<300 {
            let angle = trial % 4 == 0 ? 0 : Double.random(in: -3...3, using: &rng)
            let scale = Double.random(in: 0.3...1.7, using: &rng)
            let origin = Point(x: Double.random(in: 60...340, using: &rng), y: Double.random(in: 60...240, using: &rng))
            let rect = Rect(x: Double.random(in: -120 ... -10, using: &rng), y: Double.random(in: -100 ... -10, using: &rng),
                            width: Double.random(in: 20...240, using: &rng), height: Double.random(in: 20...200, using: &rng))
            let inner = Rect(x: rect.minX + Double.random(in: 0...30, using: &rng), y: rect.minY + Double.random(in: 0...30, using: &rng),
                             width: Double.random(in: 5...200, using: &rng), height: Double.random(in: 5...160, using: &rng))
            let masked = trial % 3 == 0
            var shapes: [Path] = []
            for _ in 0..<4 {
                // Centres over and around the rectangle, some well inside, some across its sides.
                let cx = rect.minX + rect.width * Double.random(in: -0.3...1.3, using: &rng)
                let cy = rect.minY + rect.height * Double.random(in: -0.3...1.3, using: &rng)
                let r = Double.random(in: 1...30, using: &rng)
                var p = Path()
                if trial % 2 == 0 {
                    p.addEllipse(in: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 1.4 * r))
                } else {
                    p.move(to: Point(x: cx - r, y: cy))
                    p.addCurve(to: Point(x: cx + r, y: cy), control1: Point(x: cx - r, y: cy - 2 * r), control2: Point(x: cx + r, y: cy + r))
                    p.addLine(to: Point(x: cx, y: cy + r))
                    p.closeSubpath()
                }
                shapes.append(p)
            }
            var bitmaps: [Bitmap] = []
            for rasterizedAtOnce in [true, false] {
                let bitmap = try Bitmap(width: 400, height: 300)
                bitmap.clear(to: 0xFF20_4060)
                let context = GraphicsContext(bitmap: bitmap)
                context.saveGState()
                if masked {
                    var ellipse = Path()
                    ellipse.addEllipse(in: Rect(x: 30, y: 20, width: 340, height: 260))
                    context.beginPath()
                    context.addPath(ellipse)
                    context.clip()
                    // Saved, the mask outlives the rectangle's: fills inside it use it directly.
                    if trial % 2 == 0 { context.saveGState() }
                }
                context.translateBy(x: origin.x, y: origin.y)
                context.rotate(by: angle)
                context.scaleBy(x: scale, y: scale * 0.9)
                context.clip(to: rect)
                if rasterizedAtOnce { context.settleRectClip() }
                context.setFillColor(Color(red: 0.8, green: 0.5, blue: 0.2, alpha: 0.7))
                context.setStrokeColor(Color(red: 0.1, green: 0.9, blue: 0.4, alpha: 0.8))
                context.setLineWidth(3)
                for (i, shape) in shapes.enumerated() {
                    context.saveGState()
                    switch drawing {
                    case .fills:
                        if !rasterizedAtOnce, context.state.rectClip != nil, context.rectClipHolds(shape, transform: context.ctm) { deferredFills += 1 }
                        context.fill(shape)
                    case .fillAndStroke: context.fillAndStroke(shape)
                    case .stroke: context.stroke(shape)
                    case .shading:
                        context.fill(shape)
                        if i == 3 {
                            context.drawShading(Shading(Gradient(stops: [(0, .red), (1, .blue)]),
                                                        geometry: .axial(start: Point(x: rect.minX, y: 0), end: Point(x: rect.maxX, y: 0))))
                        }
                    case .nestedRect:
                        context.clip(to: inner)
                        if rasterizedAtOnce { context.settleRectClip() }
                        context.fill(shape)
                    case .rectFill:
                        context.fill(Rect(x: rect.minX + rect.width * 0.2 * Double(i), y: rect.minY + 5, width: 12, height: 9))
                        context.fill(shape)
                    }
                    context.restoreGState()
                }
                if masked, trial % 2 == 0 { context.restoreGState() }
                context.restoreGState()
                context.flush()
                bitmaps.append(bitmap)
            }
            var count = 0
            for y in 0..<300 { for x in 0..<400 where bitmaps[0][x, y] != bitmaps[1][x, y] { count += 1 } }
            if count > 0 { differing.append("trial \(trial): \(count) px") }
        }
        #expect(differing.isEmpty, "\(differing.count) of 300 differ: \(differing.prefix(3))")
        if drawing == .fills { #expect(deferredFills > 100, "fills drawn through the clip under the rectangle: \(deferredFills)") }
    }

    /// A rectangle around the whole clip is no clip; one whose inside misses a pixel of it is.
    @Test func aRectangleHoldsThePixelsWhollyInsideIt() {
        let t = Transform.identity.rotated(by: 0.3)
        let rect = Rect(x: 0, y: -100, width: 300, height: 300)
        #expect(GraphicsContext.rect(rect, under: t, holds: IntRect(x: 50, y: 20, width: 100, height: 80)))
        #expect(!GraphicsContext.rect(rect, under: t, holds: IntRect(x: 50, y: 20, width: 300, height: 80)))
        #expect(GraphicsContext.rect(rect, under: t, holds: IntRect(x: 0, y: 0, width: 0, height: 0)))
        #expect(!GraphicsContext.rect(rect, under: Transform(a: 1, b: 0, c: 2, d: 0, tx: 0, ty: 0), holds: IntRect(x: 1, y: 1, width: 1, height: 1)))
        #expect(!GraphicsContext.rect(Rect(x: 0, y: 0, width: .nan, height: 5), under: t, holds: IntRect(x: 1, y: 1, width: 1, height: 1)))
        // A pixel whose side lies on the rectangle's (within 1/16 px) is not counted as inside.
        #expect(!GraphicsContext.rect(Rect(x: 10, y: 10, width: 20, height: 20), under: .identity, holds: IntRect(x: 10, y: 10, width: 5, height: 5)))
        #expect(GraphicsContext.rect(Rect(x: 9.9, y: 9.9, width: 20, height: 20), under: .identity, holds: IntRect(x: 10, y: 10, width: 5, height: 5)))
    }
}

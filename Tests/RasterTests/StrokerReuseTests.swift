@testable import Raster
import Testing

@Suite struct StrokerReuseTests {
    private var shapes: [Path] {
        var circle = Path()
        circle.addEllipse(in: Rect(x: 0, y: 0, width: 80, height: 60))
        var zigzag = Path()
        zigzag.addLines(between: [Point(x: 0, y: 0), Point(x: 10, y: 30), Point(x: 20, y: 0), Point(x: 30, y: 30)])
        var square = Path()
        square.addRect(Rect(x: 5, y: 5, width: 10, height: 10))
        return [circle, zigzag, square, Path()]
    }

    @Test func reusedStrokerMatchesTheOneShotFunctions() {
        var stroker = PathStroker()
        let styles = [StrokeStyle(lineWidth: 3), StrokeStyle(lineWidth: 5, lineJoin: .round, lineCap: .round),
                      StrokeStyle(lineWidth: 2, lineCap: .square, dashPhase: 2, dashLengths: [6, 3, 0, 3]),
                      StrokeStyle(lineWidth: 0)]
        for _ in 0..<2 {
            for path in shapes {
                for style in styles {
                    #expect(stroker.outline(of: path, style: style, tolerance: 0.05) == path.strokedOutline(style, tolerance: 0.05))
                    let trimmed = stroker.outline(of: path, style: style, strokeStart: 0.2, strokeEnd: 0.7)
                    #expect(trimmed == path.trimmed(from: 0.2, to: 0.7).strokedOutline(style))
                }
            }
        }
        #expect(stroker.outline(of: shapes[0], style: styles[0], strokeStart: 0.5, strokeEnd: 0.5).isEmpty)
        #expect(stroker.outline(of: shapes[0], style: styles[0], strokeStart: .nan, strokeEnd: 1).isEmpty)
    }

    @Test func keptOutlineSurvivesTheNextCall() {
        var stroker = PathStroker()
        let first = stroker.outline(of: shapes[0], style: StrokeStyle(lineWidth: 4))
        let copy = Path(elements: first.elements)
        _ = stroker.outline(of: shapes[1], style: StrokeStyle(lineWidth: 9, lineJoin: .round))
        #expect(first == copy)
    }

    /// The same path, style, tolerance and trim again give the last outline without stroking it
    /// again (its storage, still held here, is handed out again instead of copied for a new
    /// stroke); a change in any of them, or the caller's path refilled in place, strokes afresh.
    @Test func theSameInputsGiveTheLastOutlineUnstroked() {
        func storage(_ path: Path) -> UnsafeRawPointer? { path.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        var stroker = PathStroker()
        var path = shapes[1]
        let style = StrokeStyle(lineWidth: 3, lineJoin: .round)
        let first = stroker.outline(of: path, style: style, tolerance: 0.05)
        let again = stroker.outline(of: path, style: style, tolerance: 0.05)
        #expect(again == first && storage(again) == storage(first))
        #expect(stroker.outline(of: shapes[1], style: style, tolerance: 0.05) == first)
        let wider = stroker.outline(of: path, style: StrokeStyle(lineWidth: 4, lineJoin: .round), tolerance: 0.05)
        #expect(wider == path.strokedOutline(StrokeStyle(lineWidth: 4, lineJoin: .round), tolerance: 0.05))
        #expect(stroker.outline(of: path, style: style, tolerance: 0.02) == path.strokedOutline(style, tolerance: 0.02))
        let trimmed = stroker.outline(of: path, style: style, tolerance: 0.02, strokeStart: 0.1, strokeEnd: 0.9)
        #expect(trimmed == path.trimmed(from: 0.1, to: 0.9).strokedOutline(style, tolerance: 0.02))
        _ = stroker.outline(of: path, style: style, tolerance: 0.05)
        path.removeAll()
        path.addLines(between: [Point(x: 0, y: 0), Point(x: 40, y: 5), Point(x: 3, y: 20)])
        #expect(stroker.outline(of: path, style: style, tolerance: 0.05) == path.strokedOutline(style, tolerance: 0.05))
    }

    /// A turning transform keeps a stroke's tolerance (its scale is 1 within ulps that change
    /// with the angle), so a turning shape's outline is stroked once.
    @Test func aTurningTransformKeepsTheOutline() throws {
        func storage(_ path: Path) -> UnsafeRawPointer? { path.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        let context = GraphicsContext(bitmap: try Bitmap(width: 8, height: 8))
        context.setStrokeStyle(StrokeStyle(lineWidth: 2, lineJoin: .round))
        context.concatenate(Transform(rotationAngle: 0.3))
        let first = context.strokeOutline(of: shapes[1])
        for step in 1..<50 {
            context.concatenate(Transform(rotationAngle: 0.0137 * Double(step)))
            let outline = context.strokeOutline(of: shapes[1])
            #expect(outline == first && storage(outline) == storage(first), "step \(step)")
        }
    }
}

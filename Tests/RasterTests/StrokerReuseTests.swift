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
}

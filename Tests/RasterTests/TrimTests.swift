import Foundation
@testable import Raster
import Testing

@Suite struct TrimTests {
    private func line(from a: Point, to b: Point) -> Path {
        var p = Path()
        p.move(to: a)
        p.addLine(to: b)
        return p
    }

    @Test func lengthOfLinesAndCircles() {
        #expect(line(from: .zero, to: Point(x: 3, y: 4)).length == 5)
        var square = Path()
        square.addRect(Rect(x: 1, y: 1, width: 10, height: 20))
        #expect(abs(square.length - 60) < 1e-12)
        var circle = Path()
        circle.addEllipse(in: Rect(x: 0, y: 0, width: 200, height: 200))
        // Four cubics approximate the circle to 0.03 % in radius.
        #expect(abs(circle.length - 200 * Double.pi) / (200 * Double.pi) < 3e-4)
        // Scale does not change the relative accuracy.
        let tiny = circle.applying(Transform(scaleX: 1e-6, y: 1e-6))
        #expect(abs(tiny.length / circle.length - 1e-6) < 1e-15)
        #expect(Path().length == 0)
        var nan = square
        nan.move(to: Point(x: .nan, y: 1))
        nan.addLine(to: .zero)
        #expect(abs(nan.length - 60) < 1e-12)
    }

    @Test func trimmedLineIsTheFractionOfItsLength() throws {
        let path = line(from: Point(x: 0, y: 5), to: Point(x: 100, y: 5))
        let middle = path.trimmed(from: 0.25, to: 0.75)
        #expect(abs(middle.length - 50) < 1e-12)
        let ends = try #require(middle.subpathEndpoints.first)
        #expect(ends.start == Point(x: 25, y: 5) && ends.end == Point(x: 75, y: 5))
    }

    @Test func fractionsRunAcrossSubpaths() {
        var path = line(from: .zero, to: Point(x: 100, y: 0))
        path.move(to: Point(x: 0, y: 10))
        path.addLine(to: Point(x: 300, y: 10))
        let half = path.trimmed(from: 0, to: 0.5)
        #expect(half.subpathCount == 2)
        #expect(abs(half.length - 200) < 1e-12)
        let second = path.trimmed(from: 0.5, to: 1)
        #expect(second.subpathCount == 1)
        #expect(second.subpathEndpoints.first?.start == Point(x: 100, y: 10))
    }

    @Test func trimmedCurveEndsOnTheCurveAtTheRightAngle() throws {
        var circle = Path()
        circle.addEllipse(in: Rect(x: -50, y: -50, width: 100, height: 100))
        for f in [0.1, 0.25, 0.3, 0.5, 0.9] {
            let piece = circle.trimmed(from: 0, to: f)
            #expect(abs(piece.length - f * circle.length) < 1e-6 * circle.length)
            let end = try #require(piece.currentPoint)
            // The cubic circle is not parametrized by angle, but its arc length nearly is.
            let angle = atan2(end.y, end.x)
            let expected = f * 2 * Double.pi
            #expect(abs(remainder(angle - expected, 2 * Double.pi)) < 1e-3, "fraction \(f)")
            #expect(abs(end.distance(to: .zero) - 50) < 0.02)
        }
    }

    @Test func wholeClosedSubpathStaysClosed() {
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        path.move(to: Point(x: 0, y: 20))
        path.addLine(to: Point(x: 40, y: 20))
        let trimmed = path.trimmed(from: 0, to: 0.9)
        #expect(trimmed.elements.prefix(5).last == .closeSubpath)
        let part = path.trimmed(from: 0, to: 0.25)
        #expect(!part.elements.contains(.closeSubpath))
        #expect(abs(part.length - 20) < 1e-12)
        // Stroked, the closed square has a mitered corner at its start; the part has butt ends.
        let closedOutline = FlatOutline(trimmed.strokedOutline(StrokeStyle(lineWidth: 2)))
        #expect(closedOutline.winding(at: Point(x: -0.9, y: -0.9)) != 0)
    }

    @Test func edgeCases() {
        let path = line(from: .zero, to: Point(x: 10, y: 0))
        #expect(path.trimmed(from: 0, to: 1) == path)
        #expect(path.trimmed(from: -3, to: 7) == path)
        #expect(path.trimmed(from: 0.5, to: 0.5).isEmpty)
        #expect(path.trimmed(from: 0.7, to: 0.2).isEmpty)
        #expect(path.trimmed(from: .nan, to: 1).isEmpty)
        #expect(path.trimmed(from: 0, to: .nan).isEmpty)
        #expect(abs(path.trimmed(from: -1, to: 0.5).length - 5) < 1e-12)
        #expect(Path().trimmed(from: 0.2, to: 0.4).isEmpty)
        var hostile = Path()
        hostile.move(to: Point(x: 1e300, y: -1e300))
        hostile.addCurve(to: Point(x: -1e300, y: 1e300), control1: Point(x: .infinity, y: 0), control2: .zero)
        hostile.addLine(to: .zero)
        _ = hostile.trimmed(from: 0.1, to: 0.6)
        _ = hostile.dashed(phase: 0, lengths: [1, 2])
        _ = hostile.length
    }
}

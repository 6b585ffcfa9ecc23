import Foundation
@testable import Raster
import Testing

@Suite struct PathCopyTests {
    /// Paths ending open, closed, after a lone move, and with a subpath started after a close.
    static let paths: [Path] = {
        var open = Path()
        open.move(to: Point(x: 1.5, y: -0.0))
        open.addLine(to: Point(x: 10, y: 2))
        open.addCurve(to: Point(x: 20, y: 30), control1: Point(x: 12, y: 5), control2: Point(x: 18, y: 25))
        open.addQuadCurve(to: Point(x: 4, y: 40), control: Point(x: 9, y: 35))
        var closed = open
        closed.closeSubpath()
        var lone = closed
        lone.move(to: Point(x: 7, y: 7))
        var again = closed
        again.addLine(to: Point(x: -3, y: 8))
        again.addArc(center: Point(x: 5, y: 5), radius: 3, startAngle: 0.3, endAngle: 2.9, clockwise: false)
        return [Path(), open, closed, lone, again]
    }()

    /// A path added into an empty one (a recorded fill's copy) is mapped element by element,
    /// without `append`'s checks: the result is what appending each mapped element gives, the
    /// current point and the subpath's start included, so lines and closes added after it join
    /// the same points.
    @Test(arguments: [Transform.identity, Transform(a: 2, b: 0.5, c: -0.25, d: 1.5, tx: 960.5, ty: -3)])
    func addingIntoAnEmptyPathIsAppendingEachElement(transform: Transform) {
        for (i, source) in Self.paths.enumerated() {
            var copied = Path()
            copied.addPath(source, transform: transform)
            var appended = Path()
            for e in source.elements { appended.append(e.applying(transform)) }
            #expect(copied == appended, "path \(i)")
            #expect(copied.currentPoint == appended.currentPoint, "path \(i)")
            // What follows joins the same points.
            copied.addLine(to: Point(x: 50, y: 60))
            copied.closeSubpath()
            copied.addLine(to: Point(x: 70, y: 80))
            appended.addLine(to: Point(x: 50, y: 60))
            appended.closeSubpath()
            appended.addLine(to: Point(x: 70, y: 80))
            #expect(copied.elements == appended.elements, "path \(i)")
            // Added after other elements, it still goes through `append` (a move after a move collapses).
            var after = Path()
            after.move(to: Point(x: 0, y: 0))
            after.addPath(source, transform: transform)
            var expected = Path()
            expected.move(to: Point(x: 0, y: 0))
            for e in source.elements { expected.append(e.applying(transform)) }
            #expect(after == expected, "path \(i)")
        }
    }
}

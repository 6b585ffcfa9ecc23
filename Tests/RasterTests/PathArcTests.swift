import Foundation
import Raster
import Testing

@Suite struct PathArcTests {
    @Test func arcEndsWhereCoreGraphicsDoes() throws {
        var path = Path()
        path.addArc(center: Point(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let end = try #require(path.currentPoint)
        #expect(abs(end.x - 10) < 1e-12 && abs(end.y - 15) < 1e-12)
        // Counter-clockwise (increasing angle) a quarter turn stays in the lower-right quadrant.
        #expect(path.boundingBox.minX >= 10 - 1e-9 && path.boundingBox.minY >= 10 - 1e-9)
    }

    @Test func clockwiseTakesTheLongWayForAnIncreasingEndAngle() {
        var path = Path()
        path.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        // Three quarters of the circle: four cubic pieces at most, reaching x = -1 and y = -1.
        #expect(path.boundingBox.minX < -0.99 && path.boundingBox.minY < -0.99)
    }

    @Test func arcPointsLieOnTheCircle() {
        var path = Path()
        path.addArc(center: Point(x: 3, y: -2), radius: 7, startAngle: -.pi / 2, endAngle: 2.8, clockwise: false)
        for case let .curve(p, _, _) in path.elements {
            #expect(abs(p.distance(to: Point(x: 3, y: -2)) - 7) < 1e-9)
        }
    }
}

import Foundation
@testable import Raster
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

    /// An arc of one-piece calls (the arrow's, cut at multiples of π/32, both ways) takes each
    /// piece's start cosine and sine from the call before, and its tangent from the last piece of
    /// the same sweep: every point is the one a path without that memory computes.
    @Test func aPieceStartingWhereTheLastEndedHasTheSamePoints() {
        let step = Double.pi / 32
        for (from, sweep) in [(-Double.pi / 2 + 0.013, step), (2.1, -step)] {
            var path = Path()
            var a = from
            for piece in 0..<150 {
                let b = sweep > 0 ? ((a / step).rounded(.down) + 1) * step : ((a / step).rounded(.up) - 1) * step
                let radius = piece % 40 < 20 ? 540.0 : 432.0
                var fresh = Path(elements: path.elements)
                fresh.addArc(center: Point(x: 960, y: 540), radius: radius, startAngle: a, endAngle: b, clockwise: sweep < 0)
                path.addArc(center: Point(x: 960, y: 540), radius: radius, startAngle: a, endAngle: b, clockwise: sweep < 0)
                #expect(path.elements == fresh.elements, "piece \(piece)")
                // The memory is no part of the value.
                #expect(path == fresh && path.hashValue == fresh.hashValue)
                a = b
            }
        }
    }

    /// The table of multiples of π/32 gives what `cos` and `sin` give, to the bit: for those
    /// angles, for their neighbours one ulp away, and for angles that are no multiple.
    @Test func tabledCosinesAndSinesAreTheFunctions() {
        let step = Double.pi / 32
        var angles: [Double] = [0, -0.0, .pi / 2, -.pi, 2 * .pi, 1, -2.5, .nan, .infinity, 1e300]
        for k in -300...300 {
            let a = Double(k) * step
            angles += [a, a.nextUp, a.nextDown, (a / step).rounded(.down) * step]
        }
        for a in angles {
            let (c, s) = ArcAngles.cosSin(a)
            #expect(c.bitPattern == cos(a).bitPattern && s.bitPattern == sin(a).bitPattern, "angle \(a)")
        }
    }

    @Test func arcPointsLieOnTheCircle() {
        var path = Path()
        path.addArc(center: Point(x: 3, y: -2), radius: 7, startAngle: -.pi / 2, endAngle: 2.8, clockwise: false)
        for case let .curve(p, _, _) in path.elements {
            #expect(abs(p.distance(to: Point(x: 3, y: -2)) - 7) < 1e-9)
        }
    }
}

@Suite struct PathInterpolationTests {
    /// Interpolating into a path keeps its element storage (no allocation for an animation
    /// frame) and gives the same path as `interpolated(to:fraction:)`.
    @Test func interpolatingIntoAPathReusesItsStorage() throws {
        var a = Path(), b = Path()
        a.addRoundedRect(in: Rect(x: 0, y: 0, width: 40, height: 20), cornerWidth: 5, cornerHeight: 5)
        b.addRoundedRect(in: Rect(x: 10, y: 5, width: 60, height: 30), cornerWidth: 8, cornerHeight: 8)
        var result = try #require(a.interpolated(to: b, fraction: 0.25))
        let storage = result.elements.withUnsafeBufferPointer { $0.baseAddress }
        for f in [0.5, 0.75, 1.3] {
            #expect(a.interpolate(to: b, fraction: f, into: &result))
            #expect(result == a.interpolated(to: b, fraction: f))
            #expect(result.elements.withUnsafeBufferPointer { $0.baseAddress } == storage)
        }
        var line = Path()
        line.move(to: .zero)
        line.addLine(to: Point(x: 1, y: 1))
        #expect(!a.interpolate(to: line, fraction: 0.5, into: &result))
        #expect(result == a.interpolated(to: b, fraction: 1.3))
    }
}

@Suite struct FlattenTests {
    /// A flattened circle's vertices lie on the circle, and its chords stay within the tolerance.
    @Test(arguments: [0.1, 0.01])
    func flattenedCircleStaysWithinTolerance(tolerance: Double) {
        var path = Path()
        path.addEllipse(in: Rect(x: -100, y: -100, width: 200, height: 200))
        var points: [Point] = []
        path.forEachFlattened(tolerance: tolerance) { e in
            switch e {
            case let .move(p), let .line(p): points.append(p)
            case .close: break
            }
        }
        #expect(points.count > 16)
        for (a, b) in zip(points, points.dropFirst()) {
            let mid = a.interpolated(to: b, fraction: 0.5)
            // Sagitta of the chord plus the cubic's own radial error (2.7e-4 · r).
            #expect(100 - mid.distance(to: .zero) <= tolerance + 0.03)
        }
    }

    /// After a close the current point is the subpath's start (Core Graphics'), so a curve drawn
    /// on without a move is flattened from there: the same points as after an explicit move to
    /// the start (they were computed from the point before the close, while the first edge
    /// started at the start: a curve other than the one drawn, and other than the segment a
    /// partial update of tracked coverage compares).
    @Test func aCurveDrawnOnAfterACloseIsFlattenedFromTheSubpathStart() {
        func flattened(_ path: Path) -> [Point] {
            var points: [Point] = []
            path.forEachFlattened(transform: Transform(a: 1.5, b: 0.25, c: -0.5, d: 2, tx: 3, ty: 4)) { e in
                if case let .line(p) = e { points.append(p) }
            }
            return points
        }
        var closed = Path()
        closed.move(to: Point(x: 10, y: 10))
        closed.addLine(to: Point(x: 80, y: 15))
        closed.addLine(to: Point(x: 60, y: 70))
        closed.closeSubpath()
        var moved = closed
        moved.move(to: Point(x: 10, y: 10))
        for var path in [closed, moved] {
            path.addCurve(to: Point(x: 5, y: 90), control1: Point(x: -30, y: 30), control2: Point(x: 40, y: 60))
            path.addQuadCurve(to: Point(x: 50, y: 95), control: Point(x: 30, y: 120))
            if path.elements.count == closed.elements.count + 2 { closed = path } else { moved = path }
        }
        #expect(flattened(closed) == flattened(moved))
    }

    @Test func scaleRaisesTheSegmentCount() {
        var path = Path()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        func count(_ t: Transform) -> Int { var n = 0; path.forEachFlattened(transform: t) { _ in n += 1 }; return n }
        #expect(count(Transform(scaleX: 20, y: 20)) > 3 * count(.identity))
    }

    @Test func nonFiniteCurveDoesNotHang() {
        var path = Path()
        path.move(to: .zero)
        path.addCurve(to: Point(x: .infinity, y: 1), control1: Point(x: .nan, y: 0), control2: Point(x: 1e300, y: -1e300))
        var n = 0
        path.forEachFlattened { _ in n += 1 }
        #expect(n <= 2 + Path.maximumSegmentsPerCurve)
    }
}

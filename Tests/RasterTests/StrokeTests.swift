import Foundation
@testable import Raster
import Testing

@Suite struct StrokeTests {
    private func line(_ a: Point, _ b: Point) -> Path {
        var p = Path()
        p.move(to: a)
        p.addLine(to: b)
        return p
    }

    @Test func horizontalLineCoversWidthTimesLength() {
        let outline = FlatOutline(line(Point(x: 2, y: 5), Point(x: 22, y: 5)).strokedOutline(StrokeStyle(lineWidth: 4)))
        let (area, mixed) = outline.nonzeroArea(step: 0.05)
        #expect(abs(area - 80) < 0.01)
        #expect(!mixed)
        #expect(outline.bounds == Rect(x: 2, y: 3, width: 20, height: 4))
    }

    @Test(arguments: [LineCap.butt, .square, .round])
    func capsExtendHalfTheWidthExceptButt(cap: LineCap) {
        let w = 6.0
        let outline = FlatOutline(line(Point(x: 0, y: 0), Point(x: 30, y: 0))
            .strokedOutline(StrokeStyle(lineWidth: w, lineCap: cap), tolerance: 0.01))
        let extra = cap == .butt ? 0 : w / 2
        // Round caps are chords within the tolerance of the half circle.
        let slack = cap == .round ? 0.011 : 1e-9
        #expect(abs(outline.bounds.minX - (-extra)) < slack)
        #expect(abs(outline.bounds.maxX - (30 + extra)) < slack)
        let expected: Double
        switch cap {
        case .butt: expected = 30 * w
        case .square: expected = (30 + w) * w
        case .round: expected = 30 * w + Double.pi * (w / 2) * (w / 2)
        }
        let (area, mixed) = outline.nonzeroArea(step: 0.05)
        #expect(abs(area - expected) / expected < 0.003, "area \(area), expected \(expected)")
        #expect(!mixed)
        // A round cap is a half disc: the point at 45° on its rim is inside, its square corner is not.
        if cap == .round {
            #expect(outline.winding(at: Point(x: 30 + 0.95 * w / 2 * 0.7071, y: 0.95 * w / 2 * 0.7071)) != 0)
            #expect(outline.winding(at: Point(x: 30 + 0.45 * w, y: 0.45 * w)) == 0)
        }
    }

    /// Two segments meeting at angle θ at the origin, the bisector pointing along −x.
    private func corner(angle theta: Double) -> Path {
        var p = Path()
        p.move(to: Point(x: 40 * cos(theta / 2), y: -40 * sin(theta / 2)))
        p.addLine(to: .zero)
        p.addLine(to: Point(x: 40 * cos(theta / 2), y: 40 * sin(theta / 2)))
        return p
    }

    @Test func miterTipIsHalfWidthOverSineOfHalfAngle() {
        let w = 4.0, theta = 30.0 * .pi / 180   // 1 / sin 15° ≈ 3.86, under the limit 10
        let outline = FlatOutline(corner(angle: theta).strokedOutline(StrokeStyle(lineWidth: w, lineJoin: .miter)))
        let tip = w / 2 / sin(theta / 2)
        #expect(abs(outline.bounds.minX - (-tip)) < 1e-9)
        #expect(outline.winding(at: Point(x: -tip + 0.05, y: 0)) != 0)
        #expect(outline.winding(at: Point(x: -tip - 0.05, y: 0)) == 0)
    }

    @Test func miterOverTheLimitIsBeveled() {
        let w = 4.0, theta = 10.0 * .pi / 180   // 1 / sin 5° ≈ 11.5 > 10
        let beveled = FlatOutline(corner(angle: theta).strokedOutline(StrokeStyle(lineWidth: w, lineJoin: .miter)))
        let bevel = FlatOutline(corner(angle: theta).strokedOutline(StrokeStyle(lineWidth: w, lineJoin: .bevel)))
        // The bevel cuts the corner at the vertex's offset points: x = −(w/2)·sin(θ/2).
        #expect(abs(beveled.bounds.minX - (-(w / 2) * sin(theta / 2))) < 1e-9)
        #expect(beveled.edges.count == bevel.edges.count)
        // With a higher limit the same corner is mitered all the way to the tip.
        let mitered = FlatOutline(corner(angle: theta).strokedOutline(StrokeStyle(lineWidth: w, miterLimit: 12)))
        #expect(abs(mitered.bounds.minX - (-(w / 2) / sin(theta / 2))) < 1e-9)
    }

    @Test func roundJoinIsADiscAroundTheVertex() {
        let w = 8.0
        let outline = FlatOutline(corner(angle: .pi / 2).strokedOutline(StrokeStyle(lineWidth: w, lineJoin: .round), tolerance: 0.01))
        #expect(abs(outline.bounds.minX - (-w / 2)) < 0.011)
        for k in 0..<16 {
            let a = Double.pi * 3 / 4 + Double(k) / 15 * Double.pi / 2
            #expect(outline.winding(at: Point(x: (w / 2 - 0.02) * cos(a), y: (w / 2 - 0.02) * sin(a))) != 0)
            #expect(outline.winding(at: Point(x: (w / 2 + 0.02) * cos(a), y: (w / 2 + 0.02) * sin(a))) == 0)
        }
    }

    @Test func closedSquareIsAFrameWithAHole() {
        var square = Path()
        square.addRect(Rect(x: 0, y: 0, width: 20, height: 20))
        let outline = FlatOutline(square.strokedOutline(StrokeStyle(lineWidth: 4)))
        #expect(outline.winding(at: Point(x: 10, y: 10)) == 0)
        #expect(outline.winding(at: Point(x: 0, y: 10)) != 0)
        #expect(outline.winding(at: Point(x: -1.9, y: -1.9)) != 0)   // mitered corner
        #expect(outline.bounds == Rect(x: -2, y: -2, width: 24, height: 24))
        let (area, mixed) = outline.nonzeroArea(step: 0.05)
        #expect(abs(area - (24 * 24 - 16 * 16)) < 0.01)
        #expect(!mixed)
        // No caps on a closed subpath, even with square caps.
        let capped = FlatOutline(square.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .square)))
        #expect(capped.bounds == outline.bounds)
    }

    @Test func strokedCircleIsAnAnnulus() {
        var circle = Path()
        circle.addEllipse(in: Rect(x: -30, y: -30, width: 60, height: 60))
        let outline = FlatOutline(circle.strokedOutline(StrokeStyle(lineWidth: 10), tolerance: 0.01))
        let expected = Double.pi * (35 * 35 - 25 * 25)
        let (area, mixed) = outline.nonzeroArea(step: 0.1)
        #expect(abs(area - expected) / expected < 0.002, "area \(area), expected \(expected)")
        #expect(!mixed)
        #expect(outline.winding(at: .zero) == 0)
    }

    @Test func zeroLengthSubpathsDrawDotsWithRoundAndSquareCaps() {
        let dot = line(Point(x: 5, y: 5), Point(x: 5, y: 5))
        #expect(dot.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .butt)).isEmpty)
        let square = FlatOutline(dot.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .square)))
        #expect(square.bounds == Rect(x: 3, y: 3, width: 4, height: 4))
        let disc = FlatOutline(dot.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .round), tolerance: 0.01))
        let (area, _) = disc.nonzeroArea(step: 0.02)
        #expect(abs(area - 4 * Double.pi) / (4 * Double.pi) < 0.01)
        // A dot much thinner than the tolerance still has some area.
        let thin = FlatOutline(dot.strokedOutline(StrokeStyle(lineWidth: 0.02, lineCap: .round), tolerance: 0.1))
        #expect(thin.winding(at: Point(x: 5, y: 5)) != 0)
        // A lone move draws nothing.
        var move = Path()
        move.move(to: .zero)
        #expect(move.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .round)).isEmpty)
    }

    @Test func everyContourHasTheSameOrientation() {
        // A round dot overlapping a line would cancel out under the non-zero rule otherwise.
        var path = line(Point(x: 0, y: 0), Point(x: 20, y: 0))
        path.move(to: Point(x: 10, y: 0))
        path.addLine(to: Point(x: 10, y: 0))
        var square = Path()
        square.addRect(Rect(x: 5, y: -5, width: 10, height: 10))
        path.addPath(square)
        for cap in [LineCap.round, .square] {
            let outline = FlatOutline(path.strokedOutline(StrokeStyle(lineWidth: 3, lineCap: cap)))
            #expect(outline.winding(at: Point(x: 10, y: 0)) != 0)
            #expect(!outline.nonzeroArea(step: 0.1).mixedSigns)
        }
    }

    /// With round joins and caps the stroke is exactly the set of points within w/2 of the
    /// polyline, which gives an independent check of every join, short cut and detour.
    @Test func roundStrokeOfRandomPolylinesIsTheDistanceSet() {
        var rng = SeededGenerator(state: 42)
        for _ in 0..<30 {
            var points: [Point] = []
            let count = Int.random(in: 2...7, using: &rng)
            for _ in 0..<count {
                points.append(Point(x: Double.random(in: 0...40, using: &rng), y: Double.random(in: 0...40, using: &rng)))
            }
            var path = Path()
            path.addLines(between: points)
            let w = Double.random(in: 0.5...16, using: &rng)
            let tolerance = 0.01
            let outline = FlatOutline(path.strokedOutline(StrokeStyle(lineWidth: w, lineJoin: .round, lineCap: .round), tolerance: tolerance))
            for _ in 0..<600 {
                let p = Point(x: Double.random(in: -10...50, using: &rng), y: Double.random(in: -10...50, using: &rng))
                var d = Double.infinity
                for i in 0..<(points.count - 1) { d = min(d, distance(from: p, toSegment: points[i], points[i + 1])) }
                guard abs(d - w / 2) > 2 * tolerance else { continue }
                #expect((outline.winding(at: p) != 0) == (d < w / 2), "w \(w) points \(points) at \(p)")
            }
        }
    }

    /// With bevel joins and butt caps the stroke is the union of one rectangle per segment and
    /// one triangle per join.
    @Test func bevelStrokeOfRandomPolylinesIsTheUnionOfQuadsAndTriangles() {
        var rng = SeededGenerator(state: 7)
        func inside(_ p: Point, _ poly: [Point]) -> Bool {
            var sign = 0.0
            for i in 0..<poly.count {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let s = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
                if s == 0 { continue }
                if sign == 0 { sign = s } else if (s > 0) != (sign > 0) { return false }
            }
            return sign != 0
        }
        for _ in 0..<30 {
            var points: [Point] = []
            for _ in 0..<Int.random(in: 2...6, using: &rng) {
                points.append(Point(x: Double.random(in: 0...40, using: &rng), y: Double.random(in: 0...40, using: &rng)))
            }
            var path = Path()
            path.addLines(between: points)
            let h = Double.random(in: 0.5...8, using: &rng)
            // A tolerance this fine keeps nearly straight joins beveled rather than mitered.
            let outline = FlatOutline(path.strokedOutline(StrokeStyle(lineWidth: 2 * h, lineJoin: .bevel), tolerance: 1e-7))
            var pieces: [[Point]] = []
            var normals: [Point] = []
            for i in 0..<(points.count - 1) {
                let a = points[i], b = points[i + 1], d = b - a, len = a.distance(to: b)
                let n = Point(x: -d.y / len * h, y: d.x / len * h)
                normals.append(n)
                pieces.append([a + n, b + n, b - n, a - n])
            }
            for i in 1..<(points.count - 1) {
                let p = points[i]
                let cross = (points[i].x - points[i - 1].x) * (points[i + 1].y - points[i].y)
                    - (points[i].y - points[i - 1].y) * (points[i + 1].x - points[i].x)
                let s = cross > 0 ? -1.0 : 1.0
                pieces.append([p, p + normals[i - 1] * s, p + normals[i] * s])
            }
            for _ in 0..<600 {
                let p = Point(x: Double.random(in: -10...50, using: &rng), y: Double.random(in: -10...50, using: &rng))
                let expected = pieces.contains { inside(p, $0) }
                // Skip points within 1e-6 of a piece's edge, where either answer is right.
                let nearEdge = pieces.contains { poly in
                    (0..<poly.count).contains { distance(from: p, toSegment: poly[$0], poly[($0 + 1) % poly.count]) < 1e-6 }
                }
                guard !nearEdge else { continue }
                #expect((outline.winding(at: p) != 0) == expected, "h \(h) points \(points) at \(p)")
            }
        }
    }

    @Test func tighterToleranceGivesMoreRoundJoinPoints() {
        let path = corner(angle: .pi / 3)
        let coarse = path.strokedOutline(StrokeStyle(lineWidth: 20, lineJoin: .round), tolerance: 1)
        let fine = path.strokedOutline(StrokeStyle(lineWidth: 20, lineJoin: .round), tolerance: 0.01)
        #expect(fine.elements.count > coarse.elements.count + 10)
    }

    @Test func badWidthsStrokeNothing() {
        let path = line(.zero, Point(x: 10, y: 0))
        for w in [0, -1, .nan, .infinity] {
            #expect(path.strokedOutline(StrokeStyle(lineWidth: w)).isEmpty)
        }
        #expect(Path().strokedOutline(StrokeStyle()).isEmpty)
    }

    @Test func hostileGeometryStaysBoundedAndFinite() {
        var nan = line(Point(x: .nan, y: 0), Point(x: 10, y: 10))
        nan.addLine(to: Point(x: .infinity, y: 3))
        nan.move(to: .zero)
        nan.addLine(to: Point(x: 10, y: 0))
        let nanOutline = nan.strokedOutline(StrokeStyle(lineWidth: 2))
        #expect(nanOutline.boundingBox == Rect(x: 0, y: -1, width: 10, height: 2))

        var huge = line(Point(x: -1e9, y: 1e9), Point(x: 1e9, y: -1e9))
        huge.addCurve(to: Point(x: 1e9, y: 1e9), control1: Point(x: -1e9, y: -1e9), control2: .zero)
        for join in [LineJoin.round, .miter, .bevel] {
            let outline = huge.strokedOutline(StrokeStyle(lineWidth: 1e8, lineJoin: join, lineCap: .round), tolerance: 1e-6)
            #expect(outline.elements.count <= Stroker.maximumOutlineElements + 1)
            #expect(outline.boundingBox.width.isFinite && outline.boundingBox.width > 0)
        }

        var overflow = line(Point(x: -1e308, y: 0), Point(x: 1e308, y: 0))
        overflow.addLine(to: Point(x: 0, y: 1e308))
        _ = overflow.strokedOutline(StrokeStyle(lineWidth: 1e308, lineJoin: .round, lineCap: .round))
    }

    @Test func millionSegmentPathIsStroked() {
        var path = Path()
        path.reserveCapacity(1_000_001)
        path.move(to: .zero)
        for i in 1...1_000_000 { path.addLine(to: Point(x: Double(i) * 0.01, y: 5 * sin(Double(i) * 0.001))) }
        let outline = path.strokedOutline(StrokeStyle(lineWidth: 1))
        #expect(outline.elements.count <= Stroker.maximumOutlineElements + 1)
        #expect(outline.boundingBox.minY < -5 && outline.boundingBox.maxY > 5 && outline.boundingBox.maxX > 10_000)
    }

    @Test func outlineStopsGrowingAtItsLimit() {
        var zigzag = Path()
        zigzag.move(to: .zero)
        for i in 1...10_000 { zigzag.addLine(to: Point(x: Double(i) * 0.01, y: i % 2 == 0 ? 0 : 5)) }
        var stroker = Stroker(style: StrokeStyle(lineWidth: 1, lineJoin: .round), tolerance: 0.1, maximumElements: 1000)
        stroker.stroke(zigzag, flatteningTolerance: 0.1)
        #expect(stroker.output.elements.count <= 1001)
        #expect(stroker.output.elements.last == .closeSubpath)
    }

    @Test func millionCurvePathIsFlattenedCoarserToStayBounded() {
        // A million curves would flatten to billions of points at the requested tolerance.
        var curves = Path()
        curves.reserveCapacity(1_000_001)
        curves.move(to: .zero)
        for i in 1...1_000_000 {
            curves.addCurve(to: Point(x: Double(i), y: 0), control1: Point(x: Double(i), y: 1e7), control2: Point(x: Double(i), y: -1e7))
        }
        #expect(Stroker.flatteningTolerance(for: curves, tolerance: 0.1) > 0.1)
        let curveOutline = curves.strokedOutline(StrokeStyle(lineWidth: 1), tolerance: 0.1)
        #expect(curveOutline.elements.count <= Stroker.maximumOutlineElements + 1)
    }
}

// ShapeGeometry: Bodymovin's shapes as paths, with the start points and directions trim paths see.

#if canImport(Glibc)
import Glibc
#endif
import Raster

enum ShapeGeometry {
    /// The cubic control distance of a quarter ellipse, as Bodymovin players use.
    static let kappa = 0.5519150244935105

    static func path(_ shape: BezierShape) -> Path {
        var path = Path()
        let v = shape.vertices
        guard let first = v.first else { return path }
        func point(_ p: [Double]) -> Point { Point(x: p.at(0), y: p.at(1)) }
        func tangent(_ list: [[Double]], _ i: Int) -> Point { i < list.count ? point(list[i]) : .zero }
        path.move(to: point(first))
        func segment(_ from: Int, _ to: Int) {
            let a = point(v[from]), b = point(v[to])
            let c1 = a + tangent(shape.outTangents, from), c2 = b + tangent(shape.inTangents, to)
            if c1 == a && c2 == b { path.addLine(to: b) } else { path.addCurve(to: b, control1: c1, control2: c2) }
        }
        for i in v.indices.dropFirst() { segment(i - 1, i) }
        if shape.closed {
            if v.count > 1 { segment(v.count - 1, 0) }
            path.closeSubpath()
        }
        return path
    }

    /// A rectangle centred on `center`, starting at the top-right corner and turning clockwise
    /// (counter-clockwise when `reversed`), with corners rounded by `roundness`.
    static func rectangle(center c: Point, size s: Point, roundness: Double, reversed: Bool) -> Path {
        let hw = abs(s.x) / 2, hh = abs(s.y) / 2
        let r = max(0, min(roundness, hw, hh))
        var points: [(Point, Point, Point)] = [] // vertex, in tangent, out tangent (relative)
        let k = r * (1 - kappa)
        if r == 0 {
            points = [(Point(x: c.x + hw, y: c.y - hh), .zero, .zero), (Point(x: c.x + hw, y: c.y + hh), .zero, .zero),
                      (Point(x: c.x - hw, y: c.y + hh), .zero, .zero), (Point(x: c.x - hw, y: c.y - hh), .zero, .zero)]
        } else {
            let kk = r - k
            points = [
                (Point(x: c.x + hw, y: c.y - hh + r), Point(x: 0, y: -kk), .zero),
                (Point(x: c.x + hw, y: c.y + hh - r), .zero, Point(x: 0, y: kk)),
                (Point(x: c.x + hw - r, y: c.y + hh), Point(x: kk, y: 0), .zero),
                (Point(x: c.x - hw + r, y: c.y + hh), .zero, Point(x: -kk, y: 0)),
                (Point(x: c.x - hw, y: c.y + hh - r), Point(x: 0, y: kk), .zero),
                (Point(x: c.x - hw, y: c.y - hh + r), .zero, Point(x: 0, y: -kk)),
                (Point(x: c.x - hw + r, y: c.y - hh), Point(x: -kk, y: 0), .zero),
                (Point(x: c.x + hw - r, y: c.y - hh), .zero, Point(x: kk, y: 0)),
            ]
        }
        return closedPath(points, reversed: reversed)
    }

    /// An ellipse starting at the top and turning clockwise (counter-clockwise when `reversed`).
    static func ellipse(center c: Point, size s: Point, reversed: Bool) -> Path {
        let rx = s.x / 2, ry = s.y / 2, kx = rx * kappa, ky = ry * kappa
        let points: [(Point, Point, Point)] = [
            (Point(x: c.x, y: c.y - ry), Point(x: -kx, y: 0), Point(x: kx, y: 0)),
            (Point(x: c.x + rx, y: c.y), Point(x: 0, y: -ky), Point(x: 0, y: ky)),
            (Point(x: c.x, y: c.y + ry), Point(x: kx, y: 0), Point(x: -kx, y: 0)),
            (Point(x: c.x - rx, y: c.y), Point(x: 0, y: ky), Point(x: 0, y: -ky)),
        ]
        return closedPath(points, reversed: reversed)
    }

    /// A star or polygon, as After Effects draws them: the first point straight up (before rotation).
    static func star(_ m: StarModel, at f: Double) -> Path {
        let isPolygon = m.isPolygon
        let count = max(0, Int(m.points.value(at: f).value.rounded(.down)))
        guard count > 0, count <= 10_000 else { return Path() }
        let center = m.position.value(at: f)
        let outer = m.outerRadius.value(at: f).value, inner = m.innerRadius.value(at: f).value
        let outerRound = m.outerRoundness.value(at: f).value / 100, innerRound = m.innerRoundness.value(at: f).value / 100
        let vertices = isPolygon ? count : count * 2
        let step = 2 * Double.pi / Double(vertices)
        var angle = -Double.pi / 2 + m.rotation.value(at: f).value * .pi / 180
        var points: [(Point, Point, Point)] = []
        points.reserveCapacity(vertices)
        for i in 0..<vertices {
            let long = isPolygon || i % 2 == 0
            let radius = long ? outer : inner
            let roundness = long ? outerRound : innerRound
            let perimeter = isPolygon ? 2 * Double.pi * radius / Double(vertices * 4) : 2 * Double.pi * radius / Double(vertices * 2)
            let x = radius * cos(angle), y = radius * sin(angle)
            let length = (x * x + y * y).squareRoot()
            let ox = length > 0 ? y / length : 0, oy = length > 0 ? -x / length : 0
            let t = Point(x: ox * perimeter * roundness, y: oy * perimeter * roundness)
            points.append((Point(x: center[0] + x, y: center[1] + y), t, Point(x: -t.x, y: -t.y)))
            angle += step
        }
        return closedPath(points, reversed: m.reversed)
    }

    /// A closed path through vertices with relative in and out tangents.
    private static func closedPath(_ points: [(Point, Point, Point)], reversed: Bool) -> Path {
        var list = points
        if reversed {
            // Same start point, the other way round; tangents swap roles.
            list = [points[0]] + points.dropFirst().reversed()
            list = list.map { ($0.0, $0.2, $0.1) }
        }
        var path = Path()
        guard let first = list.first else { return path }
        path.move(to: first.0)
        for i in 0..<list.count {
            let a = list[i], b = list[(i + 1) % list.count]
            let c1 = a.0 + a.2, c2 = b.0 + b.1
            if c1 == a.0 && c2 == b.0 { path.addLine(to: b.0) } else { path.addCurve(to: b.0, control1: c1, control2: c2) }
        }
        path.closeSubpath()
        return path
    }

    /// The parts of `path` that a trim from `start` to `end` percent, offset by `offset` degrees, keeps.
    static func trim(_ path: Path, start: Double, end: Double, offset: Double) -> Path {
        guard let (s, e) = trimRange(start: start, end: end, offset: offset) else { return Path() }
        if s == 0 && e == 1 { return path }
        if e <= 1 { return path.trimmed(from: s, to: e) }
        var out = path.trimmed(from: s, to: 1)
        out.addPath(path.trimmed(from: 0, to: e - 1))
        return out
    }

    /// The part of `paths[index]` kept when all `paths` are trimmed as one path, in order.
    static func trimTogether(_ paths: [Path], index: Int, start: Double, end: Double, offset: Double) -> Path {
        guard let (s, e) = trimRange(start: start, end: end, offset: offset) else { return Path() }
        if s == 0 && e == 1 { return paths[index] }
        let lengths = paths.map(\.length)
        let total = lengths.reduce(0, +), length = lengths[index]
        guard total > 0, length > 0 else { return Path() }
        let before = lengths[..<index].reduce(0, +)
        var out = Path()
        func keep(_ a: Double, _ b: Double) {
            let lo = max(0, a * total - before) / length, hi = min(length, b * total - before) / length
            if hi > lo { out.addPath(paths[index].trimmed(from: lo, to: hi)) }
        }
        if e <= 1 { keep(s, e) } else { keep(s, 1); keep(0, e - 1) }
        return out
    }

    /// The kept fractions (start below end, start in 0..<1, end at most start + 1), or `nil` for nothing.
    static func trimRange(start: Double, end: Double, offset: Double) -> (Double, Double)? {
        var s = min(1, max(0, start / 100)), e = min(1, max(0, end / 100))
        if s > e { swap(&s, &e) }
        if e - s < 1e-6 { return nil }
        if e - s >= 1 - 1e-6 { return (0, 1) }
        var o = (offset / 360).truncatingRemainder(dividingBy: 1)
        if o < 0 { o += 1 }
        s += o; e += o
        if s >= 1 { s -= 1; e -= 1 }
        return (s, e)
    }
}

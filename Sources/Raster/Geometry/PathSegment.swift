// PathSegment: one drawing element with its start point, for measuring and cutting by arc length.

/// A line, quadratic or cubic Bézier segment with its start point. Dashing and trimming cut
/// paths at arc lengths; this keeps the cut pieces as curves so that they are flattened later
/// at the scale they are drawn.
struct PathSegment {
    enum Kind { case line, quad, cubic }

    var kind: Kind
    /// Start, control points and end; unused control points repeat the end.
    var p0: Point, p1: Point, p2: Point, p3: Point

    static func line(_ a: Point, _ b: Point) -> PathSegment { PathSegment(kind: .line, p0: a, p1: b, p2: b, p3: b) }

    /// The segment that `element` draws from `start`; `nil` for a move or a close.
    init?(_ element: PathElement, from start: Point) {
        switch element {
        case let .line(p): self = .line(start, p)
        case let .quadCurve(p, c): self.init(kind: .quad, p0: start, p1: c, p2: p, p3: p)
        case let .curve(p, c1, c2): self.init(kind: .cubic, p0: start, p1: c1, p2: c2, p3: p)
        case .move, .closeSubpath: return nil
        }
    }

    private init(kind: Kind, p0: Point, p1: Point, p2: Point, p3: Point) {
        self.kind = kind; self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
    }

    var end: Point {
        switch kind {
        case .line: return p1
        case .quad: return p2
        case .cubic: return p3
        }
    }

    /// The element that draws this segment from its start.
    var element: PathElement {
        switch kind {
        case .line: return .line(to: p1)
        case .quad: return .quadCurve(to: p2, control: p1)
        case .cubic: return .curve(to: p3, control1: p1, control2: p2)
        }
    }

    var isFinite: Bool { p0.isFinite && p1.isFinite && p2.isFinite && p3.isFinite }

    func point(at t: Double) -> Point {
        let u = 1 - t
        switch kind {
        case .line: return p0.interpolated(to: p1, fraction: t)
        case .quad: return u * u * p0 + 2 * u * t * p1 + t * t * p2
        case .cubic: return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3
        }
    }

    /// |dB/dt|, the rate at which arc length grows with the parameter.
    func speed(at t: Double) -> Double {
        let u = 1 - t
        let d: Point
        switch kind {
        case .line: d = p1 - p0
        case .quad: d = 2 * (u * (p1 - p0) + t * (p2 - p1))
        case .cubic: d = 3 * (u * u * (p1 - p0) + 2 * u * t * (p2 - p1) + t * t * (p3 - p2))
        }
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    /// The arc length between parameters `a` and `b`, by 5-point Gauss–Legendre quadrature
    /// (exact for lines; for the short intervals ``intervalCount`` picks, far below a pixel).
    func arcLength(from a: Double, to b: Double) -> Double {
        if kind == .line { return p0.distance(to: p1) * (b - a) }
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for (x, w) in PathSegment.gaussLegendre { sum += w * speed(at: mid + half * x) }
        return sum * half
    }

    private static let gaussLegendre: [(Double, Double)] = [
        (0, 0.5688888888888889),
        (-0.5384693101056831, 0.4786286704993665), (0.5384693101056831, 0.4786286704993665),
        (-0.9061798459386640, 0.2369268850561891), (0.9061798459386640, 0.2369268850561891),
    ]

    /// How many equal parameter intervals the quadrature is applied over: more for curves
    /// that bend more relative to their size, so the result does not depend on scale.
    var intervalCount: Int {
        func norm(_ p: Point) -> Double { (p.x * p.x + p.y * p.y).squareRoot() }
        let bend: Double, size: Double
        switch kind {
        case .line: return 1
        case .quad:
            bend = norm(p0 - 2 * p1 + p2)
            size = norm(p1 - p0) + norm(p2 - p1)
        case .cubic:
            bend = max(norm(p0 - 2 * p1 + p2), norm(p1 - 2 * p2 + p3))
            size = norm(p1 - p0) + norm(p2 - p1) + norm(p3 - p2)
        }
        guard size > 0, bend.isFinite, size.isFinite else { return 1 }
        return min(32, max(2, Int((8 * (bend / size).squareRoot()).rounded(.up))))
    }

    /// The part of the segment between parameters `t0 <= t1`, by de Casteljau subdivision.
    func subsegment(from t0: Double, to t1: Double) -> PathSegment {
        switch kind {
        case .line:
            return .line(point(at: t0), point(at: t1))
        case .quad:
            // Blossom: the piece [t0, t1] has control points B(t0,t0), B(t0,t1), B(t1,t1).
            func blossom(_ a: Double, _ b: Double) -> Point {
                let ab = p0.interpolated(to: p1, fraction: a), bc = p1.interpolated(to: p2, fraction: a)
                return ab.interpolated(to: bc, fraction: b)
            }
            return PathSegment(kind: .quad, p0: point(at: t0), p1: blossom(t0, t1), p2: point(at: t1), p3: point(at: t1))
        case .cubic:
            func blossom(_ a: Double, _ b: Double, _ c: Double) -> Point {
                let q0 = p0.interpolated(to: p1, fraction: a), q1 = p1.interpolated(to: p2, fraction: a)
                let q2 = p2.interpolated(to: p3, fraction: a)
                let r0 = q0.interpolated(to: q1, fraction: b), r1 = q1.interpolated(to: q2, fraction: b)
                return r0.interpolated(to: r1, fraction: c)
            }
            return PathSegment(kind: .cubic, p0: point(at: t0), p1: blossom(t0, t0, t1),
                               p2: blossom(t0, t1, t1), p3: point(at: t1))
        }
    }
}

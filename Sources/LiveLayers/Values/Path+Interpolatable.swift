// Path+Interpolatable: paths animate point by point between paths of the same shape.

import Raster

/// Paths of the same shape (see ``Raster/Path/hasSameShape(as:)``) interpolate, add and subtract
/// point by point, which is what `ShapeLayer.path` animations need. Between paths of different
/// shapes Core Animation's result is undefined; here the path switches half-way.
extension Path: Interpolatable {
    public func interpolated(to other: Path, at fraction: Double) -> Path {
        interpolated(to: other, fraction: fraction) ?? (fraction < 0.5 ? self : other)
    }

    /// Interpolates into `result`'s own element storage (no allocation once it is unshared and
    /// large enough). Between paths of different shapes the nearer one is copied into it rather
    /// than shared, so the storage stays the animation's own for the frames after.
    public func interpolate(to other: Path, at fraction: Double, into result: inout Path) {
        guard !interpolate(to: other, fraction: fraction, into: &result) else { return }
        result.removeAll()
        result.addPath(fraction < 0.5 ? self : other)
    }

    public func adding(_ other: Path) -> Path { combined(with: other, +) ?? self }

    public func subtracting(_ other: Path) -> Path { combined(with: other, -) ?? self }

    public func distance(to other: Path) -> Double {
        guard hasSameShape(as: other) else { return 1 }
        var sum = 0.0
        for (p, q) in zip(elements, other.elements) { sum += p.endPoint.distance(to: q.endPoint) }
        return sum
    }

    private func combined(with other: Path, _ op: (Point, Point) -> Point) -> Path? {
        guard hasSameShape(as: other) else { return nil }
        var out = Path()
        out.reserveCapacity(elements.count)
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case let (.move(p), .move(q)): out.append(.move(to: op(p, q)))
            case let (.line(p), .line(q)): out.append(.line(to: op(p, q)))
            case let (.quadCurve(p, c), .quadCurve(q, d)): out.append(.quadCurve(to: op(p, q), control: op(c, d)))
            case let (.curve(p, c1, c2), .curve(q, d1, d2)):
                out.append(.curve(to: op(p, q), control1: op(c1, d1), control2: op(c2, d2)))
            default: out.append(.closeSubpath)
            }
        }
        return out
    }
}

extension PathElement {
    /// The element's end point; `.zero` for `closeSubpath`, which has none of its own.
    var endPoint: Point {
        switch self {
        case let .move(p), let .line(p), let .quadCurve(p, _), let .curve(p, _, _): return p
        case .closeSubpath: return .zero
        }
    }
}

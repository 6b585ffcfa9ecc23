// Path+Flatten: curves to line segments, adaptive to the transform's scale.

/// One step of a flattened path: lines only, in the space the caller asked for.
public enum FlatElement: Hashable, Sendable {
    /// Starts a polyline.
    case move(Point)
    /// A straight segment from the previous point.
    case line(Point)
    /// Ends the polyline with a segment back to its start.
    case close
}

extension Path {
    /// The most segments one curve is split into; bounds the work for absurd coordinates.
    static let maximumSegmentsPerCurve = 4096

    /// Calls `body` with the path mapped by `transform` and flattened into straight segments,
    /// each within `tolerance` (in the transformed space, usually device pixels) of the true curve.
    ///
    /// The segment count of a curve comes from Wang's formula on the transformed control points,
    /// so it adapts to the transform's scale; it is capped at 4096 per curve. Nothing is allocated.
    /// Elements with a non-finite point are passed through as they are: the rasterizer drops them.
    public func forEachFlattened(transform: Transform = .identity, tolerance: Double = 0.1, _ body: (FlatElement) -> Void) {
        forEachFlattened(transform: transform, tolerance: tolerance, droppingAbove: -.infinity, below: .infinity, rightOf: .infinity, body)
    }

    /// ``forEachFlattened(transform:tolerance:_:)`` for a consumer that drops every segment lying
    /// wholly above row `top`, below row `bottom` or right of column `right` (the rasterizer's
    /// clip): a curve whose transformed control points all lie there (its flattened segments
    /// do too) comes as one line to its end, which is dropped the same way, without computing
    /// the points between.
    func forEachFlattened(transform: Transform, tolerance: Double, droppingAbove top: Double, below bottom: Double,
                          rightOf right: Double, _ body: (FlatElement) -> Void) {
        // Flattened points are blends of the control points, exact to a few ulps: a curve this
        // close to the clip is flattened as usual.
        let top = top - 1e-3, bottom = bottom + 1e-3, right = right + 1e-3
        @inline(__always) func dropped(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
            Path.liesOutside(a, b, c, d, top: top, bottom: bottom, right: right)
        }
        let tol = Path.usableTolerance(tolerance)
        var current = Point.zero, start = Point.zero
        for element in elements {
            switch element {
            case let .move(p):
                current = p.applying(transform)
                start = current
                body(.move(current))
            case let .line(p):
                current = p.applying(transform)
                body(.line(current))
            case let .quadCurve(p, c):
                let p0 = current, p1 = c.applying(transform), p2 = p.applying(transform)
                if dropped(p0, p1, p2, p2) {
                    body(.line(p2))
                    current = p2
                    continue
                }
                Path.flattenQuadratic(p0, p1, p2, tolerance: tol) { body(.line($0)) }
                current = p2
            case let .curve(p, c1, c2):
                let p0 = current, p1 = c1.applying(transform), p2 = c2.applying(transform), p3 = p.applying(transform)
                if dropped(p0, p1, p2, p3) {
                    body(.line(p3))
                    current = p3
                    continue
                }
                Path.flattenCubic(p0, p1, p2, p3, tolerance: tol) { body(.line($0)) }
                current = p3
            case .closeSubpath:
                // A curve drawn on from here starts at the subpath's start, as its edges do.
                current = start
                body(.close)
            }
        }
    }

    /// The tolerance a flattening uses for `tolerance`.
    @inline(__always)
    static func usableTolerance(_ tolerance: Double) -> Double {
        tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
    }

    /// Whether the control points `a`...`d` all lie above `top`, below `bottom` or right of
    /// `right` (so does the curve, and every line between points of it).
    @inline(__always)
    static func liesOutside(_ a: Point, _ b: Point, _ c: Point, _ d: Point, top: Double, bottom: Double, right: Double) -> Bool {
        max(max(a.y, b.y), max(c.y, d.y)) < top || min(min(a.y, b.y), min(c.y, d.y)) > bottom
            || min(min(a.x, b.x), min(c.x, d.x)) > right
    }

    /// Calls `line` with the points after `p0` of the quadratic `p0`, `p1`, `p2` flattened within
    /// `tol`, ending with `p2`.
    @inline(__always)
    static func flattenQuadratic(_ p0: Point, _ p1: Point, _ p2: Point, tolerance tol: Double, _ line: (Point) -> Void) {
        // Wang: n = ceil(sqrt(|p0 - 2p1 + p2| / (4·tol))) for degree 2.
        let dd = (p0 - 2 * p1 + p2)
        let n = Path.segmentCount((dd.x * dd.x + dd.y * dd.y).squareRoot() / (4 * tol))
        for i in 1..<n {
            let t = Double(i) / Double(n), u = 1 - t
            line(Point(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                       y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y))
        }
        line(p2)
    }

    /// Calls `line` with the points after `p0` of the cubic `p0`...`p3` flattened within `tol`,
    /// ending with `p3`.
    @inline(__always)
    static func flattenCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance tol: Double, _ line: (Point) -> Void) {
        // Wang: n = ceil(sqrt(3/4 · max|second differences| / tol)) for degree 3.
        let d1 = p0 - 2 * p1 + p2, d2 = p1 - 2 * p2 + p3
        let m = max((d1.x * d1.x + d1.y * d1.y).squareRoot(), (d2.x * d2.x + d2.y * d2.y).squareRoot())
        let n = Path.segmentCount(0.75 * m / tol)
        for i in 1..<n {
            let t = Double(i) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            line(Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                       y: a * p0.y + b * p1.y + c * p2.y + d * p3.y))
        }
        line(p3)
    }

    /// The segment count for a curve whose Wang bound (before the square root) is `x`.
    private static func segmentCount(_ x: Double) -> Int {
        guard x.isFinite, x > 0 else { return 1 }
        let n = x.squareRoot().rounded(.up)
        return n >= Double(maximumSegmentsPerCurve) ? maximumSegmentsPerCurve : max(1, Int(n))
    }
}

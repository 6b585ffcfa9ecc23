// Path: a sequence of subpaths built from lines and Bézier curves (Core Graphics' CGPath).

/// One step of a ``Path``.
public enum PathElement: Hashable, Sendable {
    /// Starts a new subpath at the point.
    case move(to: Point)
    /// A straight line from the current point.
    case line(to: Point)
    /// A quadratic Bézier curve from the current point.
    case quadCurve(to: Point, control: Point)
    /// A cubic Bézier curve from the current point.
    case curve(to: Point, control1: Point, control2: Point)
    /// A straight line back to the subpath's start, which ends the subpath.
    case closeSubpath
}

/// A vector shape: subpaths of lines, quadratic and cubic Bézier curves, as `CGMutablePath`.
///
/// Paths are values. Building one is cheap; drawing it is the graphics context's job.
/// Coordinates are in user space with y growing downward.
public struct Path: Hashable, Sendable {
    /// The elements in order.
    public private(set) var elements: [PathElement] = []
    /// The point where the current subpath started, for ``closeSubpath()``.
    private var subpathStart: Point?
    /// The end of the last element, or `nil` for an empty path.
    public private(set) var currentPoint: Point?
    /// The cosine and sine ``addArc(center:radius:startAngle:endAngle:clockwise:)`` last took,
    /// and the tangent. Not part of the path's value (`==` and `hash(into:)` leave it out).
    var arcMemo = ArcMemo()

    public static func == (a: Path, b: Path) -> Bool {
        a.elements == b.elements && a.subpathStart == b.subpathStart && a.currentPoint == b.currentPoint
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements)
        hasher.combine(subpathStart)
        hasher.combine(currentPoint)
    }

    /// Creates an empty path.
    public init() {}

    /// Creates a path from elements.
    public init<S: Sequence>(elements: S) where S.Element == PathElement {
        for e in elements { append(e) }
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Keeps the storage of the elements but removes them all (for per-frame reuse).
    public mutating func removeAll() {
        elements.removeAll(keepingCapacity: true)
        subpathStart = nil
        currentPoint = nil
    }

    /// Becomes a copy of `other` in this path's own storage (kept and grown as needed), not
    /// sharing `other`'s: a copy held on to does not make the owner of `other` copy it when it
    /// next refills its storage.
    mutating func copyContents(of other: Path) {
        elements.removeAll(keepingCapacity: true)
        elements.append(contentsOf: other.elements)
        subpathStart = other.subpathStart
        currentPoint = other.currentPoint
    }

    /// Reserves room for `count` elements.
    public mutating func reserveCapacity(_ count: Int) { elements.reserveCapacity(count) }

    /// Appends one element, keeping the current point in step.
    public mutating func append(_ element: PathElement) {
        switch element {
        case let .move(p):
            // Consecutive moves collapse into one, as in Core Graphics.
            if case .move = elements.last { elements.removeLast() }
            subpathStart = p
            currentPoint = p
            elements.append(element)
        case let .line(p), let .quadCurve(p, _), let .curve(p, _, _):
            if currentPoint == nil { append(.move(to: p)); if case .line = element { return } }
            currentPoint = p
            elements.append(element)
        case .closeSubpath:
            guard currentPoint != nil else { return }
            elements.append(element)
            currentPoint = subpathStart
        }
    }

    /// Starts a new subpath at `point` (`CGMutablePath.move(to:)`).
    public mutating func move(to point: Point) { append(.move(to: point)) }

    /// Adds a straight line to `point`.
    public mutating func addLine(to point: Point) { append(.line(to: point)) }

    /// Adds straight lines through `points`, the first one starting a subpath.
    public mutating func addLines(between points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
    }

    /// Adds a quadratic Bézier curve to `point`.
    public mutating func addQuadCurve(to point: Point, control: Point) {
        append(.quadCurve(to: point, control: control))
    }

    /// Adds a cubic Bézier curve to `point`.
    public mutating func addCurve(to point: Point, control1: Point, control2: Point) {
        append(.curve(to: point, control1: control1, control2: control2))
    }

    /// Closes the current subpath with a straight line to its start.
    public mutating func closeSubpath() { append(.closeSubpath) }

    /// Adds a closed rectangle: (minX, minY), then along the top edge first.
    public mutating func addRect(_ rect: Rect) {
        let r = rect.standardized
        move(to: Point(x: r.minX, y: r.minY))
        addLine(to: Point(x: r.maxX, y: r.minY))
        addLine(to: Point(x: r.maxX, y: r.maxY))
        addLine(to: Point(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// Adds a closed rounded rectangle; radii are clamped to half the width and height.
    public mutating func addRoundedRect(in rect: Rect, cornerWidth: Double, cornerHeight: Double) {
        let r = rect.standardized
        let rx = max(0, min(cornerWidth, r.width / 2)), ry = max(0, min(cornerHeight, r.height / 2))
        guard rx > 0, ry > 0 else { addRect(r); return }
        // Cubic approximation of a quarter ellipse: control distance k = 4/3·(√2 − 1).
        let k = 0.5522847498307936
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        move(to: Point(x: x0 + rx, y: y0))
        addLine(to: Point(x: x1 - rx, y: y0))
        addCurve(to: Point(x: x1, y: y0 + ry), control1: Point(x: x1 - rx + k * rx, y: y0), control2: Point(x: x1, y: y0 + ry - k * ry))
        addLine(to: Point(x: x1, y: y1 - ry))
        addCurve(to: Point(x: x1 - rx, y: y1), control1: Point(x: x1, y: y1 - ry + k * ry), control2: Point(x: x1 - rx + k * rx, y: y1))
        addLine(to: Point(x: x0 + rx, y: y1))
        addCurve(to: Point(x: x0, y: y1 - ry), control1: Point(x: x0 + rx - k * rx, y: y1), control2: Point(x: x0, y: y1 - ry + k * ry))
        addLine(to: Point(x: x0, y: y0 + ry))
        addCurve(to: Point(x: x0 + rx, y: y0), control1: Point(x: x0, y: y0 + ry - k * ry), control2: Point(x: x0 + rx - k * rx, y: y0))
        closeSubpath()
    }

    /// Adds a closed ellipse inscribed in `rect`, starting at its right-most point and turning
    /// with increasing angle (clockwise on screen).
    public mutating func addEllipse(in rect: Rect) {
        let r = rect.standardized
        let c = r.center, rx = r.width / 2, ry = r.height / 2
        let k = 0.5522847498307936
        move(to: Point(x: c.x + rx, y: c.y))
        addCurve(to: Point(x: c.x, y: c.y + ry), control1: Point(x: c.x + rx, y: c.y + k * ry), control2: Point(x: c.x + k * rx, y: c.y + ry))
        addCurve(to: Point(x: c.x - rx, y: c.y), control1: Point(x: c.x - k * rx, y: c.y + ry), control2: Point(x: c.x - rx, y: c.y + k * ry))
        addCurve(to: Point(x: c.x, y: c.y - ry), control1: Point(x: c.x - rx, y: c.y - k * ry), control2: Point(x: c.x - k * rx, y: c.y - ry))
        addCurve(to: Point(x: c.x + rx, y: c.y), control1: Point(x: c.x + k * rx, y: c.y - ry), control2: Point(x: c.x + rx, y: c.y - k * ry))
        closeSubpath()
    }

    /// Appends every element of `other`, mapped by `transform`.
    public mutating func addPath(_ other: Path, transform: Transform = .identity) {
        // Into an empty path (a recorded fill's copy, every frame), `other`'s elements already
        // keep what `append` keeps (a move first, no two moves in a row, a close only after a
        // point), and so do their mapped copies: appended without its checks, and the current
        // point and the subpath's start are `other`'s, mapped.
        if elements.isEmpty {
            elements.reserveCapacity(other.elements.count)
            for e in other.elements { elements.append(e.applying(transform)) }
            subpathStart = other.subpathStart.map { $0.applying(transform) }
            currentPoint = other.currentPoint.map { $0.applying(transform) }
            return
        }
        for e in other.elements { append(e.applying(transform)) }
    }

    /// The path with every point mapped by `transform`.
    public func applying(_ transform: Transform) -> Path {
        var out = Path()
        out.reserveCapacity(elements.count)
        out.addPath(self, transform: transform)
        return out
    }

    /// The smallest rectangle containing every point and control point (`CGPath.boundingBox`);
    /// `Rect.zero` for an empty path. Curves lie inside it, so it is a safe, cheap bound.
    public var boundingBox: Rect {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ p: Point) { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        for e in elements {
            switch e {
            case let .move(p), let .line(p): add(p)
            case let .quadCurve(p, c): add(p); add(c)
            case let .curve(p, c1, c2): add(p); add(c1); add(c2)
            case .closeSubpath: break
            }
        }
        guard x0 <= x1, y0 <= y1 else { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether `other` has the same sequence of element kinds, so the two can be interpolated.
    public func hasSameShape(as other: Path) -> Bool {
        guard elements.count == other.elements.count else { return false }
        for (a, b) in zip(elements, other.elements) where a.kind != b.kind { return false }
        return true
    }

    /// The path at fraction `t` between `self` and `other`, point by point; `nil` when the two
    /// paths do not have the same shape (see ``hasSameShape(as:)``), as CAShapeLayer's path
    /// animation is undefined then.
    public func interpolated(to other: Path, fraction t: Double) -> Path? {
        guard hasSameShape(as: other) else { return nil }
        var out = Path()
        out.reserveCapacity(elements.count)
        return interpolate(to: other, fraction: t, into: &out) ? out : nil
    }

    /// Writes the path at fraction `t` between `self` and `other` into `result`, reusing its
    /// storage (no allocation when it is unshared and large enough). Returns `false`, leaving
    /// `result` alone, when the two paths do not have the same shape.
    public func interpolate(to other: Path, fraction t: Double, into out: inout Path) -> Bool {
        guard hasSameShape(as: other) else { return false }
        func mix(_ p: Point, _ q: Point) -> Point { p.interpolated(to: q, fraction: t) }
        out.removeAll()
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case let (.move(p), .move(q)): out.append(.move(to: mix(p, q)))
            case let (.line(p), .line(q)): out.append(.line(to: mix(p, q)))
            case let (.quadCurve(p, c), .quadCurve(q, d)): out.append(.quadCurve(to: mix(p, q), control: mix(c, d)))
            case let (.curve(p, c1, c2), .curve(q, d1, d2)):
                out.append(.curve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2)))
            default: out.append(.closeSubpath)
            }
        }
        return true
    }
}

extension PathElement {
    /// The element with every point mapped by `transform`.
    public func applying(_ t: Transform) -> PathElement {
        switch self {
        case let .move(p): return .move(to: p.applying(t))
        case let .line(p): return .line(to: p.applying(t))
        case let .quadCurve(p, c): return .quadCurve(to: p.applying(t), control: c.applying(t))
        case let .curve(p, c1, c2): return .curve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
        case .closeSubpath: return .closeSubpath
        }
    }

    var kind: Int {
        switch self {
        case .move: return 0
        case .line: return 1
        case .quadCurve: return 2
        case .curve: return 3
        case .closeSubpath: return 4
        }
    }
}

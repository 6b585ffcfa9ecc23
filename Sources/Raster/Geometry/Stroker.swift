// Stroker: the outline of a path's stroke, as a path to fill with the non-zero rule.
//
// Method. The path is flattened (curves become polylines within the tolerance), then each
// polyline gets offset contours at ±lineWidth/2: an open polyline becomes one closed contour
// (left side forward, end cap, right side backward, start cap); a closed one becomes two
// (left side, and right side reversed), so the inside of a closed shape keeps winding 0.
//
// Why non-zero filling gives exactly the stroke. Every contour is, as a sum of edges, the sum
// of one quad per segment ([p + n, q + n, q − n, p − n] with n the left normal times w/2),
// one wedge per join on the outer side of the turn (bevel triangle, miter kite or round fan
// around the vertex) and one piece per cap, all with the same orientation: the edges they share
// cancel. So the winding number is positive exactly on their union and the fill is the stroke.
// On the inner side of a turn the contour takes a short cut through the point where the two
// offset lines cross when that point lies inside both segments (removing a loop that lies where
// the two quads overlap, which keeps the winding positive there), and otherwise detours through
// the vertex itself, which is the plain sum of quads. Consecutive collinear points and points
// closer than a thousandth of the tolerance are merged; a subpath of zero length with round or
// square caps becomes a dot or an axis-aligned square, as in Core Graphics.
//
// Spaces. All of this happens in user space; the rasterizer maps the outline by the CTM. So the
// caller passes a user-space tolerance: the device tolerance divided by `ctm.maximumScale`.
//
// Bounds. Hostile input cannot make this hang or explode: subpaths with a non-finite point are
// dropped, the flattening tolerance is coarsened until the path has at most
// `maximumFlattenedPoints` points, round joins and caps use at most `maximumArcSteps` chords
// per turn, and the outline stops growing (the current contour is closed and the rest of the
// path skipped) at about `maximumOutlineElements` elements.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Path {
    /// The outline of this path's stroke: a path that, filled with the non-zero
    /// (``FillRule/winding``) rule, covers exactly the area the stroke paints
    /// (`CGPath.copy(strokingWithWidth:lineCap:lineJoin:miterLimit:)`).
    ///
    /// The dash pattern in `style` is applied first (see ``dashed(phase:lengths:)``).
    ///
    /// - Parameters:
    ///   - style: Width, joins, caps, miter limit and dashes, in user-space units.
    ///   - tolerance: The largest distance, in user-space units, between the outline and the
    ///     exact stroke (for flattened curves and round joins and caps). When the outline is
    ///     drawn through a transform, pass the device tolerance divided by the transform's
    ///     ``Transform/maximumScale`` (for example `0.1 / ctm.maximumScale`).
    /// - Returns: Closed contours only, with a consistent orientation; an empty path for an
    ///   empty path or a line width that is zero, negative or not finite.
    public func strokedOutline(_ style: StrokeStyle, tolerance: Double = 0.1) -> Path {
        var stroker = PathStroker()
        return stroker.outline(of: self, style: style, tolerance: tolerance)
    }
}

/// Builds the outline of a stroke, one flattened subpath at a time (see the file header).
struct Stroker {
    /// The most points the flattened path may have; the tolerance is coarsened to stay below.
    static let maximumFlattenedPoints = 1 << 21
    /// The most elements an outline gets before the rest of the path is skipped (about 230 MB).
    static let maximumOutlineElements = 1 << 22
    /// Forward, then backward: the two sides of a polyline.
    private static let bothDirections = [true, false]
    /// The most chords a round join or cap uses per full turn.
    static let maximumArcSteps = 1024

    private var halfWidth = 0.5
    private var join = LineJoin.miter
    private var cap = LineCap.butt
    private var miterLimit = 10.0
    private var tolerance = 0.1
    /// Points closer than this to the previous one are merged into it.
    private var minimumSegmentLength = 1e-4
    /// The angle of one chord of a round join or cap, keeping it within the tolerance.
    private var arcStep = 0.1
    private var maximumElements = Stroker.maximumOutlineElements

    private(set) var output = Path()
    /// The current polyline, without repeated points.
    private var points: [Point] = []
    /// Unit direction and length of each segment of the current polyline (ring when closed).
    private var directions: [Point] = []
    private var lengths: [Double] = []
    private var subpathStart = Point.zero
    /// Whether the current subpath drew anything (a line or a close), which decides dots.
    private var hasSegment = false
    /// Whether the current subpath has a non-finite point, which drops it.
    private var isInvalid = false
    private var pendingMove = false
    /// Whether the last element was a close; a second close draws nothing, as in Core Graphics.
    private var justClosed = false
    private var isFull = false

    init() {}

    init(style: StrokeStyle, tolerance: Double, maximumElements: Int = Stroker.maximumOutlineElements) {
        reset(style: style, tolerance: tolerance, maximumElements: maximumElements)
    }

    /// Prepares for a new outline with `style`, keeping the buffers of the previous one.
    mutating func reset(style: StrokeStyle, tolerance: Double, maximumElements: Int = Stroker.maximumOutlineElements) {
        self.maximumElements = maximumElements
        halfWidth = style.lineWidth / 2
        join = style.lineJoin
        cap = style.lineCap
        miterLimit = style.miterLimit.isNaN ? 10 : style.miterLimit
        self.tolerance = tolerance
        minimumSegmentLength = tolerance * 1e-3
        // A chord of angle α on a circle of radius r strays r·(1 − cos(α/2)) from the arc.
        // At most a quarter turn per chord, so that even a dot far thinner than the tolerance
        // keeps some area (a diamond).
        let ratio = min(1, tolerance / halfWidth)
        arcStep = min(Double.pi / 2, max(2 * acos(1 - ratio), 2 * Double.pi / Double(Stroker.maximumArcSteps)))
        output.removeAll()
        points.removeAll(keepingCapacity: true)
        subpathStart = .zero
        hasSegment = false
        isInvalid = false
        pendingMove = false
        justClosed = false
        isFull = false
    }

    /// A tolerance at least `tolerance` for which `path` flattens to at most
    /// ``maximumFlattenedPoints`` points, found by the same Wang bound the flattener uses.
    static func flatteningTolerance(for path: Path, tolerance: Double) -> Double {
        var tol = tolerance
        for _ in 0..<64 {
            if estimatedFlattenedPoints(path, tolerance: tol) <= maximumFlattenedPoints { return tol }
            tol *= 4
        }
        return tol
    }

    private static func estimatedFlattenedPoints(_ path: Path, tolerance tol: Double) -> Int {
        func count(_ x: Double) -> Int {
            guard x.isFinite, x > 0 else { return 1 }
            return Int(min(x.squareRoot().rounded(.up), Double(Path.maximumSegmentsPerCurve)))
        }
        func norm(_ p: Point) -> Double { (p.x * p.x + p.y * p.y).squareRoot() }
        var total = 0
        var current = Point.zero
        for element in path.elements {
            switch element {
            case let .move(p): current = p; total += 1
            case let .line(p): current = p; total += 1
            case let .quadCurve(p, c):
                total += count(norm(current - 2 * c + p) / (4 * tol)); current = p
            case let .curve(p, c1, c2):
                let m = max(norm(current - 2 * c1 + c2), norm(c1 - 2 * c2 + p))
                total += count(0.75 * m / tol); current = p
            case .closeSubpath: total += 1
            }
            if total > maximumFlattenedPoints { return total }
        }
        return total
    }

    mutating func stroke(_ path: Path, flatteningTolerance: Double) {
        path.forEachFlattened(tolerance: flatteningTolerance) { element in
            guard !isFull else { return }
            switch element {
            case let .move(p):
                finishSubpath(closed: false)
                startSubpath(at: p)
                justClosed = false
            case let .line(p):
                if points.isEmpty { startSubpath(at: subpathStart) }
                hasSegment = true
                add(p)
                justClosed = false
            case .close:
                guard !justClosed else { return }
                if points.isEmpty { startSubpath(at: subpathStart) }
                hasSegment = true
                finishSubpath(closed: true)
                justClosed = true
            }
        }
        finishSubpath(closed: false)
    }

    private mutating func startSubpath(at p: Point) {
        points.removeAll(keepingCapacity: true)
        subpathStart = p
        hasSegment = false
        isInvalid = !p.isFinite
        points.append(p)
    }

    private mutating func add(_ p: Point) {
        guard p.isFinite else { isInvalid = true; return }
        guard let last = points.last, last.distance(to: p) > minimumSegmentLength else { return }
        points.append(p)
    }

    private mutating func finishSubpath(closed: Bool) {
        defer { points.removeAll(keepingCapacity: true) }
        guard !isInvalid, !points.isEmpty, !isFull else { return }
        if closed, points.count > 1, points[0].distance(to: points[points.count - 1]) <= minimumSegmentLength {
            points.removeLast()
        }
        guard points.count > 1 else {
            if hasSegment { addDot(at: points[0]) }
            return
        }
        guard measureSegments(closed: closed) else { return }
        if closed {
            addClosedContours()
        } else {
            addOpenContour()
        }
    }

    /// Fills `directions` and `lengths`; false when a segment's direction is not finite
    /// (coordinates so large that their differences overflow).
    private mutating func measureSegments(closed: Bool) -> Bool {
        directions.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        let n = points.count
        for i in 0..<(closed ? n : n - 1) {
            let v = points[(i + 1) % n] - points[i]
            let length = (v.x * v.x + v.y * v.y).squareRoot()
            guard length.isFinite, length > 0 else { return false }
            directions.append(v * (1 / length))
            lengths.append(length)
        }
        return true
    }

    // MARK: Contours

    /// The point `i` of the polyline walked forward or backward.
    private func point(_ i: Int, forward: Bool, closed: Bool) -> Point {
        let n = points.count
        if forward { return points[i % n] }
        return closed ? points[(n - i) % n] : points[n - 1 - i]
    }

    /// The direction and length of segment `i` of the polyline walked forward or backward.
    private func segment(_ i: Int, forward: Bool) -> (direction: Point, length: Double) {
        if forward { return (directions[i], lengths[i]) }
        let j = directions.count - 1 - i
        return (-directions[j], lengths[j])
    }

    /// The left normal of a unit direction, scaled to half the line width. With y down this
    /// points to the right of the direction of travel on screen; only consistency matters.
    private func normal(_ d: Point) -> Point { Point(x: -d.y * halfWidth, y: d.x * halfWidth) }

    private mutating func addOpenContour() {
        let m = directions.count
        pendingMove = true
        for forward in Stroker.bothDirections {
            let first = segment(0, forward: forward)
            emit(point(0, forward: forward, closed: false) + normal(first.direction))
            for i in 0..<(m - 1) where !isFull {
                let a = segment(i, forward: forward), b = segment(i + 1, forward: forward)
                addJoin(at: point(i + 1, forward: forward, closed: false), a.direction, b.direction, a.length, b.length)
            }
            let last = segment(m - 1, forward: forward)
            let end = point(m, forward: forward, closed: false)
            emit(end + normal(last.direction))
            addCap(at: end, direction: last.direction)
        }
        closeContour()
    }

    private mutating func addClosedContours() {
        let m = directions.count
        for forward in Stroker.bothDirections {
            pendingMove = true
            for i in 0..<m where !isFull {
                let a = segment((i + m - 1) % m, forward: forward), b = segment(i, forward: forward)
                addJoin(at: point(i, forward: forward, closed: true), a.direction, b.direction, a.length, b.length)
            }
            closeContour()
        }
    }

    /// Emits the outline on the left side around vertex `p`, from the end of the offset of
    /// the incoming segment (direction `d0`, length `l0`) to the start of the outgoing one.
    private mutating func addJoin(at p: Point, _ d0: Point, _ d1: Point, _ l0: Double, _ l1: Double) {
        let n0 = normal(d0), n1 = normal(d1)
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        // cos(φ/2) for the turning angle φ; the miter tip is at halfWidth / cos(φ/2).
        let cosHalf = ((1 + dot) / 2).squareRoot()
        // Where the two offset lines cross: p + (n0 + n1) / (1 + cos φ).
        func crossing() -> Point { p + (n0 + n1) * (1 / (1 + dot)) }

        if cross > 0 {
            // The left side is inside the turn.
            guard 1 + dot > 1e-12 else { emit(p + n0); emit(p); emit(p + n1); return }
            let tanHalf = cross / (1 + dot)
            let reach = halfWidth * max(tanHalf, cross)
            if reach <= min(l0, l1) { emit(crossing()) } else { emit(p + n0); emit(p); emit(p + n1) }
            return
        }
        // The left side is outside the turn (or the path reverses on itself).
        if cosHalf > 1e-9 {
            let tipExcess = halfWidth * (1 / cosHalf - cosHalf)
            let miterFits = join == .miter && cosHalf * miterLimit >= 1
            if miterFits || tipExcess <= tolerance { emit(crossing()); return }
        }
        emit(p + n0)
        if join == .round {
            addArc(around: p, from: n0, sweep: -atan2(abs(cross), dot))
        }
        emit(p + n1)
    }

    /// Emits the cap at `p` after the point `p + normal(d)`, ending before `p − normal(d)`.
    private mutating func addCap(at p: Point, direction d: Point) {
        let n = normal(d)
        switch cap {
        case .butt:
            break
        case .square:
            let e = d * halfWidth
            emit(p + n + e)
            emit(p - n + e)
        case .round:
            addArc(around: p, from: n, sweep: -Double.pi)
        }
    }

    /// Emits the inner points of the arc around `center` from `center + radius`, turning by
    /// `sweep` radians (negative turns from the left normal towards the direction of travel).
    private mutating func addArc(around center: Point, from radius: Point, sweep: Double) {
        let steps = Int((abs(sweep) / arcStep).rounded(.up))
        guard steps > 1 else { return }
        let step = sweep / Double(steps)
        let c = cos(step), s = sin(step)
        var r = radius
        for _ in 1..<steps {
            r = Point(x: r.x * c - r.y * s, y: r.x * s + r.y * c)
            emit(center + r)
        }
    }

    /// A zero-length subpath: a disc for round caps, a square for square caps, nothing for butt.
    private mutating func addDot(at p: Point) {
        pendingMove = true
        switch cap {
        case .butt:
            return
        case .square:
            let h = halfWidth
            emit(p + Point(x: h, y: h)); emit(p + Point(x: h, y: -h))
            emit(p + Point(x: -h, y: -h)); emit(p + Point(x: -h, y: h))
        case .round:
            // Decreasing angle, the orientation every other contour here has.
            emit(p + Point(x: halfWidth, y: 0))
            addArc(around: p, from: Point(x: halfWidth, y: 0), sweep: -Double.pi)
            emit(p - Point(x: halfWidth, y: 0))
            addArc(around: p, from: Point(x: -halfWidth, y: 0), sweep: -Double.pi)
        }
        closeContour()
    }

    private mutating func emit(_ p: Point) {
        guard !isFull else { return }
        if output.elements.count >= maximumElements { isFull = true; return }
        if pendingMove {
            pendingMove = false
            output.move(to: p)
        } else if output.currentPoint != p {
            output.addLine(to: p)
        }
    }

    private mutating func closeContour() {
        guard !pendingMove else { return }
        output.closeSubpath()
    }
}

// PathMeasure: a path's subpaths measured by arc length, and pieces cut out of them.

/// The arc lengths of a path's subpaths and segments, for dashing and trimming.
///
/// Each segment is split into a few equal parameter intervals whose lengths come from
/// Gauss–Legendre quadrature; a position along the segment is found from them by Newton
/// steps, so cut points are accurate far below a pixel and do not depend on a flattening
/// tolerance. Subpaths with a non-finite point measure zero and are never cut from.
struct PathMeasure {
    struct Segment {
        var segment: PathSegment
        /// Arc length from the start of the subpath to the start of this segment.
        var start: Double
        var length: Double
        /// The first of `intervalCount + 1` cumulative lengths in `samples` (from `start`).
        var firstSample: Int
        var intervalCount: Int
        /// The straight segment that `closeSubpath` draws back to the start.
        var isClosing: Bool
    }

    struct Subpath {
        var start: Point
        var segments: Range<Int>
        var length: Double
        var isClosed: Bool
        /// Whether every point is finite; invalid subpaths are skipped.
        var isValid: Bool
    }

    private(set) var subpaths: [Subpath] = []
    private(set) var segments: [Segment] = []
    private var samples: [Double] = []

    /// The summed length of the valid subpaths.
    private(set) var length: Double = 0

    init() {}

    init(_ path: Path) { reset(path) }

    /// Measures `path`, keeping the buffers of the previous measurement.
    mutating func reset(_ path: Path) {
        subpaths.removeAll(keepingCapacity: true)
        segments.removeAll(keepingCapacity: true)
        samples.removeAll(keepingCapacity: true)
        length = 0
        var start = Point.zero, current = Point.zero
        var open: Subpath?
        // A close right after a close draws nothing, as in Core Graphics.
        var justClosed = false
        func finish(closed: Bool) {
            guard var s = open else { return }
            s.isClosed = closed
            s.segments = s.segments.lowerBound..<segments.count
            if !s.isValid || !s.length.isFinite {
                s.isValid = false
                s.length = 0
            }
            length += s.length
            subpaths.append(s)
            open = nil
        }
        func begin(at p: Point) {
            open = Subpath(start: p, segments: segments.count..<segments.count, length: 0, isClosed: false, isValid: p.isFinite)
        }
        func add(_ segment: PathSegment, closing: Bool) {
            guard var s = open else { return }
            let n = segment.intervalCount
            let first = samples.count
            var total = 0.0
            samples.append(0)
            for i in 0..<n {
                total += segment.arcLength(from: Double(i) / Double(n), to: Double(i + 1) / Double(n))
                samples.append(total)
            }
            segments.append(Segment(segment: segment, start: s.length, length: total, firstSample: first,
                                    intervalCount: n, isClosing: closing))
            s.length += total
            s.isValid = s.isValid && segment.isFinite
            open = s
        }
        for element in path.elements {
            defer { if case .closeSubpath = element { justClosed = true } else { justClosed = false } }
            switch element {
            case let .move(p):
                finish(closed: false)
                begin(at: p)
                start = p; current = p
            case .closeSubpath:
                if justClosed { continue }
                if open == nil { begin(at: start) }
                add(.line(current, start), closing: true)
                finish(closed: true)
                current = start
            default:
                if open == nil { begin(at: current) }
                if let segment = PathSegment(element, from: current) {
                    add(segment, closing: false)
                    current = segment.end
                }
            }
        }
        finish(closed: false)
    }

    /// Where along segment `index` the arc length from its start reaches `s`, as a parameter.
    func parameter(in index: Int, at s: Double) -> Double {
        let seg = segments[index]
        guard seg.length > 0 else { return s > 0 ? 1 : 0 }
        if s <= 0 { return 0 }
        if s >= seg.length { return 1 }
        if seg.segment.kind == .line { return s / seg.length }
        // The interval holding s, then Newton on L(t) = s from a linear first guess.
        let n = seg.intervalCount
        var lo = 0, hi = n
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[seg.firstSample + mid] <= s { lo = mid } else { hi = mid }
        }
        let s0 = samples[seg.firstSample + lo], s1 = samples[seg.firstSample + lo + 1]
        let t0 = Double(lo) / Double(n), t1 = Double(lo + 1) / Double(n)
        var t = s1 > s0 ? t0 + (t1 - t0) * (s - s0) / (s1 - s0) : t0
        for _ in 0..<3 {
            let speed = seg.segment.speed(at: t)
            guard speed > 0 else { break }
            let error = s0 + seg.segment.arcLength(from: t0, to: t) - s
            t = min(t1, max(t0, t - error / speed))
        }
        return t
    }

    /// The index of the segment of `subpath` that holds arc length `s` (the first one whose
    /// end reaches it).
    private func segmentIndex(in subpath: Subpath, at s: Double) -> Int {
        var lo = subpath.segments.lowerBound, hi = subpath.segments.upperBound - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if segments[mid].start + segments[mid].length >= s { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Appends the piece of `subpath` between arc lengths `a <= b` (measured from its start)
    /// to `path` as a new open subpath; a zero-length piece becomes a move and a line to the
    /// same point (so that round and square caps draw a dot). The whole of a closed subpath
    /// stays closed.
    func appendPiece(of subpath: Subpath, from a: Double, to b: Double, to path: inout Path) {
        guard subpath.isValid else { return }
        let range = subpath.segments
        guard !range.isEmpty else {
            path.move(to: subpath.start)
            path.addLine(to: subpath.start)
            return
        }
        if subpath.isClosed, a <= 0, b >= subpath.length {
            path.move(to: subpath.start)
            for i in range where !segments[i].isClosing { path.append(segments[i].segment.element) }
            path.closeSubpath()
            return
        }
        let ia = segmentIndex(in: subpath, at: a), ib = segmentIndex(in: subpath, at: b)
        let ta = parameter(in: ia, at: a - segments[ia].start)
        let tb = parameter(in: ib, at: b - segments[ib].start)
        let startPoint = segments[ia].segment.point(at: ta)
        path.move(to: startPoint)
        if ia == ib {
            if ta < tb {
                path.append(segments[ia].segment.subsegment(from: ta, to: tb).element)
            } else {
                path.addLine(to: startPoint)
            }
            return
        }
        if ta < 1 { path.append(segments[ia].segment.subsegment(from: ta, to: 1).element) }
        for i in (ia + 1)..<ib { path.append(segments[i].segment.element) }
        if tb > 0 { path.append(segments[ib].segment.subsegment(from: 0, to: tb).element) }
    }
}

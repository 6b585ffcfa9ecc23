// PathSegments: a recording's paths cut into the segments the rasterizer makes edges from, to
// find the rows where a new frame's paths differ from the last.

/// The segments (lines and Bézier pieces, the closing lines included) of every fill of a
/// ``FillRecording``, in path space, each with the device rows it spans.
///
/// A row's coverage depends only on the edges crossing it, and the rasterizer turns a segment
/// into the same edges whenever its points and the transform are the same. So between two
/// frames whose fills match segment for segment except for a few, only the rows those few span
/// can change: ``changedRows(since:)``. A growing arc cut at fixed angles keeps all its pieces
/// but the one at its end, so its new coverage is rasterized only around that end.
final class PathSegments {
    struct Segment: Equatable {
        var fill: Int32
        /// 1 line, 2 quadratic, 3 cubic.
        var degree: Int32
        var x0: Double, y0: Double, x1: Double, y1: Double, x2: Double, y2: Double, x3: Double, y3: Double
    }

    private let segments = ScratchArray<Segment>(capacity: 256)
    private let rowsLow = ScratchArray<Double>(capacity: 256)
    private let rowsHigh = ScratchArray<Double>(capacity: 256)
    /// Each segment's device columns (its control points' hull), like its rows.
    private let columnsLow = ScratchArray<Double>(capacity: 256)
    private let columnsHigh = ScratchArray<Double>(capacity: 256)
    /// The device columns of the segments the last ``changedRows(since:)`` found changed.
    private(set) var changedColumns = (low: Double.infinity, high: -Double.infinity)
    private let matched = ScratchArray<UInt8>(capacity: 256)
    /// The segments spanning the rows ``unchangedRight(of:before:)`` looks at.
    private let inRows = ScratchArray<Int32>(capacity: 256)
    /// Each segment's end point folded into one word: a segment not found where the last was
    /// found is searched for among all of last update's (the arrow's head: a few searches of a
    /// hundred segments a frame), one word compared each rather than the segments.
    private let keys = ScratchArray<UInt64>(capacity: 256)
    /// Whether the list describes the last recording (false before any, or after one with a
    /// point that is not finite).
    private(set) var isValid = false
    private var transform = Transform.identity

    /// Marks the list as describing no recording.
    func invalidate() { isValid = false }

    /// Replaces the list with `recording`'s segments under `transform`.
    func record(_ recording: FillRecording, transform: Transform) {
        collect(recording, transform: transform)
        for j in 0..<segments.count { map(j) }
    }

    /// ``record(_:transform:)``, then ``changedRows(since:)`` `old` (nil when `old` is nil), in one
    /// pass that maps only the segments not found in `old`: with the same transform, a segment
    /// found there (the same points) has the rows, columns and key found there, taken as they
    /// are. Most of a growing arc's pieces are found, and mapping each was most of its cost.
    func record(_ recording: FillRecording, transform: Transform, comparingWith old: PathSegments?) -> Range<Int>? {
        collect(recording, transform: transform)
        let count = segments.count
        guard let old, old.isValid, transform == old.transform else {
            for j in 0..<count { map(j) }
            return nil
        }
        // changedRows(since:)'s search, mapping each segment not found.
        let oldCount = old.segments.count
        let limit = max(8, count / 4)
        old.matched.reset(count: oldCount, to: 0)
        var low = Double.infinity, high = -Double.infinity
        var left = Double.infinity, right = -Double.infinity
        var misses = 0, compared = true
        var hint = 0
        let oldKeys = old.keys.base, oldMatched = old.matched.base, oldSegments = old.segments.base
        let all = segments.base, keys = keys.base
        let lows = rowsLow.base, highs = rowsHigh.base, lefts = columnsLow.base, rights = columnsHigh.base
        for j in 0..<count {
            guard compared else { map(j); continue }
            let s = all[j], key = keys[j]
            var found = -1
            if hint < oldCount, oldKeys[hint] == key, oldMatched[hint] == 0, oldSegments[hint] == s {
                found = hint
            } else {
                var k = hint
                while k < oldCount {
                    if oldKeys[k] == key && oldMatched[k] == 0 && oldSegments[k] == s { found = k; break }
                    k += 1
                }
                if found < 0 {
                    k = 0
                    while k < hint {
                        if oldKeys[k] == key && oldMatched[k] == 0 && oldSegments[k] == s { found = k; break }
                        k += 1
                    }
                }
            }
            if found >= 0 {
                oldMatched[found] = 1
                hint = found + 1 == oldCount ? 0 : found + 1
                lows[j] = old.rowsLow[found]
                highs[j] = old.rowsHigh[found]
                lefts[j] = old.columnsLow[found]
                rights[j] = old.columnsHigh[found]
            } else {
                map(j)
                misses += 1
                if misses > limit { compared = false; continue }
                low = min(low, lows[j])
                high = max(high, highs[j])
                left = min(left, lefts[j])
                right = max(right, rights[j])
            }
        }
        guard compared, isValid else { return nil }
        for k in 0..<oldCount where oldMatched[k] == 0 {
            misses += 1
            if misses > 2 * limit { return nil }
            low = min(low, old.rowsLow[k])
            high = max(high, old.rowsHigh[k])
            left = min(left, old.columnsLow[k])
            right = max(right, old.columnsHigh[k])
        }
        changedColumns = (left, right)
        guard low <= high else { return 0..<0 }
        let first = Int(low.rounded(.down)) - 1, end = Int(high.rounded(.up)) + 1
        return first..<end
    }

    /// Replaces the list with `recording`'s segments and their keys, not yet mapped.
    private func collect(_ recording: FillRecording, transform: Transform) {
        segments.removeAll()
        keys.removeAll()
        self.transform = transform
        isValid = true
        for f in recording.fills.indices {
            var start: (Double, Double)?
            var current: (Double, Double)?
            for element in recording.paths[f].elements {
                switch element {
                case let .move(p):
                    close(fill: f, current, start)
                    start = (p.x, p.y)
                    current = start
                case let .line(p):
                    if let c = current { add(fill: f, degree: 1, c, (p.x, p.y), (p.x, p.y), (p.x, p.y)) } else { start = (p.x, p.y) }
                    current = (p.x, p.y)
                case let .quadCurve(p, control):
                    if let c = current { add(fill: f, degree: 2, c, (control.x, control.y), (p.x, p.y), (p.x, p.y)) } else { start = (p.x, p.y) }
                    current = (p.x, p.y)
                case let .curve(p, c1, c2):
                    if let c = current { add(fill: f, degree: 3, c, (c1.x, c1.y), (c2.x, c2.y), (p.x, p.y)) } else { start = (p.x, p.y) }
                    current = (p.x, p.y)
                case .closeSubpath:
                    close(fill: f, current, start)
                    current = start
                }
            }
            close(fill: f, current, start)
        }
        let count = segments.count
        rowsLow.reset(count: count, to: 0)
        rowsHigh.reset(count: count, to: 0)
        columnsLow.reset(count: count, to: 0)
        columnsHigh.reset(count: count, to: 0)
    }

    private func close(fill: Int, _ current: (Double, Double)?, _ start: (Double, Double)?) {
        guard let c = current, let s = start, c != s else { return }
        add(fill: fill, degree: 1, c, s, s, s)
    }

    private func add(fill: Int, degree: Int32, _ p0: (Double, Double), _ p1: (Double, Double), _ p2: (Double, Double),
                     _ p3: (Double, Double)) {
        segments.append(Segment(fill: Int32(fill), degree: degree, x0: p0.0, y0: p0.1, x1: p1.0, y1: p1.1,
                                x2: p2.0, y2: p2.1, x3: p3.0, y3: p3.1))
        // The end point: a path's segments end at different points but where it crosses itself.
        // +0 makes −0 the +0 it equals, so segments that are equal (``Segment``'s ==) have
        // equal keys.
        keys.append((p3.0 + 0).bitPattern &* 3 ^ (p3.1 + 0).bitPattern)
    }

    /// Maps segment `j` by the transform: its device rows and columns (its control points' hull).
    @inline(__always)
    private func map(_ j: Int) {
        let t = transform, s = segments[j]
        // The curve lies in its control points' hull, and so do its flattened edges.
        let ya = t.b * s.x0 + t.d * s.y0 + t.ty, yb = t.b * s.x1 + t.d * s.y1 + t.ty
        let yc = t.b * s.x2 + t.d * s.y2 + t.ty, yd = t.b * s.x3 + t.d * s.y3 + t.ty
        let low = min(min(ya, yb), min(yc, yd)), high = max(max(ya, yb), max(yc, yd))
        let xa = t.a * s.x0 + t.c * s.y0 + t.tx, xb = t.a * s.x1 + t.c * s.y1 + t.tx
        let xc = t.a * s.x2 + t.c * s.y2 + t.tx, xd = t.a * s.x3 + t.c * s.y3 + t.tx
        // Not finite, or too far out to name a row: every row is redrawn.
        // (Columns too: a valid list's device points are all finite, which
        // ``forEachSegment(ofFill:reaching:_:_:)``'s callers rely on.)
        let left = min(min(xa, xb), min(xc, xd)), right = max(max(xa, xb), max(xc, xd))
        if !(abs(low) < 1e9) || !(abs(high) < 1e9) || !(abs(left) < 1e9) || !(abs(right) < 1e9)
            || !(s.x0 + s.x1 + s.x2 + s.x3).isFinite { isValid = false }
        rowsLow[j] = low
        rowsHigh[j] = high
        columnsLow[j] = left
        columnsHigh[j] = right
    }

    /// Calls `body` with the degree and the device-space control points (mapped by the recorded
    /// transform, as a rasterizer maps the path's points; a line's end repeated, a quadratic's
    /// end as its third and fourth) of each segment of fill `fill`, in the path's order, but for
    /// those whose control points all lie above `top` or all below `bottom`: a valid list's
    /// segments, each from where the last ended, the closing lines where the path closes.
    @inline(__always)
    func forEachSegment(ofFill fill: Int, reaching top: Double, _ bottom: Double,
                        _ body: (Int32, Point, Point, Point, Point) -> Void) {
        let t = transform, f = Int32(truncatingIfNeeded: fill)
        let all = segments.base, lows = rowsLow.base, highs = rowsHigh.base
        for j in 0..<segments.count where all[j].fill == f && highs[j] >= top && lows[j] <= bottom {
            let s = all[j]
            body(s.degree, Point(x: s.x0, y: s.y0).applying(t), Point(x: s.x1, y: s.y1).applying(t),
                 Point(x: s.x2, y: s.y2).applying(t), Point(x: s.x3, y: s.y3).applying(t))
        }
    }

    /// The device rows holding every edge that `self` has and `old` has not, or the reverse; an
    /// empty range when the two match segment for segment; nil when they cannot be compared
    /// (another transform, a list not valid) or differ in too many segments for the search to
    /// pay (the caller then rasterizes every row).
    func changedRows(since old: PathSegments) -> Range<Int>? {
        guard isValid, old.isValid, transform == old.transform else { return nil }
        let count = segments.count, oldCount = old.segments.count
        let limit = max(8, count / 4)
        old.matched.reset(count: oldCount, to: 0)
        var low = Double.infinity, high = -Double.infinity
        var left = Double.infinity, right = -Double.infinity
        var misses = 0
        var hint = 0
        let oldKeys = old.keys.base, oldMatched = old.matched.base, oldSegments = old.segments.base
        for j in 0..<count {
            let s = segments[j], key = keys[j]
            var found = -1
            // From where the last was found to the end, then from the start: the same order as
            // one search round from there.
            if hint < oldCount, oldKeys[hint] == key, oldMatched[hint] == 0, oldSegments[hint] == s {
                found = hint
            } else {
                var k = hint
                while k < oldCount {
                    if oldKeys[k] == key && oldMatched[k] == 0 && oldSegments[k] == s { found = k; break }
                    k += 1
                }
                if found < 0 {
                    k = 0
                    while k < hint {
                        if oldKeys[k] == key && oldMatched[k] == 0 && oldSegments[k] == s { found = k; break }
                        k += 1
                    }
                }
            }
            if found >= 0 {
                old.matched[found] = 1
                hint = found + 1 == oldCount ? 0 : found + 1
            } else {
                misses += 1
                if misses > limit { return nil }
                low = min(low, rowsLow[j])
                high = max(high, rowsHigh[j])
                left = min(left, columnsLow[j])
                right = max(right, columnsHigh[j])
            }
        }
        for k in 0..<oldCount where old.matched[k] == 0 {
            misses += 1
            if misses > 2 * limit { return nil }
            low = min(low, old.rowsLow[k])
            high = max(high, old.rowsHigh[k])
            left = min(left, old.columnsLow[k])
            right = max(right, old.columnsHigh[k])
        }
        changedColumns = (left, right)
        guard low <= high else { return 0..<0 }
        // An edge spanning y0...y1 adds area to rows floor(y0) through ceil(y1) - 1; one row of
        // margin each side.
        let first = Int(low.rounded(.down)) - 1, end = Int(high.rounded(.up)) + 1
        return first..<end
    }

    /// How many rows of `rows` the segments lying wholly right of `column` cross, added up:
    /// about how many (edge, row) runs a rasterization of those rows left of `column` skips.
    func rowsCrossed(rightOf column: Int, in rows: Range<Int>) -> Double {
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound), x = Double(column)
        var crossed = 0.0
        for j in 0..<segments.count where columnsLow[j] > x && rowsHigh[j] > top && rowsLow[j] < bottom {
            crossed += min(bottom, rowsHigh[j]) - max(top, rowsLow[j])
        }
        return crossed
    }

    /// A column right of every changed segment such that no segment spanning any of `rows` comes
    /// within two pixels of it: every edge in those rows lies wholly left of it (and is rasterized
    /// as over the whole width) or wholly right of it (and is unchanged, as is the coverage it
    /// makes, whose winding to the right does not involve the changed segments). Nil when the
    /// changed segments reach past `limit`, no such column lies before it, or no segment of those
    /// rows lies right of it.
    func unchangedRight(of rows: Range<Int>, before limit: Int) -> Int? {
        var reach = changedColumns.high
        guard reach.isFinite else { return nil }
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound)
        // The segments spanning these rows (a few of a long arc's), found once for every pass.
        inRows.removeAll()
        for j in 0..<segments.count where rowsHigh[j] >= top && rowsLow[j] <= bottom { inRows.append(Int32(truncatingIfNeeded: j)) }
        let spanning = inRows.base, spanningCount = inRows.count
        // Segments overlapping the reach (or within two pixels of it) extend it, until none do
        // (a few passes; more means segments chained across the rows, not worth following).
        var grew = true, passes = 0
        while grew {
            grew = false
            passes += 1
            guard reach + 2 < Double(limit), passes <= 8 else { return nil }
            for i in 0..<spanningCount {
                let j = Int(spanning[i])
                if columnsLow[j] < reach + 3 && columnsHigh[j] > reach {
                    reach = columnsHigh[j]
                    grew = true
                }
            }
        }
        let column = Int(reach.rounded(.up)) + 2
        guard column < limit else { return nil }
        // Nothing right of the column in these rows: nothing to keep, the whole width is rasterized.
        for i in 0..<spanningCount where columnsLow[Int(spanning[i])] >= reach + 3 {
            return column
        }
        return nil
    }
}

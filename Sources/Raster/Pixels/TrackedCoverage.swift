// TrackedCoverage: a shape's coverage kept in an 8-bit mask from frame to frame, rewritten only
// where it changed, reporting the changed pixels as bands.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The coverage of a ``FillRecording`` (the union of its fills, each scaled by its colour's
/// alpha, then multiplied by an overall alpha) held in an ``AlphaMask`` the size of the target,
/// across frames.
///
/// Each ``update(_:transform:alpha:clip:changed:)`` rasterizes the fills into row records
/// (constant spans and runs of edge cells), compares them row by row with the previous frame's,
/// rewrites the mask only in the changed part of each changed row, and reports the changed
/// pixels as a few rectangles (bands of rows): the damage a moving or growing shape causes, as
/// opposed to its whole bounds. The mask is ready to clip with
/// ``GraphicsContext/clip(toMask:)`` (no 32-bit intermediate, no conversion pass). All storage is
/// kept from frame to frame, so a warm update allocates nothing.
package final class TrackedCoverage {
    /// The coverage, in device pixels of the target.
    package let mask: AlphaMask
    private var current: CoverageRows
    private var next: CoverageRows
    /// Where a one-fill shape's rows are laid out afresh when its changed rows cannot be spliced
    /// into `current` (no room left at the side to move).
    private var spare: CoverageRows
    /// Last partial update's first changed row: which way the changed rows move.
    private var lastFirstRow = 0
    /// Whether `current`'s records have room at both ends (false after they were made from the
    /// buffer's start, by rasterizing every row).
    private var hasRoomAround = false
    /// The changed columns of each row this update: lo ..< hi (lo >= hi when unchanged).
    private let changedLo: ScratchArray<Int32>
    private let changedHi: ScratchArray<Int32>
    private let cursors = ScratchArray<Int>(capacity: 4)
    private let rasterizer = Rasterizer()
    /// Last update's path segments, and this update's (swapped each update).
    private var segments = PathSegments()
    private var nextSegments = PathSegments()
    /// What else last update's coverage was made from.
    private var lastBounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    private var lastFills: [FillRecording.Fill] = []
    /// Each fill's records in the rows rasterized this update: last update's and this one's.
    private struct Middle {
        var oldLow: Int, oldHigh: Int, newLow: Int, newHigh: Int
        var old: Range<Int> { oldLow..<oldHigh }
        var new: Range<Int> { newLow..<newHigh }
    }
    private let middles = ScratchArray<Middle>(capacity: 4)
    /// How many updates rasterized only the rows their changed segments span (for tests).
    package private(set) var partialUpdates = 0
    /// How many fills' rows were rasterized only left of unchanged segments (for tests).
    package private(set) var joinedFills = 0
    /// How many fills' rows were rasterized only up to a gap of each row right of the changed
    /// segments (for tests).
    package private(set) var rowJoinedFills = 0
    /// How many updates spliced a one-fill shape's changed rows into its records in place, and how
    /// many laid them out afresh for want of room (for tests).
    package private(set) var splicedUpdates = 0
    package private(set) var freshLayouts = 0
    /// Each rasterized row's column from which last update's records are carried over.
    private let cuts: ScratchArray<Int32>
    /// Where each rasterized row's records lie in last update's records and this one's, when
    /// joined (``JoiningRecorder``): the diff then finds them without scanning the rows.
    private let joins: ScratchArray<RowJoin>
    /// Bytes held for row records (for tests: a warm update never grows them).
    package var recordCapacity: Int { current.capacity + next.capacity + spare.capacity }

    /// Rows per reported band: finer bands damage fewer pixels, coarser ones fewer rectangles.
    static let bandRows = 16

    /// Creates empty coverage for a `width`×`height` target.
    package init(width: Int, height: Int) throws(BitmapError) {
        mask = try AlphaMask(width: width, height: height)
        rasterizer.makesWindingsWhole = true
        // A partial update's clip may be only the columns left of a ring's far side: in bands of
        // a full-width 1080p band's rows, not of a hundred or more, the edges of the ring's near
        // side fill enough of each band for the table of runs.
        rasterizer.maximumBandRows = 34
        current = CoverageRows(rows: height)
        next = CoverageRows(rows: height)
        spare = CoverageRows(rows: height)
        changedLo = ScratchArray(capacity: height)
        changedHi = ScratchArray(capacity: height)
        cuts = ScratchArray(capacity: height)
        joins = ScratchArray(capacity: height)
        changedLo.reset(count: height, to: 0)
        changedHi.reset(count: height, to: 0)
        lastFills.reserveCapacity(4)
    }

    /// Replaces the coverage with `recording`'s fills mapped by `transform`, multiplied by
    /// `alpha` (0...255) and clipped to `clip`, and calls `changed` with rectangles covering every
    /// pixel whose coverage changed.
    ///
    /// When the fills are last update's but for a few path segments (same colours, rules,
    /// transform, alpha and clip), only the rows those segments span are rasterized and compared;
    /// the other rows' records are carried over (``PathSegments``).
    package func update(_ recording: FillRecording?, transform: Transform, alpha: UInt32, clip: IntRect,
                        changed: (IntRect) -> Void) {
        let next = self.next, current = self.current
        let bounds = clip.intersection(mask.bounds)
        let drawn = recording.flatMap { alpha > 0 && !bounds.isEmpty ? $0 : nil }
        let segmentsNow = nextSegments
        var rows: Range<Int>?
        if let drawn {
            // Compared with last update's segments only when the rest is last update's too.
            let comparable = bounds == lastBounds && alpha == current.alpha && drawn.fills == lastFills
            if let changedRows = segmentsNow.record(drawn, transform: transform, comparingWith: comparable ? segments : nil) {
                rows = max(changedRows.lowerBound, bounds.y)..<max(min(changedRows.upperBound, bounds.maxY), bounds.y)
            }
        } else {
            segmentsNow.invalidate()
        }
        // Where the changed segments lie left of unchanged ones in the same rows (the head of a
        // growing ring, the ring's far side across the hole), only the columns left of a gap
        // between them are rasterized.
        let unchangedRight = rows.flatMap { segmentsNow.unchangedRight(of: $0, before: bounds.maxX) }
        // Else each row may still be rasterized only up to a gap between edges right of the changed
        // segments (the ring running on from the head in the same rows).
        var rightOfChanges: Int?
        if let rows, unchangedRight == nil, segmentsNow.changedColumns.high.isFinite {
            let column = Int(segmentsNow.changedColumns.high.rounded(.up)) + 2
            // Worth it when about one edge a row lies right of the column: carrying a row's
            // records over costs about what rasterizing one edge across it does.
            if column < bounds.maxX, segmentsNow.rowsCrossed(rightOf: column + 1, in: rows) >= Double(rows.count) {
                rightOfChanges = column
            }
        }
        swap(&segments, &nextSegments)
        lastBounds = bounds
        lastFills.removeAll(keepingCapacity: true)
        if let drawn { lastFills.append(contentsOf: drawn.fills) }
        if rows != nil { partialUpdates += 1 }
        // Nothing the fills cover changed.
        if let rows, rows.isEmpty { return }

        // A one-fill shape's changed rows are rasterized into `next` and spliced into `current`
        // in place, moving the rows on the shorter side of them: the rows a growing ring already
        // covers are not copied every update.
        let splicing = rows != nil && drawn?.fills.count == 1
        var joinedSplice = false, splicedFrom = 0
        next.removeAll()
        next.alpha = alpha
        middles.removeAll()
        var changedRows = (first: Int.max, last: Int.min)
        if let drawn {
            for i in drawn.fills.indices {
                let fill = drawn.fills[i]
                next.beginFill()
                var rowClip = bounds
                var old = 0..<0
                if let rows {
                    // Rows above and below the changed ones keep last update's records.
                    let kept = current.fill(i)
                    old = current.firstRecord(in: kept, atRow: rows.lowerBound)..<current.firstRecord(in: kept, atRow: rows.upperBound)
                    if !splicing { next.copyRecords(current, kept.lowerBound..<old.lowerBound) }
                    rowClip = IntRect(x: bounds.x, y: rows.lowerBound, width: bounds.width, height: rows.count)
                }
                let newStart = next.records.count
                var joined = true
                if let rows, let right = unchangedRight,
                   rasterize(fill: i, rule: fill.rule, scale: fill.color >> 24, rows: rows, from: bounds.x, to: right, joining: old) {
                    joinedFills += 1
                } else if let rows, let column = rightOfChanges,
                          rasterize(fill: i, rule: fill.rule, scale: fill.color >> 24, rows: rows, in: bounds, gapsFrom: column,
                                    joining: old) {
                    rowJoinedFills += 1
                } else {
                    joined = false
                    rasterizer.begin(clip: rowClip, targetWidth: mask.width)
                    // A partial update's rows: only the segments reaching them are visited.
                    if rows != nil { rasterizer.add(segments, fill: i) } else { rasterizer.add(drawn.paths[i], transform: transform) }
                    var sink = RowRecorder(rows: next, scale: fill.color >> 24)
                    rasterizer.render(rule: fill.rule, into: &sink)
                }
                let new = newStart..<next.records.count
                if splicing {
                    joinedSplice = joined
                    splicedFrom = newStart
                }
                middles.append(Middle(oldLow: old.lowerBound, oldHigh: old.upperBound, newLow: new.lowerBound, newHigh: new.upperBound))
                if let rows {
                    // Compared now, while ``cuts`` are this fill's: the records carried over from
                    // them are the same.
                    diff(old, new, everything: false, joins: joined ? joins.base : nil, firstRow: rows.lowerBound, rowCount: rows.count,
                         rows: &changedRows)
                    if !splicing { next.copyRecords(current, old.upperBound..<current.fill(i).upperBound) }
                }
            }
        }
        next.endFill()
        // Which columns of which rows differ, fill by fill (only the rasterized rows when the
        // rest were carried over); a new overall alpha changes every covered pixel.
        let everything = current.alpha != next.alpha
        if rows == nil {
            for f in 0..<max(current.fillCount, next.fillCount) {
                diff(current.fill(f), next.fill(f), everything: everything, rows: &changedRows)
            }
        }
        if splicing, let rows {
            let m = middles[0]
            let up = rows.lowerBound < lastFirstRow
            lastFirstRow = rows.lowerBound
            // Laid out afresh on the first splice after a whole rasterization, while the shape is
            // likely small (a ring starting to grow), rather than when the side to move runs out
            // of room, in cache-cold memory, in the middle of a sweep.
            if hasRoomAround, let placed = current.splice(next, m.new, replacing: m.old, gapBelow: !up) {
                middles[0].newLow = placed.lowerBound
                middles[0].newHigh = placed.upperBound
                splicedUpdates += 1
            } else {
                // No room at the shorter side: the rows laid out afresh, with room at both ends.
                let whole = current.fill(0)
                spare.removeAll()
                spare.alpha = current.alpha
                spare.center(records: whole.count - m.old.count + m.new.count,
                             cells: current.cellSpan(whole) + next.cellSpan(m.new))
                spare.beginFill()
                spare.copyRecords(current, whole.lowerBound..<m.oldLow)
                middles[0].newLow = spare.records.count
                spare.copyRecords(next, m.new)
                middles[0].newHigh = spare.records.count
                spare.copyRecords(current, m.oldHigh..<whole.upperBound)
                spare.endFill()
                swap(&self.current, &spare)
                freshLayouts += 1
                hasRoomAround = true
            }
        } else {
            self.current = next
            self.next = current
            hasRoomAround = false
        }
        guard changedRows.first <= changedRows.last else { return }
        // Rewrite the changed runs from the new records, and report them band by band.
        let now = self.current
        cursors.removeAll()
        for f in 0..<now.fillCount { cursors.append(rows != nil ? middles[f].new.lowerBound : now.fill(f).lowerBound) }
        // A joined row's records end with the far side's, right of the changed columns: where
        // each row starts is known (``joins``, moved with the spliced records), not searched for.
        let joinedRows = joinedSplice ? rows.map { (first: $0.lowerBound, offset: middles[0].newLow - splicedFrom) } : nil
        // The band's changed rows and columns so far, and those of the rows written, as bounds of
        // whole numbers: the mask's covered bounds are widened once, not row by row (each widening
        // of a class's property is a dynamic exclusivity check).
        var band = Span(), written = Span()
        var bandStart = changedRows.first
        for y in changedRows.first...changedRows.last {
            if y - bandStart >= Self.bandRows {
                if let r = band.rect { changed(r) }
                band = Span()
                bandStart = y
            }
            let lo = Int(changedLo[y]), hi = Int(changedHi[y])
            guard lo < hi else { continue }
            changedLo[y] = 0
            changedHi[y] = 0
            if let j = joinedRows { cursors[0] = Int(joins[y - j.first].newStart) + j.offset }
            if rewrite(row: y, from: lo, to: hi, rows: now) { written.add(row: y, from: lo, to: hi) }
            band.add(row: y, from: lo, to: hi)
        }
        if let r = band.rect { changed(r) }
        if let r = written.rect { mask.noteWritten(r) }
    }

    /// The bounds of columns `lo ..< hi` of rows added in increasing order.
    private struct Span {
        var lo = Int.max, hi = Int.min, top = 0, bottom = 0

        mutating func add(row y: Int, from lo: Int, to hi: Int) {
            if self.lo == .max { top = y }
            self.lo = min(self.lo, lo)
            self.hi = max(self.hi, hi)
            bottom = y + 1
        }

        var rect: IntRect? { lo < hi ? IntRect(x: lo, y: top, width: hi - lo, height: bottom - top) : nil }
    }

    /// Appends to `next` the records of fill `fill` in `rows`, rasterized only in columns `left ..< right`
    /// and joined with `old` (current's records of those rows) from column `right` on. False,
    /// nothing appended, when they do not join as one rasterization of the whole width would
    /// have made them: every row must have a whole winding at `right` (between edges, so a span
    /// or nothing), and that span must continue a span of `old` of the same coverage.
    ///
    /// Exact because no edge of these rows comes near `right` (``PathSegments/unchangedRight(of:before:)``):
    /// the edges left of it make the same cells as across the whole width, those right of it are
    /// last update's, and the winding between them is whole (``Rasterizer/wholeIfNear(_:)``),
    /// the same in both updates.
    private func rasterize(fill: Int, rule: FillRule, scale: UInt32, rows: Range<Int>,
                           from left: Int, to right: Int, joining old: Range<Int>) -> Bool {
        cuts.reset(count: rows.count, to: Int32(right))
        rasterizer.begin(clip: IntRect(x: left, y: rows.lowerBound, width: right - left, height: rows.count), targetWidth: mask.width)
        return rasterizeJoining(fill: fill, rule: rule, scale: scale, rows: rows, joining: old, wholeEnds: true)
    }

    /// Appends to `next` the records of fill `fill` in `rows` left of a column of each row, and
    /// `old`'s (current's records of those rows) from that column on: the first column at or
    /// after `column` that no run of edge cells of `old` covers. False, nothing appended, when
    /// they do not join as one rasterization of the whole width would have made them, or no
    /// row has records of `old` right of its column (nothing to gain).
    ///
    /// Exact because the column lies right of every changed segment and between edges in both
    /// updates: the winding there is the same whole number (the changed segments of the two
    /// updates bound a region left of it), made whole (``Rasterizer/wholeIfNear(_:)``), and the
    /// edges right of it are last update's, in the same order. Segments lying right of the
    /// column of each row they cross are not even added (``Rasterizer/dropEdges(rightOf:rows:)``).
    private func rasterize(fill: Int, rule: FillRule, scale: UInt32, rows: Range<Int>,
                           in bounds: IntRect, gapsFrom column: Int, joining old: Range<Int>) -> Bool {
        cuts.reset(count: rows.count, to: Int32(column))
        let records = current.records.base, cut = cuts.base
        var k = old.lowerBound, carried = false
        while k < old.upperBound {
            let y = Int(records[k].y)
            var gap = column, rowEnd = column
            // A row's records come in order of x, so one pass finds the first column past the
            // runs of cells covering `column` (or abutting ones).
            while k < old.upperBound && Int(records[k].y) == y {
                let r = records[k]
                k += 1
                let end = Int(r.x) + Int(r.count)
                if r.cells >= 0 && Int(r.x) <= gap && gap < end { gap = end }
                rowEnd = max(rowEnd, end)
            }
            gap = min(gap, bounds.maxX)
            if rowEnd > gap { carried = true }
            cut[y - rows.lowerBound] = Int32(gap)
        }
        guard carried else { return false }
        rasterizer.begin(clip: IntRect(x: bounds.x, y: rows.lowerBound, width: bounds.width, height: rows.count), targetWidth: mask.width)
        rasterizer.dropEdges(rightOf: cuts.base, rows: rows)
        return rasterizeJoining(fill: fill, rule: rule, scale: scale, rows: rows, joining: old, wholeEnds: false)
    }

    /// Rasterizes fill `fill` (its segments this update; the rasterizer begun) into `next` joined with `old` at ``cuts``; when
    /// `wholeEnds`, every row must also end on a whole winding (the clip ends at the cut).
    private func rasterizeJoining(fill: Int, rule: FillRule, scale: UInt32, rows: Range<Int>,
                                  joining old: Range<Int>, wholeEnds: Bool) -> Bool {
        let next = self.next
        let recordStart = next.records.count, cellStart = next.cellBytes.count
        rasterizer.add(segments, fill: fill)
        // Every row's entry is written as the recorder finishes the row (the last at `finish`
        // below): not cleared first.
        joins.reserve(rows.count)
        joins.reclaim(upTo: rows.count)
        var sink = JoiningRecorder(rows: next, scale: scale, old: current, range: old, cuts: cuts.base, joins: joins.base,
                                   firstRow: rows.lowerBound)
        rasterizer.render(rule: rule, into: &sink)
        sink.finish(before: rows.upperBound)
        if sink.joined && (!wholeEnds || rasterizer.endsOnWholeWinding) { return true }
        next.records.removeLast(downTo: recordStart)
        next.cellBytes.removeLast(downTo: cellStart)
        return false
    }

    /// Clears columns `lo ..< hi` of row `y` and writes the union of the current fills there;
    /// true when any fill covers part of them (the caller notes them as written in the mask).
    private func rewrite(row y: Int, from lo: Int, to hi: Int, rows: CoverageRows) -> Bool {
        let p = mask.row(y)
        storeBytes(0, p + lo, hi - lo)
        let records = rows.records.base, cells = rows.cellBytes.base
        var wrote = false
        for f in 0..<rows.fillCount {
            // Advance this fill's cursor to row y (rows are visited in increasing order).
            let end = rows.fill(f).upperBound
            var i = cursors[f]
            while i < end && Int(records[i].y) < y { i += 1 }
            cursors[f] = i
            while i < end && Int(records[i].y) == y {
                let record = records[i]
                // The row's records come in order of x: the rest lie right of the changed
                // columns (a ring's far side), and the next row's search steps over them.
                if Int(record.x) >= hi { break }
                i += 1
                let x0 = max(lo, Int(record.x)), x1 = min(hi, Int(record.x) + Int(record.count))
                guard x0 < x1 else { continue }
                wrote = true
                // The first fill's records of a row do not overlap and land on cleared pixels,
                // whose union with them is them: stored, not blended.
                if record.cells < 0 {
                    let c = record.coverage
                    if c == 255 || f == 0 { storeBytes(c, p + x0, x1 - x0); continue }
                    for x in x0..<x1 { p[x] = MaskWriter.union(p[x], c) }
                } else {
                    let source = cells + (Int(record.cells) - Int(record.x))
                    if f == 0 { copyBytes(p + x0, source + x0, x1 - x0); continue }
                    for x in x0..<x1 where source[x] != 0 { p[x] = MaskWriter.union(p[x], source[x]) }
                }
            }
        }
        guard wrote else { return false }
        // The overall alpha scales the union (group opacity), not each fill.
        let alpha = rows.alpha
        if alpha < 255 { for x in lo..<hi { p[x] = UInt8(PixelMath.mul(UInt32(p[x]), alpha)) } }
        return true
    }

    /// Widens `changedLo`/`changedHi` for each row whose records differ between `old` (current)
    /// and `new` (next), over the columns spanning the differing records of both, and `rows` to
    /// the first and last such row. With `joins`, the `rowCount` rows from `firstRow` were
    /// joined (``JoiningRecorder``): each row's records carried over from `old` are not compared,
    /// and where each row lies is read from `joins`, not found by scanning.
    private func diff(_ old: Range<Int>, _ new: Range<Int>, everything: Bool, joins: UnsafePointer<RowJoin>? = nil,
                      firstRow: Int = 0, rowCount: Int = 0, rows: inout (first: Int, last: Int)) {
        let a = current.records.base, b = next.records.base
        let ca = current.cellBytes.base, cb = next.cellBytes.base
        let lows = changedLo.base, highs = changedHi.base
        // Record indices, columns and cell offsets lie well inside Int32 (a target's records and
        // pixels): wrapping arithmetic, without an overflow check at each step of a loop run for
        // every changed row, and the changed rows' bounds kept in locals until the end.
        var first = rows.first, last = rows.last
        defer { rows = (first, last) }
        @inline(__always) func same(_ i: Int, _ j: Int) -> Bool {
            let x = a[i], y = b[j]
            guard x.y == y.y, x.x == y.x, x.count == y.count, (x.cells < 0) == (y.cells < 0) else { return false }
            if x.cells < 0 { return x.coverage == y.coverage }
            return equalBytes(ca + Int(x.cells), cb + Int(y.cells), Int(x.count))
        }
        /// Compares row `y`'s records `i ..< ie` of `old` with `j ..< je` of `new`.
        @inline(__always) func compare(row y: Int, _ i: Int, _ ie: Int, _ j: Int, _ je: Int) {
            // Common prefix and suffix of the two rows' records.
            let na = ie &- i, nb = je &- j
            var p = 0
            if !everything { while p < na && p < nb && same(i &+ p, j &+ p) { p &+= 1 } }
            guard p < na || p < nb else { return }
            var s = 0
            if !everything { while s < na &- p && s < nb &- p && same(ie &- 1 &- s, je &- 1 &- s) { s &+= 1 } }
            // Whether each side has records left between the prefix and the suffix.
            let differsA = p < na &- s, differsB = p < nb &- s
            var lo = Int.max, hi = Int.min
            if differsA {
                let r = a[ie &- 1 &- s]
                lo = Int(a[i &+ p].x)
                hi = Int(r.x &+ r.count)
            }
            if differsB {
                let r = b[je &- 1 &- s]
                lo = min(lo, Int(b[j &+ p].x))
                hi = max(hi, Int(r.x &+ r.count))
            }
            // The first and last differing records often share their start or their end and
            // differ only at the other (a span lengthened by a growing shape): the pixels they
            // share are unchanged, so a long span does not damage the whole row.
            if !everything, differsA, differsB {
                let x = a[i &+ p], y = b[j &+ p]
                if x.x == y.x { lo = Int(x.x) &+ commonPixels(x, y, ca, cb, fromEnd: false) }
                let u = a[ie &- 1 &- s], v = b[je &- 1 &- s]
                if u.x &+ u.count == v.x &+ v.count { hi = Int(u.x &+ u.count) &- commonPixels(u, v, ca, cb, fromEnd: true) }
            }
            guard lo < hi else { return }
            let lo32 = Int32(truncatingIfNeeded: lo), hi32 = Int32(truncatingIfNeeded: hi)
            if lows[y] >= highs[y] {
                lows[y] = lo32
                highs[y] = hi32
            } else {
                lows[y] = min(lows[y], lo32)
                highs[y] = max(highs[y], hi32)
            }
            first = min(first, y)
            last = max(last, y)
        }
        if let joins {
            for r in 0..<rowCount {
                let t = joins[r]
                compare(row: firstRow &+ r, Int(t.oldStart), Int(t.oldCarried), Int(t.newStart), Int(t.newCarried))
            }
            return
        }
        var i = old.lowerBound, j = new.lowerBound
        while i < old.upperBound || j < new.upperBound {
            let y = min(i < old.upperBound ? Int(a[i].y) : Int.max, j < new.upperBound ? Int(b[j].y) : Int.max)
            var rowEndA = i, rowEndB = j
            while rowEndA < old.upperBound && Int(a[rowEndA].y) == y { rowEndA &+= 1 }
            while rowEndB < new.upperBound && Int(b[rowEndB].y) == y { rowEndB &+= 1 }
            compare(row: y, i, rowEndA, j, rowEndB)
            i = rowEndA
            j = rowEndB
        }
    }
}

/// Where one joined row's records lie (``JoiningRecorder``): last update's from `oldStart`, those
/// carried over from `oldCarried` to `oldEnd`; this update's from `newStart`, the carried copies
/// from `newCarried` to `newEnd`.
struct RowJoin {
    var oldStart: Int32 = 0, oldCarried: Int32 = 0, oldEnd: Int32 = 0
    var newStart: Int32 = 0, newCarried: Int32 = 0, newEnd: Int32 = 0
}

// A rewritten row is a few short runs of pixels, a diffed row a few short runs of cells: up to
// 16 bytes are stored or compared as two overlapping words (or halves, or bytes) rather than by
// a call to memset, memcpy or memcmp, which cost about 25 instructions apiece with the call,
// three or four calls a row.

/// Sets the `n` bytes from `p` to `value`.
@inline(__always)
private func storeBytes(_ value: UInt8, _ p: UnsafeMutablePointer<UInt8>, _ n: Int) {
    guard n <= 16 else { p.update(repeating: value, count: n); return }
    let t = UnsafeMutableRawPointer(p)
    if n >= 8 {
        let w = UInt64(value) &* 0x0101_0101_0101_0101
        t.storeBytes(of: w, as: UInt64.self)
        t.storeBytes(of: w, toByteOffset: n &- 8, as: UInt64.self)
    } else if n >= 4 {
        let w = UInt32(value) &* 0x0101_0101
        t.storeBytes(of: w, as: UInt32.self)
        t.storeBytes(of: w, toByteOffset: n &- 4, as: UInt32.self)
    } else if n > 0 {
        p[0] = value
        p[n &>> 1] = value
        p[n &- 1] = value
    }
}

/// Copies `n` bytes from `from` to `to` (not overlapping).
@inline(__always)
private func copyBytes(_ to: UnsafeMutablePointer<UInt8>, _ from: UnsafePointer<UInt8>, _ n: Int) {
    guard n <= 16 else { to.update(from: from, count: n); return }
    let t = UnsafeMutableRawPointer(to), f = UnsafeRawPointer(from)
    if n >= 8 {
        let a = f.loadUnaligned(as: UInt64.self), b = f.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        t.storeBytes(of: a, as: UInt64.self)
        t.storeBytes(of: b, toByteOffset: n &- 8, as: UInt64.self)
    } else if n >= 4 {
        let a = f.loadUnaligned(as: UInt32.self), b = f.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        t.storeBytes(of: a, as: UInt32.self)
        t.storeBytes(of: b, toByteOffset: n &- 4, as: UInt32.self)
    } else if n > 0 {
        let a = from[0], b = from[n &>> 1], c = from[n &- 1]
        to[0] = a
        to[n &>> 1] = b
        to[n &- 1] = c
    }
}

/// Copies `n` records from `from` to `to` (not overlapping) as 16-byte words, the last word
/// overlapping the one before: a copy call of a few kilobytes goes to `rep movsb`, fast on the
/// hardware but one instruction a byte under callgrind, which would hide what the copy saves.
@inline(__always)
private func copyBlock(_ to: UnsafeMutablePointer<CoverageRows.Record>, _ from: UnsafePointer<CoverageRows.Record>, _ n: Int) {
    let bytes = n &* MemoryLayout<CoverageRows.Record>.stride
    guard bytes >= 16 else { if n > 0 { to.update(from: from, count: n) }; return }
    let t = UnsafeMutableRawPointer(to), f = UnsafeRawPointer(from)
    let last = bytes &- 16
    var i = 0
    while i < last {
        t.storeBytes(of: f.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), toByteOffset: i, as: SIMD16<UInt8>.self)
        i &+= 16
    }
    t.storeBytes(of: f.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self), toByteOffset: last, as: SIMD16<UInt8>.self)
}

/// Adds `shift` to the cell offset of each of the `n` records from `p` that has cells (constant
/// spans keep their −1), without a branch a record.
@inline(__always)
private func shiftCells(_ p: UnsafeMutablePointer<CoverageRows.Record>, _ n: Int, by shift: Int32) {
    var i = 0
    while i < n {
        let c = p[i].cells
        p[i].cells = c &+ (c >= 0 ? shift : 0)
        i &+= 1
    }
}

/// Whether the `n` bytes at `a` and at `b` are the same.
@inline(__always)
private func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    guard n <= 16 else { return memcmp(a, b, n) == 0 }
    let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
    if n >= 8 {
        return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
            && x.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }
    if n >= 4 {
        return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
            && x.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) == y.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
    }
    return n <= 0 || (a[0] == b[0] && a[n &>> 1] == b[n &>> 1] && a[n &- 1] == b[n &- 1])
}

/// How many pixels two records starting together (or, `fromEnd`, ending together) have the same
/// coverage for, counted from that shared start (end), up to the shorter record's length.
private func commonPixels(_ x: CoverageRows.Record, _ y: CoverageRows.Record, _ xCells: UnsafeMutablePointer<UInt8>,
                          _ yCells: UnsafeMutablePointer<UInt8>, fromEnd: Bool) -> Int {
    let n = Int(min(x.count, y.count))
    @inline(__always) func value(_ r: CoverageRows.Record, _ cells: UnsafeMutablePointer<UInt8>, _ k: Int) -> UInt8 {
        if r.cells < 0 { return r.coverage }
        return cells[Int(r.cells) &+ (fromEnd ? Int(r.count) &- 1 &- k : k)]
    }
    if x.cells < 0 && y.cells < 0 { return x.coverage == y.coverage ? n : 0 }
    var k = 0
    while k < n && value(x, xCells, k) == value(y, yCells, k) { k &+= 1 }
    return k
}

/// One frame's coverage as records in raster order, fill after fill.
///
/// The records run without a gap from the first fill's start, which may lie past the buffer's
/// start (room a splice can move the rows before the changed ones into). Their cells lie in the
/// same order, not necessarily without gaps: bytes between are never read.
final class CoverageRows {
    struct Record {
        var y: Int32, x: Int32, count: Int32
        /// Where the run's cell values start in `cellBytes`, or −1 for a constant span.
        var cells: Int32
        var coverage: UInt8
    }

    /// Room for this many records and cell bytes per row of the target from the start: enough
    /// for a ring around the whole target (six records a row, and its edges' cells), so a shape
    /// that grows over the first frames does not grow the buffers mid-animation. Growing them
    /// then meant copying 80-160 KiB into pages never touched before: the first sweep of the
    /// player's arrow had frames at 2-3x their neighbours' time where the copies fell.
    static let recordsPerRow = 8, cellBytesPerRow = 32

    let records: ScratchArray<Record>
    let cellBytes: ScratchArray<UInt8>
    /// Where each fill's records start; the last entry ends the last fill.
    let fillStarts = ScratchArray<Int>(capacity: 4)
    /// The alpha (0...255) the union of the fills is multiplied by.
    var alpha: UInt32 = 255

    var fillCount: Int { max(0, fillStarts.count - 1) }

    /// Storage for a target of `rows` rows, written once so its pages are mapped now rather
    /// than on the frame that first reaches them.
    init(rows: Int) {
        records = ScratchArray(capacity: max(1024, rows * Self.recordsPerRow))
        cellBytes = ScratchArray(capacity: max(4096, rows * Self.cellBytesPerRow))
        records.reset(count: records.capacity, to: Record(y: 0, x: 0, count: 0, cells: -1, coverage: 0))
        cellBytes.reset(count: cellBytes.capacity, to: 0)
        removeAll()
    }

    var capacity: Int { records.capacity * MemoryLayout<Record>.stride + cellBytes.capacity }

    func removeAll() {
        records.removeAll()
        cellBytes.removeAll()
        fillStarts.removeAll()
    }

    func beginFill() { fillStarts.append(records.count) }

    func endFill() { fillStarts.append(records.count) }

    /// The index of the first record in `range` (one fill's, in raster order) at or below row `y`.
    func firstRecord(in range: Range<Int>, atRow y: Int) -> Int {
        var low = range.lowerBound, high = range.upperBound
        let base = records.base
        while low < high {
            let mid = low + (high - low) / 2
            if Int(base[mid].y) < y { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Cell bytes a splice leaves spare beside the new cells when it moves cells to make room
    /// for them (a few rows' worth, where there is room), so the next updates need not move them.
    static let cellSlack = 2048

    /// Appends `source`'s records in `range` (of one fill, in raster order) with their cells.
    func copyRecords(_ source: CoverageRows, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let from = source.records.base
        let start = records.count
        records.append(from: from + range.lowerBound, count: range.count)
        // A fill's cells follow its records' order, so these records' cells are one run, from
        // the first record's with cells to the last's.
        var first = range.lowerBound, last = range.upperBound - 1
        while first <= last && from[first].cells < 0 { first += 1 }
        while last > first && from[last].cells < 0 { last -= 1 }
        guard first <= last else { return }
        let cellLow = Int(from[first].cells), cellHigh = Int(from[last].cells) + Int(from[last].count)
        let shift = Int32(cellBytes.count - cellLow)
        cellBytes.append(from: source.cellBytes.base + cellLow, count: cellHigh - cellLow)
        // Copied to where they were (a first fill's rows above the changed ones): nothing moves.
        guard shift != 0 else { return }
        shiftCells(records.base + start, records.count - start, by: shift)
    }

    /// The bytes from the first cell of the records in `range` to the last (0 without cells).
    func cellSpan(_ range: Range<Int>) -> Int {
        cellBounds(range).map { $0.upperBound - $0.lowerBound } ?? 0
    }

    /// Where the cells of the records in `range` lie, from the first record's with cells to the
    /// last's (in order of the records), or nil when none has cells.
    func cellBounds(_ range: Range<Int>) -> Range<Int>? {
        let r = records.base
        var first = range.lowerBound, last = range.upperBound - 1
        while first <= last && r[first].cells < 0 { first += 1 }
        guard first <= last else { return nil }
        while r[last].cells < 0 { last -= 1 }
        return Int(r[first].cells)..<Int(r[last].cells) + Int(r[last].count)
    }

    /// Empties the rows and leaves room before the first fill's records and cells, half of what
    /// `records` records and `cells` cell bytes leave of the capacity.
    func center(records n: Int, cells c: Int) {
        removeAll()
        records.reclaim(upTo: max(0, (records.capacity - n) / 2))
        cellBytes.reclaim(upTo: max(0, (cellBytes.capacity - c) / 2))
    }

    /// Replaces records `old` of the only fill with `source`'s records `new` (of its only fill,
    /// in raster order, the same rows), in place: the records before `old` or those after it move
    /// (whichever are fewer) to make room, and their cells likewise when the new cells do not fit
    /// between the cells before and after (`gapBelow`: the new cells go right after those before,
    /// else right before those after, leaving any spare bytes on the side the changed rows move
    /// to, where they are rewritten next). Returns where the new records now are, or nil, nothing
    /// changed, when there is no room for the move.
    func splice(_ source: CoverageRows, _ new: Range<Int>, replacing old: Range<Int>, gapBelow: Bool) -> Range<Int>? {
        let whole = fill(0)
        let before = whole.lowerBound..<old.lowerBound, after = old.upperBound..<whole.upperBound
        let grow = new.count - old.count
        // Records: the shorter side moves by `grow`.
        let movesBefore = before.count < after.count
        if movesBefore ? before.lowerBound - grow < 0 : after.upperBound + grow > records.capacity { return nil }
        // Cells: the new ones between those before and after, or one side moved to make room.
        let cellsBefore = cellBounds(before), cellsAfter = cellBounds(after), cellsNew = source.cellBounds(new)
        let low = cellsBefore?.upperBound ?? 0, high = cellsAfter?.lowerBound ?? cellBytes.capacity
        let needed = cellsNew.map { $0.upperBound - $0.lowerBound } ?? 0
        let short = needed - (high - low)
        // < 0: the cells before move left by -cellMove; > 0: those after move right. By a few
        // rows' cells more than needed where there is room, so the next updates need not move them.
        var cellMove = 0
        if short > 0 {
            let roomBefore = (cellsBefore?.lowerBound ?? -1) - short
            let roomAfter = cellsAfter.map { cellBytes.capacity - $0.upperBound - short } ?? -1
            if roomBefore >= 0, before.count <= after.count || roomAfter < 0 {
                cellMove = -short - min(roomBefore, Self.cellSlack)
            } else if roomAfter >= 0 {
                cellMove = short + min(roomAfter, Self.cellSlack)
            } else {
                return nil
            }
        }
        let r = records.base
        var start = whole.lowerBound, end = whole.upperBound
        if grow != 0 {
            if movesBefore {
                memmove(r + before.lowerBound - grow, r + before.lowerBound, before.count * MemoryLayout<Record>.stride)
                start -= grow
            } else {
                memmove(r + after.lowerBound + grow, r + after.lowerBound, after.count * MemoryLayout<Record>.stride)
                end += grow
            }
        }
        let placed = (start + before.count)..<(start + before.count + new.count)
        let c = cellBytes.base
        if cellMove < 0, let b = cellsBefore {
            memmove(c + b.lowerBound + cellMove, c + b.lowerBound, b.count)
            shiftCells(r + start, placed.lowerBound - start, by: Int32(cellMove))
        } else if cellMove > 0, let a = cellsAfter {
            memmove(c + a.lowerBound + cellMove, c + a.lowerBound, a.count)
            shiftCells(r + placed.upperBound, end - placed.upperBound, by: Int32(cellMove))
        }
        // The new records and their cells.
        let at = gapBelow || cellsAfter == nil ? low + min(cellMove, 0) : high + max(cellMove, 0) - needed
        let shift = Int32(at - (cellsNew?.lowerBound ?? 0))
        if let n = cellsNew { memcpy(c + at, source.cellBytes.base + n.lowerBound, needed) }
        var cellEnd = at + needed
        if let b = cellsBefore { cellEnd = max(cellEnd, b.upperBound + min(cellMove, 0)) }
        if let a = cellsAfter { cellEnd = max(cellEnd, a.upperBound + max(cellMove, 0)) }
        // The new records copied as one block, then their cell offsets shifted in place: a loop
        // that loads and stores each record field by field cost about 20 instructions a record,
        // and a joined frame splices a thousand or more (its rows' far sides included).
        copyBlock(r + placed.lowerBound, source.records.base + new.lowerBound, new.count)
        if shift != 0 { shiftCells(r + placed.lowerBound, new.count, by: shift) }
        records.reclaim(upTo: end)
        cellBytes.reclaim(upTo: cellEnd)
        fillStarts[0] = start
        fillStarts[1] = end
        return placed
    }

    /// The records of fill `f` (empty past the last fill).
    func fill(_ f: Int) -> Range<Int> {
        f < fillCount ? fillStarts[f]..<fillStarts[f + 1] : 0..<0
    }
}

/// Records the rasterizer's output for one fill, coverage scaled by the fill's alpha.
///
/// It reaches the two buffers through `Unmanaged` references used as guaranteed (their
/// ``CoverageRows`` keeps them alive while the rasterizer runs): a strong or even an
/// `unowned(unsafe)` reference was retained and released around every span and cell run, a
/// quarter of a warm arrow frame.
private struct RowRecorder: CoverageSink {
    let records: Unmanaged<ScratchArray<CoverageRows.Record>>
    let cellBytes: Unmanaged<ScratchArray<UInt8>>
    let scale: UInt32

    init(rows: CoverageRows, scale: UInt32) {
        records = .passUnretained(rows.records)
        cellBytes = .passUnretained(rows.cellBytes)
        self.scale = scale
    }

    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
        let c = scale == 255 ? coverage : UInt8(PixelMath.mul(UInt32(coverage), scale))
        guard c != 0 else { return }
        // Rows and columns of a target lie inside Int32.
        records._withUnsafeGuaranteedRef {
            $0.append(.init(y: Int32(truncatingIfNeeded: y), x: Int32(truncatingIfNeeded: x), count: Int32(truncatingIfNeeded: count),
                            cells: -1, coverage: c))
        }
    }

    /// A run is a few cells: its bytes go as whole words, up to 7 past its end on both sides
    /// (the rasterizer's buffer may be read that far; bytes past `cellBytes`' count are never
    /// read), where there is room, not through a copy call (a third of the run's cost).
    @inline(__always)
    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let scale = scale, n = coverage.count
        let start = cellBytes._withUnsafeGuaranteedRef { bytes in
            let start = bytes.count
            if scale == 255 && start &+ n &+ 8 <= bytes.capacity {
                let from = UnsafeRawPointer(coverage.baseAddress!), to = UnsafeMutableRawPointer(bytes.base + start)
                var i = 0
                repeat {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                    i &+= 8
                } while i < n
                bytes.reclaim(upTo: start &+ n)
            } else if scale == 255 {
                bytes.append(from: coverage.baseAddress!, count: n)
            } else {
                for c in coverage { bytes.append(UInt8(PixelMath.mul(UInt32(c), scale))) }
            }
            return start
        }
        records._withUnsafeGuaranteedRef {
            $0.append(.init(y: Int32(truncatingIfNeeded: y), x: Int32(truncatingIfNeeded: x), count: Int32(truncatingIfNeeded: n),
                            cells: Int32(truncatingIfNeeded: start), coverage: 0))
        }
    }
}

/// Records the rasterizer's output for one fill's rows left of each row's cut column, and after
/// each row the records of the same row from that column on from last update (`old`): the
/// records one rasterization of the whole width gives, when the two join (``joined``).
///
/// At the cut the row is between edges on both sides: nothing, or a span the new part ends there
/// and the old part continues, made one span again. What the rasterizer gives right of the cut
/// (edges it was not given, or cells past the clip) is dropped.
private struct JoiningRecorder: CoverageSink {
    var recorder: RowRecorder
    let records: Unmanaged<ScratchArray<CoverageRows.Record>>
    let cellBytes: Unmanaged<ScratchArray<UInt8>>
    let old: UnsafeMutablePointer<CoverageRows.Record>
    let oldCells: UnsafeMutablePointer<UInt8>
    let oldCellCapacity: Int
    let oldEnd: Int
    var oldIndex: Int
    let cuts: UnsafePointer<Int32>
    /// Where each row's records went (``RowJoin``), for the diff.
    let joins: UnsafeMutablePointer<RowJoin>
    let firstRow: Int
    /// The row whose old records are appended next, and where its new records start.
    var row: Int
    var rowStart: Int
    private(set) var joined = true

    init(rows: CoverageRows, scale: UInt32, old: CoverageRows, range: Range<Int>, cuts: UnsafePointer<Int32>,
         joins: UnsafeMutablePointer<RowJoin>, firstRow: Int) {
        recorder = RowRecorder(rows: rows, scale: scale)
        records = .passUnretained(rows.records)
        cellBytes = .passUnretained(rows.cellBytes)
        self.old = old.records.base
        oldCells = old.cellBytes.base
        oldCellCapacity = old.cellBytes.capacity
        oldEnd = range.upperBound
        oldIndex = range.lowerBound
        self.cuts = cuts
        self.joins = joins
        self.firstRow = firstRow
        row = firstRow
        rowStart = rows.records.count
    }

    @inline(__always)
    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
        if y != row { finish(before: y) }
        let cut = Int(cuts[y &- firstRow])
        guard x < cut else { return }
        recorder.span(y: y, x: x, count: min(count, cut &- x), coverage: coverage)
    }

    @inline(__always)
    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        if y != row { finish(before: y) }
        let cut = Int(cuts[y &- firstRow])
        guard x < cut else { return }
        // Cells across the cut: it is not between edges.
        if x &+ coverage.count > cut { joined = false; return }
        recorder.cells(y: y, x: x, coverage: coverage)
    }

    /// Appends the old records right of the column for every row before `end`.
    ///
    /// Once a row of the changed ones, so a few instructions count: the struct's fields are read
    /// into locals once a call, and a row's carried records and bytes are written in one pass
    /// after one check of room each, not appended one by one (that, with a copy call for the
    /// bytes, cost about what rasterizing the far side's edges would have).
    @inline(never)
    mutating func finish(before end: Int) {
        let old = old, oldEnd = oldEnd, oldCells = oldCells, oldCellCapacity = oldCellCapacity
        let cuts = cuts, joins = joins, firstRow = firstRow
        var row = row, oldIndex = oldIndex, rowStart = rowStart, joined = joined
        defer {
            self.row = row
            self.oldIndex = oldIndex
            self.rowStart = rowStart
            self.joined = joined
        }
        records._withUnsafeGuaranteedRef { records in
            cellBytes._withUnsafeGuaranteedRef { cellBytes in
                var count = records.count
                while row < end {
                    let right = cuts[row &- firstRow], y = Int32(truncatingIfNeeded: row)
                    while oldIndex < oldEnd && old[oldIndex].y < y { oldIndex &+= 1 }
                    let oldStart = oldIndex
                    // The row's old records left of the column, and the one reaching across it.
                    var k = oldIndex
                    while k < oldEnd && old[k].y == y && old[k].x &+ old[k].count <= right { k &+= 1 }
                    // The row's last new span reaching the column continues right of it (cells
                    // ending there are followed by a gap, or nothing).
                    var open = -1
                    if count > rowStart {
                        let last = records.base[count &- 1]
                        if last.cells < 0 && last.x &+ last.count == right { open = count &- 1 }
                    }
                    if k < oldEnd && old[k].y == y && old[k].x < right {
                        let r = old[k]
                        if open >= 0, r.cells < 0, records.base[open].coverage == r.coverage {
                            records.base[open].count = r.x &+ r.count &- records.base[open].x
                        } else {
                            joined = false
                        }
                        k &+= 1
                    } else if open >= 0 {
                        joined = false
                    }
                    var e = k
                    while e < oldEnd && old[e].y == y { e &+= 1 }
                    oldIndex = e
                    joins[row &- firstRow] = RowJoin(oldStart: Int32(truncatingIfNeeded: oldStart), oldCarried: Int32(truncatingIfNeeded: k),
                                                     oldEnd: Int32(truncatingIfNeeded: e), newStart: Int32(truncatingIfNeeded: rowStart),
                                                     newCarried: Int32(truncatingIfNeeded: count),
                                                     newEnd: Int32(truncatingIfNeeded: count &+ (e &- k)))
                    // The rest of the row, with its cells (one run, in the records' order, from
                    // the first record's with cells to the last's), shifted on the way.
                    if k < e {
                        let n = e &- k
                        if count &+ n > records.capacity { records.reserve(count &+ n) }
                        let to = records.base + count
                        var shift: Int32 = 0, cellLow = -1, cellHigh = 0
                        for i in 0..<n {
                            var r = old[k &+ i]
                            if r.cells >= 0 {
                                if cellLow < 0 {
                                    cellLow = Int(r.cells)
                                    shift = Int32(truncatingIfNeeded: cellBytes.count &- cellLow)
                                }
                                cellHigh = Int(r.cells) &+ Int(r.count)
                                r.cells &+= shift
                            }
                            to[i] = r
                        }
                        count &+= n
                        records.reclaim(upTo: count)
                        if cellLow >= 0 {
                            let m = cellHigh &- cellLow, at = cellBytes.count
                            let from = oldCells + cellLow
                            // Up to 16 bytes as two words, past the run's end on both sides where
                            // the buffers have room: bytes past a buffer's count are never read.
                            if m <= 16 && cellLow &+ 16 <= oldCellCapacity && at &+ 16 <= cellBytes.capacity {
                                let source = UnsafeRawPointer(from), target = UnsafeMutableRawPointer(cellBytes.base + at)
                                target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
                                target.storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                            } else {
                                cellBytes.reserve(at &+ m)
                                (cellBytes.base + at).update(from: from, count: m)
                            }
                            cellBytes.reclaim(upTo: at &+ m)
                        }
                    }
                    row &+= 1
                    rowStart = count
                }
            }
        }
    }
}

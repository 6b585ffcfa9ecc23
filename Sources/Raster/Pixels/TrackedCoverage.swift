// TrackedCoverage: a shape's coverage kept in an 8-bit mask from frame to frame, rewritten only
// where it changed, reporting the changed pixels as bands.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The coverage of a ``FillRecording`` (the union of its fills, each scaled by its colour's
/// alpha) held in an ``AlphaMask`` the size of the target, across frames.
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
    private var current = CoverageRows()
    private var next = CoverageRows()
    /// The changed columns of each row this update: lo ..< hi (lo >= hi when unchanged).
    private var changedLo: [Int32]
    private var changedHi: [Int32]
    private let rasterizer = Rasterizer()

    /// Rows per reported band: finer bands damage fewer pixels, coarser ones fewer rectangles.
    static let bandRows = 16

    /// Creates empty coverage for a `width`×`height` target.
    package init(width: Int, height: Int) throws(BitmapError) {
        mask = try AlphaMask(width: width, height: height)
        changedLo = Array(repeating: 0, count: height)
        changedHi = Array(repeating: 0, count: height)
    }

    /// Replaces the coverage with `recording`'s fills mapped by `transform`, multiplied by
    /// `alpha` (0...255) and clipped to `clip`, and calls `changed` with rectangles covering every
    /// pixel whose coverage changed.
    package func update(_ recording: FillRecording?, transform: Transform, alpha: UInt32, clip: IntRect,
                        changed: (IntRect) -> Void) {
        next.removeAll()
        next.alpha = alpha
        let bounds = clip.intersection(mask.bounds)
        if let recording, alpha > 0, !bounds.isEmpty {
            for i in recording.fills.indices {
                let fill = recording.fills[i]
                let scale = fill.color >> 24
                next.beginFill()
                guard scale > 0 else { continue }
                rasterizer.begin(clip: bounds)
                rasterizer.add(recording.paths[i], transform: transform)
                var sink = RowRecorder(rows: next, scale: scale)
                rasterizer.render(rule: fill.rule, into: &sink)
            }
        }
        next.endFill()
        // Which columns of which rows differ, fill by fill.
        var firstRow = Int.max, lastRow = Int.min
        // A new overall alpha changes every covered pixel.
        let everything = current.alpha != next.alpha
        for f in 0..<max(current.fillCount, next.fillCount) {
            diff(current.fill(f), next.fill(f), everything: everything) { y, lo, hi in
                if y < firstRow { firstRow = y }
                if y > lastRow { lastRow = y }
                if changedLo[y] >= changedHi[y] {
                    changedLo[y] = Int32(lo)
                    changedHi[y] = Int32(hi)
                } else {
                    changedLo[y] = min(changedLo[y], Int32(lo))
                    changedHi[y] = max(changedHi[y], Int32(hi))
                }
            }
        }
        swap(&current, &next)
        guard firstRow <= lastRow else { return }
        // Rewrite the changed runs from the new records, and report them band by band.
        var cursors = FillCursors(rows: current)
        var band = IntRect(x: 0, y: 0, width: 0, height: 0)
        var bandStart = firstRow
        for y in firstRow...lastRow {
            if y - bandStart >= Self.bandRows {
                if !band.isEmpty { changed(band) }
                band = IntRect(x: 0, y: 0, width: 0, height: 0)
                bandStart = y
            }
            let lo = Int(changedLo[y]), hi = Int(changedHi[y])
            guard lo < hi else { continue }
            changedLo[y] = 0
            changedHi[y] = 0
            rewrite(row: y, from: lo, to: hi, cursors: &cursors)
            let r = IntRect(x: lo, y: y, width: hi - lo, height: 1)
            band = band.isEmpty ? r : band.union(r)
        }
        if !band.isEmpty { changed(band) }
    }

    /// Clears columns `lo ..< hi` of row `y` and writes the union of the current fills there.
    private func rewrite(row y: Int, from lo: Int, to hi: Int, cursors: inout FillCursors) {
        let p = mask.row(y)
        (p + lo).update(repeating: 0, count: hi - lo)
        var wrote = false
        for f in 0..<current.fillCount {
            let range = cursors.row(y, ofFill: f, in: current)
            for r in range {
                let record = current.records[r]
                let x0 = max(lo, Int(record.x)), x1 = min(hi, Int(record.x) + Int(record.count))
                guard x0 < x1 else { continue }
                wrote = true
                if record.cells < 0 {
                    let c = record.coverage
                    for x in x0..<x1 { p[x] = MaskWriter.union(p[x], c) }
                } else {
                    current.cellBytes.withUnsafeBufferPointer { cells in
                        let base = Int(record.cells) - Int(record.x)
                        for x in x0..<x1 where cells[base + x] != 0 { p[x] = MaskWriter.union(p[x], cells[base + x]) }
                    }
                }
            }
        }
        guard wrote else { return }
        // The owner's alpha scales the union (group opacity), not each fill.
        let alpha = current.alpha
        if alpha < 255 { for x in lo..<hi { p[x] = UInt8(PixelMath.mul(UInt32(p[x]), alpha)) } }
        mask.noteWritten(IntRect(x: lo, y: y, width: hi - lo, height: 1))
    }

    /// Calls `changed(y, lo, hi)` for each row whose records differ between `old` and `new`,
    /// with the columns spanning the differing records of both.
    private func diff(_ old: Range<Int>, _ new: Range<Int>, everything: Bool, changed: (Int, Int, Int) -> Void) {
        let a = current.records, b = next.records
        var i = old.lowerBound, j = new.lowerBound
        while i < old.upperBound || j < new.upperBound {
            let ya = i < old.upperBound ? Int(a[i].y) : Int.max
            let yb = j < new.upperBound ? Int(b[j].y) : Int.max
            let y = min(ya, yb)
            var ie = i, je = j
            while ie < old.upperBound && Int(a[ie].y) == y { ie += 1 }
            while je < new.upperBound && Int(b[je].y) == y { je += 1 }
            // Common prefix and suffix of the two rows' records.
            var p = 0
            let na = ie - i, nb = je - j
            while !everything && p < na && p < nb && same(i + p, j + p) { p += 1 }
            if p < na || p < nb {
                var s = 0
                while !everything && s < na - p && s < nb - p && same(ie - 1 - s, je - 1 - s) { s += 1 }
                var lo = Int.max, hi = Int.min
                if p < na - s {
                    lo = Int(a[i + p].x)
                    hi = Int(a[ie - 1 - s].x + a[ie - 1 - s].count)
                }
                if p < nb - s {
                    lo = min(lo, Int(b[j + p].x))
                    hi = max(hi, Int(b[je - 1 - s].x + b[je - 1 - s].count))
                }
                if lo < hi { changed(y, lo, hi) }
            }
            i = ie
            j = je
        }
    }

    /// Whether record `i` of the current frame equals record `j` of the next, cells included.
    private func same(_ i: Int, _ j: Int) -> Bool {
        let a = current.records[i], b = next.records[j]
        guard a.y == b.y, a.x == b.x, a.count == b.count, (a.cells < 0) == (b.cells < 0) else { return false }
        if a.cells < 0 { return a.coverage == b.coverage }
        return current.cellBytes.withUnsafeBufferPointer { ca in
            next.cellBytes.withUnsafeBufferPointer { cb in
                memcmp(ca.baseAddress! + Int(a.cells), cb.baseAddress! + Int(b.cells), Int(a.count)) == 0
            }
        }
    }
}

/// One frame's coverage as records in raster order, fill after fill.
final class CoverageRows {
    struct Record {
        var y: Int32, x: Int32, count: Int32
        /// Where the run's cell values start in `cellBytes`, or −1 for a constant span.
        var cells: Int32
        var coverage: UInt8
    }

    var records: [Record] = []
    var cellBytes: [UInt8] = []
    /// Where each fill's records start; the last entry ends the last fill.
    var fillStarts: [Int] = []
    /// The alpha (0...255) the union of the fills is multiplied by.
    var alpha: UInt32 = 255

    var fillCount: Int { max(0, fillStarts.count - 1) }

    func removeAll() {
        records.removeAll(keepingCapacity: true)
        cellBytes.removeAll(keepingCapacity: true)
        fillStarts.removeAll(keepingCapacity: true)
    }

    func beginFill() { fillStarts.append(records.count) }

    func endFill() { fillStarts.append(records.count) }

    /// The records of fill `f` (empty past the last fill).
    func fill(_ f: Int) -> Range<Int> {
        f < fillCount ? fillStarts[f]..<fillStarts[f + 1] : 0..<0
    }
}

/// Walks each fill's records row by row, for rows visited in increasing order.
struct FillCursors {
    private var positions: [Int] = []

    init(rows: CoverageRows) {
        positions.reserveCapacity(rows.fillCount)
        for f in 0..<rows.fillCount { positions.append(rows.fill(f).lowerBound) }
    }

    /// The records of row `y` in fill `f`.
    mutating func row(_ y: Int, ofFill f: Int, in rows: CoverageRows) -> Range<Int> {
        let end = rows.fill(f).upperBound
        var i = positions[f]
        while i < end && Int(rows.records[i].y) < y { i += 1 }
        var e = i
        while e < end && Int(rows.records[e].y) == y { e += 1 }
        positions[f] = i
        return i..<e
    }
}

/// Records the rasterizer's output for one fill, coverage scaled by the fill's alpha.
private struct RowRecorder: CoverageSink {
    let rows: CoverageRows
    let scale: UInt32

    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
        let c = UInt8(PixelMath.mul(UInt32(coverage), scale))
        guard c != 0 else { return }
        rows.records.append(.init(y: Int32(y), x: Int32(x), count: Int32(count), cells: -1, coverage: c))
    }

    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let start = rows.cellBytes.count
        if scale == 255 {
            rows.cellBytes.append(contentsOf: coverage)
        } else {
            for c in coverage { rows.cellBytes.append(UInt8(PixelMath.mul(UInt32(c), scale))) }
        }
        rows.records.append(.init(y: Int32(y), x: Int32(x), count: Int32(coverage.count), cells: Int32(start), coverage: 0))
    }
}

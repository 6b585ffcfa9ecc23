// Rasterizer: exact-area anti-aliased scan conversion of flattened paths.
//
// Design. Edges (line segments in device pixels) add *signed area* into a dense Float
// accumulation buffer, as in font-rs and stb_truetype v2: for each pixel row an edge crosses,
// each cell it touches receives the part of the edge's signed height `dy` (down = +1) that lies
// to the right of the edge within that cell, and the next cell the remainder. A prefix sum along
// the row then gives, for every pixel, the integral over the pixel of the winding number: the
// pixel-average winding. The fill rule is applied to that value: non-zero takes
// min(1, |w|), even-odd folds |w| into a triangle wave (0 → 1 → 0 over each 2).
//
// This is exactly the quantity FreeType's "grays" and cairo's scan converters compute per cell
// (accumulated cover plus the cell's own area) and apply the rule to, so the winding rules
// agree with theirs: pixels wholly inside a region of winding 2 are full under non-zero and empty
// under even-odd, overlapping subpaths and a pentagram's centre come out right, and one path of
// adjoining pieces (Skia's `daa` two triangles) leaves no seam because the areas of shared
// edges cancel before the rule is applied. As in every cell-based rasterizer, a pixel crossed by
// edges of two overlapping subpaths sees the average winding, not the area of the union.
//
// Sparsity. Each (edge, row) pair records the interval of cells it wrote (in a table by the
// edge's rank in x when the band's edges are long, else in a list per row). After all edges of a
// band are in, each row's intervals are sorted and merged: only cells inside intervals are read
// (prefix-summed, cleared and emitted as per-pixel coverage); between intervals the running
// winding is constant, so the gap is emitted as one solid span, or skipped when its coverage is
// zero. A ring's hole and the inside of a large shape are never swept pixel by pixel.
//
// Clipping. Geometry is clipped in double precision before it becomes Float: edges wholly above
// or below the clip are dropped, and the others keep their ends, in device rows, cut only at a
// fixed window far outside any bitmap; only the rows inside the clip are accumulated. Columns
// work alike: the cells span the target's columns, not the clip's, edges are split only at the
// target's sides (the outside part moved onto them) and those wholly right of the clip dropped,
// x is measured from the target's column 0, and a row's runs left of the clip are summed (not
// emitted) as drawing without the clip sums them. So every cell, and the winding entering the
// clip, is the float drawing the whole target makes, and the pixels inside the clip do not
// depend on where its sides are: a frame drawn as bands of rows or damage rectangle by damage
// rectangle has the pixels of one drawn whole (ClipIndependenceTests). Non-finite points are
// dropped, so the buffers are only ever indexed inside [0, width + 1] × band rows.
//
// Memory. The accumulation buffer covers a band of rows of the target's width (at most
// `maximumBandCells` cells); tall clips are processed band by band. Every buffer is a
// ScratchArray owned by the rasterizer and reused, so a warm rasterizer allocates nothing.

import CLinux

/// Receives the rasterizer's output, row by row, left to right.
protocol CoverageSink {
    /// Columns `x ..< x + count` of row `y` are covered by `coverage` (1...255).
    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8)
    /// Columns `x ..< x + coverage.count` of row `y` have the given coverages (0...255 each).
    /// The buffer may be read (not relied on) up to 7 bytes past its end.
    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>)
    /// Nothing more will be emitted above row `y` (sent between the bands of two shapes
    /// rendered together, before the second shape draws over those rows).
    mutating func rowsDone(before y: Int)
    /// The pixels, their stride and the colour, when all the sink does with cells is blend one
    /// solid colour over the pixels by source-over at each cell's coverage, and the AVX2 kernels
    /// may run: the rasterizer then sweeps a run of non-zero cells and blends it in one pass
    /// (CLinux_sweep_solid_over_avx2) instead of handing the run's coverage to ``cells(y:x:coverage:)``.
    var solidOverTarget: (pixels: UnsafeMutablePointer<UInt32>, stride: Int, color: UInt32)? { get }
    /// When every pixel the sink writes is one of 256 by coverage, and the AVX2 kernels may run:
    /// row `y`'s pixels and that table, the sink having done everything left of column `x0` and
    /// taking columns `x0..<x1` as written (CLinux_sweep_row_lookup_avx2 writes them all).
    /// Nil (the default) to be given the row as spans and cells.
    mutating func lookupRow(y: Int, from x0: Int, to x1: Int) -> (pixels: UnsafeMutablePointer<UInt32>, table: UnsafePointer<UInt32>)?
    /// As ``lookupRow(y:from:to:)`` for all of `rows` at once: the sink having done everything
    /// before the first row's column `x0` and taking columns `x0..<x1` of every row as written
    /// (CLinux_sweep_band_lookup_avx2 writes them all, a row with no runs as `table[0]`), the
    /// first row's pixels, the pixels a row and the table. Nil (the default) to be asked row by row.
    mutating func lookupRows(_ rows: Range<Int>, from x0: Int, to x1: Int)
        -> (pixels: UnsafeMutablePointer<UInt32>, stride: Int, table: UnsafePointer<UInt32>)?
}

extension CoverageSink {
    mutating func rowsDone(before y: Int) {}
    var solidOverTarget: (pixels: UnsafeMutablePointer<UInt32>, stride: Int, color: UInt32)? { nil }
    mutating func lookupRow(y: Int, from x0: Int, to x1: Int) -> (pixels: UnsafeMutablePointer<UInt32>, table: UnsafePointer<UInt32>)? {
        nil
    }
    mutating func lookupRows(_ rows: Range<Int>, from x0: Int, to x1: Int)
        -> (pixels: UnsafeMutablePointer<UInt32>, stride: Int, table: UnsafePointer<UInt32>)? {
        nil
    }
}

/// Turns paths into per-pixel coverage inside a clip rectangle. Reuse one instance per thread.
final class Rasterizer {
    /// A line segment, x in pixels from the cells' first column (the target's) and y in device
    /// rows, top to bottom; `direction` is +1 when it went down.
    struct Edge {
        var x0: Float, y0: Float, x1: Float, y1: Float, direction: Float
        /// The edge's column in the band's table of runs, when it has one.
        var rank: Int32 = 0
    }

    /// Accumulation cells `x0...x1` of one row (x0 < 0: none). CLinux_sweep_row_solid_over_avx2
    /// reads a row's list of them as pairs of Int32 (RasterizerTests checks the layout).
    struct Cells {
        var x0: Int32, x1: Int32
    }

    /// An edge of the band, by its index, and its x at the band's middle.
    struct RankedEdge {
        var x: Float, index: Int32
    }

    /// A run of accumulation cells `x0...x1` written in one row, linked to the row's previous run.
    struct Run {
        var next: Int32, x0: Int32, x1: Int32
    }

    /// The most Float cells in one band (256 KiB, about 34 rows of a 1080p frame). Small enough
    /// that the band's cells stay in the L2 cache between accumulating the edges and sweeping
    /// the rows: with the whole frame as one band (8 MiB), nearly every (edge, row) cell touched
    /// missed the cache twice, which made the rays frame (50 edges a row over 1080 rows) about
    /// twice as slow. Each band reads the edge list once more, which costs little.
    static let maximumBandCells = 1 << 16
    /// How far, in device pixels, flattened curves may stray from the true curve when filled
    /// (the bound). A chord lies inside a convex curve, and where an edge runs nearly
    /// along a pixel row the whole deviation becomes coverage. Measured on the arrow sweep against
    /// the same arrow flattened to 0.001 px (exact polygon coverage): 0.1 px is off by up to
    /// 25/255 along the top of the ring; 0.02 px by at most 7/255 (cairo 1.16 there: 62/255), for
    /// about twice the segments and 10% more fill time. Lowering it changes every golden image
    /// drawn with curves, so it is a project-wide decision.
    static let flatteningTolerance = 0.1

    /// Rows with more runs than this are swept as one interval instead of sorting the runs.
    static let maximumSortedRuns = 48

    /// The most edges in a band whose runs go into a table by rank (a larger table, at least
    /// half full, would be written and read over more than the cache keeps).
    static let maximumRankedEdges = 256

    private let edges = ScratchArray<Edge>(capacity: 256)
    /// The band's cells, between ``cellLeadIn`` and ``cellTail`` cells that stay zero.
    private let accumulation = ScratchArray<Float>(capacity: 0)
    /// Cells of zeros before a band's first row: the AVX2 sweeps clear the end of a run with one
    /// store of eight cells, which may reach back over zeros before the row.
    private static let cellLeadIn = 8
    /// Cells of zeros after a band's last row: the AVX2 accumulation adds +0 to cells past a
    /// row's part of an edge (the third of a part in one cell, the rest of a group of eight),
    /// up to five past the row's last.
    private static let cellTail = 8
    /// The band's first cell.
    private var cellBase: UnsafeMutablePointer<Float> { accumulation.base + Self.cellLeadIn }
    private let rowHead = ScratchArray<Int32>(capacity: 64)
    private let runs = ScratchArray<Run>(capacity: 1024)
    private let rowRuns = ScratchArray<Cells>(capacity: 64)
    private let active = ScratchArray<RankedEdge>(capacity: 256)
    private let cellTable = ScratchArray<Cells>(capacity: 0)
    private let coverage = ScratchArray<UInt8>(capacity: 256)

    /// Whether the AVX2 loops (CLinux) accumulate edges into a band's table of runs.
    var usesAVX2 = Kernels.hasAVX2
    /// Whether a band's table of runs is gathered and swept in one CLinux call when the sink
    /// takes whole AVX2 rows (off: row by row, for tests, the same pixels).
    var sweepsWholeBands = true

    /// The pixels emitted.
    private var clip = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The device column of the cells' column 0 and how many columns the cells cover: the
    /// target's, whatever the clip's, so each cell and each running sum of a row is the float
    /// drawing without the clip makes (``begin(clip:targetWidth:)``).
    private var cellsX = 0, cellsWidth = 0
    /// The clip's columns as cells: cells `emitStart ..< emitEnd` are emitted.
    private var emitStart = 0, emitEnd = 0
    /// Whether an edge added since ``begin(clip:targetWidth:)`` makes cells left of the clip,
    /// which the Swift sweep must sum before the clip's first column: most clipped shapes have
    /// none (the arrow's tracked coverage, clipped to its layer), and their rows skip the search.
    private var hasCellsLeftOfClip = false
    private var cellStride: Int { cellsWidth + 2 }
    private var subpathStart: Point?
    private var current: Point?
    private var minY = Float.infinity, maxY = -Float.infinity

    /// Each row's column from which edges may be dropped (``dropEdges(rightOf:rows:)``), or nil.
    private var cuts: UnsafePointer<Int32>?
    private var cutRows = 0..<0
    /// The rightmost of those columns.
    private var cutsEnd = 0

    /// Starts a new shape, clipped to `clip` (device pixels), on a target `targetWidth` pixels
    /// wide: the cells span the target's columns, so the pixels inside the clip do not depend on
    /// where its sides are.
    func begin(clip: IntRect, targetWidth: Int) {
        self.clip = clip
        cellsX = min(0, clip.x)
        cellsWidth = max(targetWidth, clip.maxX) - cellsX
        emitStart = clip.x - cellsX
        emitEnd = clip.maxX - cellsX
        hasCellsLeftOfClip = false
        cuts = nil
        edges.removeAll()
        subpathStart = nil
        current = nil
        minY = .infinity
        maxY = -.infinity
    }

    /// Until the next ``begin(clip:targetWidth:)``, drops each segment added that lies a pixel or
    /// more right of `cuts[y - rows.lowerBound]` in every row `y` of `rows` it crosses: it makes
    /// no cell at or left of those columns, so the coverage left of them is the same without it
    /// (what the sink is given right of them is not).
    func dropEdges(rightOf cuts: UnsafePointer<Int32>, rows: Range<Int>) {
        self.cuts = cuts
        cutRows = rows
        cutsEnd = 0
        for i in 0..<rows.count { cutsEnd = max(cutsEnd, Int(cuts[i])) }
    }

    /// Whether no edge has been added since ``begin(clip:targetWidth:)``.
    var isEmpty: Bool { edges.count == 0 }

    /// Adds `path` mapped by `transform` and flattened within `tolerance` device pixels.
    func add(_ path: Path, transform: Transform, tolerance: Double = Rasterizer.flatteningTolerance) {
        path.forEachFlattened(transform: transform, tolerance: tolerance, droppingAbove: Double(clip.y),
                              below: Double(clip.maxY), rightOf: Double(clip.maxX)) { element in
            switch element {
            case let .move(p): move(to: p)
            case let .line(p): line(to: p)
            case .close: closeSubpath()
            }
        }
        closeSubpath()
    }

    /// Adds the segments of fill `fill` of `segments` (a valid list, the path's segments under
    /// the transform it was recorded with): the edges ``add(_:transform:tolerance:)`` makes of
    /// that path, in the same order, so the cells add up to the same floats, without visiting
    /// the segments lying wholly above or below the clip's rows (most of a long arc's pieces when
    /// a partial update's clip is a few rows): each would make a line from its start to its end
    /// (a curve dropped there comes as one), which ``addSegment(_:_:)`` drops with no other effect.
    func add(_ segments: PathSegments, fill: Int, tolerance: Double = Rasterizer.flatteningTolerance) {
        let tol = Path.usableTolerance(tolerance)
        // forEachFlattened's margins, which are within addSegment's rows.
        let top = Double(clip.y) - 1e-3, bottom = Double(clip.maxY) + 1e-3, right = Double(clip.maxX) + 1e-3
        segments.forEachSegment(ofFill: fill, reaching: top, bottom) { degree, p0, p1, p2, p3 in
            if degree == 1 || Path.liesOutside(p0, p1, p2, p3, top: top, bottom: bottom, right: right) {
                addSegment(p0, p3)
                return
            }
            var from = p0
            if degree == 2 {
                Path.flattenQuadratic(p0, p1, p2, tolerance: tol) { addSegment(from, $0); from = $0 }
            } else {
                Path.flattenCubic(p0, p1, p2, p3, tolerance: tol) { addSegment(from, $0); from = $0 }
            }
        }
        subpathStart = nil
        current = nil
    }

    /// Starts a subpath, closing the previous one (fills close implicitly).
    func move(to p: Point) {
        guard p.x.isFinite, p.y.isFinite else { return }
        closeSubpath()
        subpathStart = p
        current = p
    }

    /// Adds a segment from the current point; a non-finite point is dropped.
    func line(to p: Point) {
        guard p.x.isFinite, p.y.isFinite else { return }
        guard let from = current else { move(to: p); return }
        addSegment(from, p)
        current = p
    }

    /// Closes the current subpath back to its start.
    func closeSubpath() {
        if let from = current, let start = subpathStart, from != start { addSegment(from, start) }
        current = subpathStart
    }

    /// Clips the device-space segment `a`–`b` to the clip's rows and splits it at the left and
    /// right sides of the cells (the target's, not the clip's: split at the clip's, its part
    /// inside would have other floats), keeping what can affect coverage inside the clip.
    private func addSegment(_ a: Point, _ b: Point) {
        guard a.y != b.y, !clip.isEmpty else { return }
        if let cuts, liesRight(of: cuts, a, b) { return }
        let top = Double(clip.y), bottom = Double(clip.maxY)
        let left = Double(cellsX), right = Double(cellsX + cellsWidth)
        let direction: Float = a.y < b.y ? 1 : -1
        var (p, q) = a.y < b.y ? (a, b) : (b, a)
        guard q.y > top, p.y < bottom else { return }
        let dxdy = (q.x - p.x) / (q.y - p.y)
        let windowTop = -Double(Bitmap.maximumSide), windowBottom = 2 * Double(Bitmap.maximumSide)
        if p.y < windowTop { p = Point(x: p.x + (windowTop - p.y) * dxdy, y: windowTop) }
        if q.y > windowBottom { q = Point(x: q.x - (q.y - windowBottom) * dxdy, y: windowBottom) }
        // Wholly right of the clip, it makes no cell left of the clip's right side.
        if p.x >= Double(clip.maxX) && q.x >= Double(clip.maxX) { return }
        if p.x <= left && q.x <= left {
            appendEdge(Point(x: left, y: p.y), Point(x: left, y: q.y), direction)
            return
        }
        // Most segments lie inside the cells' columns: nothing to split (the loop below would
        // append the same points, after a division and the tests for crossings).
        if p.x >= left && q.x >= left && p.x <= right && q.x <= right {
            appendEdge(p, q, direction)
            return
        }
        // Split at x = left and x = right where the segment crosses them.
        var cuts: (Double, Double) = (p.y, p.y)
        var cutCount = 0
        let dydx = (q.y - p.y) / (q.x - p.x)
        if (p.x - left) * (q.x - left) < 0 { cuts.0 = p.y + (left - p.x) * dydx; cutCount = 1 }
        if (p.x - right) * (q.x - right) < 0 {
            let y = p.y + (right - p.x) * dydx
            if cutCount == 0 { cuts.0 = y } else { cuts.1 = y }
            cutCount += 1
        }
        if cutCount == 2 && cuts.1 < cuts.0 { cuts = (cuts.1, cuts.0) }
        func pointAt(_ y: Double) -> Point { Point(x: min(right, max(left, p.x + (y - p.y) * dxdy)), y: y) }
        var from = Point(x: min(right, max(left, p.x)), y: p.y)
        for i in 0..<cutCount {
            let y = i == 0 ? cuts.0 : cuts.1
            let to = pointAt(y)
            appendEdge(from, to, direction)
            from = to
        }
        appendEdge(from, Point(x: min(right, max(left, q.x)), y: q.y), direction)
    }

    /// Whether the segment `a`–`b` lies a pixel or more right of the cut of every row of
    /// ``cutRows`` it crosses (and crosses one).
    private func liesRight(of cuts: UnsafePointer<Int32>, _ a: Point, _ b: Point) -> Bool {
        let low = max(Double(cutRows.lowerBound), min(a.y, b.y)), high = min(Double(cutRows.upperBound), max(a.y, b.y))
        guard low < high else { return false }
        let x = min(a.x, b.x)
        // Most such segments (the far side of a ring) lie right of every row's cut.
        if x >= Double(cutsEnd) + 1 { return true }
        var row = Int(low.rounded(.down))
        let end = Int(high.rounded(.up))
        while row < end {
            if x < Double(cuts[row - cutRows.lowerBound]) + 1 { return false }
            row += 1
        }
        return true
    }

    /// Appends a top-to-bottom, already clipped segment: x in device pixels, y in device rows.
    private func appendEdge(_ p: Point, _ q: Point, _ direction: Float) {
        let w = Float(cellsWidth)
        let y0 = Float(p.y), y1 = Float(q.y)
        guard y1 > y0, y1 > Float(clip.y), y0 < Float(clip.maxY) else { return }
        let x0 = min(w, max(0, Float(p.x - Double(cellsX))))
        let x1 = min(w, max(0, Float(q.x - Double(cellsX))))
        // Vertical parts lying on the cells' right side affect no visible column.
        if x0 >= w && x1 >= w { return }
        if min(x0, x1) < Float(emitStart) { hasCellsLeftOfClip = true }
        edges.append(Edge(x0: x0, y0: y0, x1: x1, y1: y1, direction: direction))
        minY = min(minY, y0)
        maxY = max(maxY, y1)
    }

    /// Whether the sweep makes the winding whole between runs (``wholeIfNear(_:)``): set by
    /// ``TrackedCoverage``, whose rows are joined from several rasterizations. Other fills keep
    /// the plain sum, which costs nothing per run (the rays scene's rows have fifty).
    var makesWindingsWhole = false

    /// Whether, in every row the last ``render(rule:into:)`` swept, the winding past the last
    /// edge was a whole number (a gap of full or no coverage reaching the clip's right side), and
    /// no edge reached that side. Only kept with ``makesWindingsWhole``.
    private(set) var endsOnWholeWinding = true

    /// Elements held by the rasterizer's scratch buffers (for tests: a warm rasterizer
    /// drawing a shape that turns or grows within its clip never grows them).
    var scratchCapacity: Int {
        edges.capacity + accumulation.capacity + rowHead.capacity + runs.capacity + rowRuns.capacity
            + active.capacity + cellTable.capacity + coverage.capacity
    }

    /// Converts the added edges to coverage under `rule` and hands it to `sink`, top to bottom.
    func render<Sink: CoverageSink>(rule: FillRule, into sink: inout Sink) {
        endsOnWholeWinding = true
        guard let rows = prepare() else { return }
        var bandStart = rows.lowerBound
        while bandStart < rows.upperBound {
            let bandEnd = min(rows.upperBound, bandStart + bandRows)
            renderBand(bandStart..<bandEnd, rule: rule, into: &sink)
            bandStart = bandEnd
        }
    }

    /// Renders two shapes on the same clip band by band, `first` before `second` in each band, so
    /// the second (a stroke over a fill) blends over pixels the first has just written, still in
    /// the cache. Every pixel is composited in the same order as rendering one shape whole and
    /// then the other, so the pixels are the same.
    static func render<First: CoverageSink, Second: CoverageSink>(
        _ first: Rasterizer, rule firstRule: FillRule, into firstSink: inout First,
        then second: Rasterizer, rule secondRule: FillRule, into secondSink: inout Second
    ) {
        precondition(first.clip == second.clip, "both shapes share one clip")
        let a = first.prepare(), b = second.prepare()
        guard let a else {
            // The first shape covers no row: whatever its sink holds back is complete first.
            firstSink.rowsDone(before: first.clip.maxY)
            second.render(rule: secondRule, into: &secondSink)
            return
        }
        guard let b else { first.render(rule: firstRule, into: &firstSink); return }
        // Bands on one grid from the clip's top, so both shapes' bands cover the same rows.
        let bandRows = first.bandRows, top = first.clip.y
        let start = min(a.lowerBound, b.lowerBound), end = max(a.upperBound, b.upperBound)
        var bandStart = top + (start - top) / bandRows * bandRows
        while bandStart < end {
            let bandEnd = bandStart + bandRows
            let fromA = max(bandStart, a.lowerBound), toA = min(bandEnd, a.upperBound)
            if fromA < toA { first.renderBand(fromA..<toA, rule: firstRule, into: &firstSink) }
            firstSink.rowsDone(before: min(bandEnd, end))
            let fromB = max(bandStart, b.lowerBound), toB = min(bandEnd, b.upperBound)
            if fromB < toB { second.renderBand(fromB..<toB, rule: secondRule, into: &secondSink) }
            bandStart = bandEnd
        }
    }

    /// Rows per band for the current clip (set by ``prepare()``).
    private var bandRows = 1
    /// The most rows in one band, however narrow the clip (set by the owner). A narrow clip
    /// otherwise makes tall bands, whose short edges cover too little of them for the table of
    /// runs: each run is linked into its row's list instead.
    var maximumBandRows = Int.max

    /// Sizes the buffers for the clip and returns the rows the edges touch, or `nil` for none.
    private func prepare() -> Range<Int>? {
        guard edges.count > 0 else { return nil }
        let firstRow = max(clip.y, Int(minY.rounded(.down)))
        let endRow = min(clip.maxY, Int(maxY.rounded(.up)))
        guard endRow > firstRow else { return nil }
        // Sized by the clip, not the shape, so a growing shape does not regrow the buffer each frame.
        bandRows = max(1, min(clip.height, Self.maximumBandCells / cellStride, maximumBandRows))
        // A clip taller than one band takes the most cells a band may have, whatever its width:
        // a narrower clip later (a tracked mask's partial update) then needs no bigger buffer.
        let bandCells = bandRows * cellStride
        accumulation.ensureFilled(Self.cellLeadIn + (bandRows < clip.height ? max(bandCells, Self.maximumBandCells) : bandCells)
                                  + Self.cellTail, with: 0)
        rowHead.reserve(bandRows)
        // The table of runs by rank, for a band of this clip's rows and at least 16 edges (every
        // rectangle, rotated image and simple shape), up to half the accumulation's bytes: sized
        // by the clip, so a shape that turns or grows (a band holding more of its rows) does not
        // regrow it mid-animation.
        cellTable.reserve(min(bandRows * min(Self.maximumRankedEdges, max(16, edges.count)), Self.maximumBandCells / 2))
        // Eight spare bytes: sinks may read a run's coverage in whole groups of eight.
        coverage.reserve(cellStride + 8)
        return firstRow..<endRow
    }

    /// Accumulates the edges crossing `rows` (at most one band) and sweeps those rows into `sink`.
    ///
    /// Each (edge, row) the edge crosses makes one run of cells, and a row's runs must be swept
    /// in order of x. When the band's edges are mostly long (the rays: every edge crosses nearly
    /// every row), each edge gets a column ranked by its x at the band's middle and its runs go
    /// into a rows × columns table: each row's runs then come almost in order of x, read from one
    /// place, and sort in about one pass. Many short edges (text, Lottie) would leave such a
    /// table mostly empty; their runs go into a linked list per row instead. The edges are
    /// accumulated in the same order either way, so the cells add up to the same floats.
    private func renderBand<Sink: CoverageSink>(_ rows: Range<Int>, rule: FillRule, into sink: inout Sink) {
        let cellStride = self.cellStride
        let bandStart = rows.lowerBound, bandEnd = rows.upperBound
        let rowCount = bandEnd - bandStart
        let top = Float(bandStart), bottom = Float(bandEnd), middle = 0.5 * (top + bottom)
        // The band's edges and their x at the middle row (or the nearest end), and roughly
        // how many (edge, row) runs they make.
        active.removeAll()
        var covered: Float = 0
        for i in 0..<edges.count {
            let e = edges[i]
            if e.y1 <= top || e.y0 >= bottom { continue }
            covered += min(bottom, e.y1) - max(top, e.y0)
            let y = min(e.y1, max(e.y0, middle))
            active.append(RankedEdge(x: e.x0 + (y - e.y0) * ((e.x1 - e.x0) / (e.y1 - e.y0)), index: Int32(i)))
        }
        let columns = active.count
        // A table a quarter full or more: an empty slot costs a store when the table is reset
        // and a quarter of a four-slot gather, less than a run linked into a row's list, and
        // the table's long edges accumulate on AVX2. (At half full, the rays' band through
        // their centre, 16 long edges and the stroke's joins, took the list and the scalar
        // accumulation: 0.3 M instructions a frame for two bands of 64.)
        if columns <= Self.maximumRankedEdges && 4 * covered >= Float(columns * rowCount) {
            Self.insertionSort(active.base, count: active.count) { $0.x }
            for rank in 0..<columns { edges[Int(active[rank].index)].rank = Int32(rank) }
            cellTable.reset(count: rowCount * columns, to: Cells(x0: -1, x1: -1))
            let table = cellTable.base
            #if arch(x86_64)
            if usesAVX2 {
                for i in 0..<edges.count {
                    let e = edges[i]
                    if e.y1 <= top || e.y0 >= bottom { continue }
                    let inside = min(e.x0, e.x1) >= 1 && max(e.x0, e.x1) <= Float(cellsWidth) - 1
                    CLinux_accumulate_edge_avx2(cellBase, cellStride, bandStart, bandEnd, cellsWidth,
                                                e.x0, e.y0, e.x1, e.y1, e.direction, inside ? 0 : 1,
                                                UnsafeMutableRawPointer(table + Int(e.rank)).assumingMemoryBound(to: Int32.self), columns)
                }
            }
            #endif
            for i in 0..<edges.count where !usesAVX2 {
                let e = edges[i]
                if e.y1 <= top || e.y0 >= bottom { continue }
                let column = table + Int(e.rank)
                accumulate(e, bandStart: bandStart, bandEnd: bandEnd, cellStride: cellStride) { row, x0, x1 in
                    column[row &* columns] = Cells(x0: x0, x1: x1)
                }
            }
            #if arch(x86_64)
            if usesAVX2, sweepsWholeBands, sweepBand(rows, table: table, columns: columns, rule: rule, into: &sink) { return }
            #endif
            for row in bandStart..<bandEnd {
                let line = table + (row - bandStart) * columns
                let count = gatherRuns(line, columns: columns)
                guard count > 0 else { continue }
                sweep(row: row, bandStart: bandStart, cellStride: cellStride, runs: line, count: count, rule: rule, into: &sink)
            }
            return
        }
        rowHead.reset(count: rowCount, to: -1)
        runs.removeAll()
        for i in 0..<edges.count {
            let e = edges[i]
            if e.y1 <= top || e.y0 >= bottom { continue }
            accumulate(e, bandStart: bandStart, bandEnd: bandEnd, cellStride: cellStride) { row, x0, x1 in
                runs.append(Run(next: rowHead[row], x0: x0, x1: x1))
                rowHead[row] = Int32(runs.count - 1)
            }
        }
        for row in bandStart..<bandEnd {
            var r = rowHead[row - bandStart]
            guard r >= 0 else { continue }
            rowRuns.removeAll()
            var lo = Int32.max, hi = Int32.min
            while r >= 0 {
                let run = runs[Int(r)]
                lo = min(lo, run.x0); hi = max(hi, run.x1)
                if rowRuns.count < Self.maximumSortedRuns { rowRuns.append(Cells(x0: run.x0, x1: run.x1)) }
                r = run.next
            }
            let collected = rowRuns.count
            if collected >= Self.maximumSortedRuns {
                // Too many to sort cheaply: sweep the row's whole touched range.
                rowRuns.removeAll()
                rowRuns.append(Cells(x0: lo, x1: hi))
            } else {
                // The list holds the row's runs newest first. Edges added along a path often cross
                // a row in order of x, so the runs often come in reverse order: insertion sort's
                // worst case, made its best by turning the list around first.
                if collected > 1 && rowRuns[0].x0 > rowRuns[collected - 1].x0 { reverse(rowRuns) }
                Self.insertionSort(rowRuns.base, count: rowRuns.count) { $0.x0 }
            }
            sweep(row: row, bandStart: bandStart, cellStride: cellStride, runs: rowRuns.base, count: rowRuns.count, rule: rule, into: &sink)
        }
    }

    #if arch(x86_64)
    /// Gathers and sweeps every row of the band's table of runs in one CLinux call, when the rows
    /// go to an AVX2 sweep (the non-zero rule, plain sums, a sink that blends a solid colour or
    /// takes whole rows from a table): the calls ``gatherRuns(_:columns:)`` and ``sweep`` make
    /// for each row, without a call and the sink's checks a row. Returns false, having done
    /// nothing, otherwise.
    @inline(__always)
    private func sweepBand<Sink: CoverageSink>(_ rows: Range<Int>, table: UnsafeMutablePointer<Cells>, columns: Int,
                                               rule: FillRule, into sink: inout Sink) -> Bool {
        guard rule == .winding, !makesWindingsWhole else { return false }
        let runs = UnsafeMutableRawPointer(table).assumingMemoryBound(to: Int32.self)
        var reachedRight: Int32
        if let target = sink.solidOverTarget {
            reachedRight = CLinux_sweep_band_solid_over_avx2(cellBase, cellStride, runs, columns, rows.count, Self.maximumSortedRuns,
                                                             emitStart, emitEnd, target.pixels + rows.lowerBound * target.stride + cellsX,
                                                             target.stride, target.stride - cellsX, target.color)
        } else if let target = sink.lookupRows(rows, from: clip.x, to: clip.maxX) {
            reachedRight = CLinux_sweep_band_lookup_avx2(cellBase, cellStride, runs, columns, rows.count, Self.maximumSortedRuns,
                                                         emitStart, emitEnd, target.pixels + cellsX, target.stride, target.table)
        } else {
            return false
        }
        if reachedRight != 0 { endsOnWholeWinding = false }
        return true
    }
    #endif

    /// Gathers one row's runs of the band's table (`columns` of them, x0 < 0 where an edge has
    /// none in the row) to the front of `line` in rank order and sorts them by first cell, or,
    /// past ``maximumSortedRuns``, leaves one run spanning them all; returns how many the sweep
    /// reads. On AVX2 the CLinux loop does it (four runs to a register), with the same result.
    @inline(__always)
    func gatherRuns(_ line: UnsafeMutablePointer<Cells>, columns: Int) -> Int {
        #if arch(x86_64)
        if usesAVX2 {
            return CLinux_gather_runs_avx2(UnsafeMutableRawPointer(line).assumingMemoryBound(to: Int32.self),
                                           columns, Self.maximumSortedRuns)
        }
        #endif
        var count = 0
        var lo = Int32.max, hi = Int32.min
        for k in 0..<columns {
            let c = line[k]
            if c.x0 < 0 { continue }
            lo = min(lo, c.x0); hi = max(hi, c.x1)
            line[count] = c
            count += 1
        }
        if count >= Self.maximumSortedRuns {
            line[0] = Cells(x0: lo, x1: hi)
            return 1
        }
        Self.insertionSort(line, count: count) { $0.x0 }
        return count
    }

    /// Adds the signed area of `e` to the accumulation cells of the rows of this band it crosses
    /// (font-rs's `draw_line`, computed per row from the edge's ends so no error accumulates),
    /// and tells `record` each row's run of cells (row counted from the band's first).
    @inline(__always)
    private func accumulate(_ e: Edge, bandStart: Int, bandEnd: Int, cellStride: Int, record: (Int, Int32, Int32) -> Void) {
        // An edge a pixel or more inside the clip's columns stays inside them at every row (the
        // rounding of its x is far below a pixel), so its rows skip the clamps, with the same floats.
        if min(e.x0, e.x1) >= 1 && max(e.x0, e.x1) <= Float(cellsWidth) - 1 {
            accumulate(e, bandStart: bandStart, bandEnd: bandEnd, cellStride: cellStride, clamped: false, record: record)
        } else {
            accumulate(e, bandStart: bandStart, bandEnd: bandEnd, cellStride: cellStride, clamped: true, record: record)
        }
    }

    @inline(__always)
    private func accumulate(_ e: Edge, bandStart: Int, bandEnd: Int, cellStride: Int, clamped: Bool,
                            record: (Int, Int32, Int32) -> Void) {
        let dxdy = (e.x1 - e.x0) / (e.y1 - e.y0)
        let rowFirst = max(bandStart, Int(e.y0.rounded(.down)))
        let rowEnd = min(bandEnd, Int(e.y1.rounded(.up)))
        let maxX = Float(cellsWidth)
        var line = cellBase + (rowFirst - bandStart) * cellStride
        var row = rowFirst
        var top = max(Float(row), e.y0)
        var xTop = min(maxX, max(0, e.x0 + (top - e.y0) * dxdy))
        while row < rowEnd {
            let bottom = min(Float(row &+ 1), e.y1)
            let x = e.x0 + (bottom - e.y0) * dxdy
            let xBottom = clamped ? min(maxX, max(0, x)) : x
            // Rows run from floor(y0) to ceil(y1), so every row's part of the edge has a height.
            let d = (bottom - top) * e.direction
            // The next row, if the edge reaches it, starts where this one ends: its top is
            // `bottom` (= row + 1 > y0), so its xTop is this xBottom, the same float.
            defer {
                top = bottom
                xTop = xBottom
                line += cellStride
                row &+= 1
            }
            let (x0, x1) = xTop < xBottom ? (xTop, xBottom) : (xBottom, xTop)
            // x0 and x1 lie in 0...maxX, where truncating is flooring: no libm floorf/ceilf call
            // (the baseline x86-64 target has no rounding instruction) and no range check for
            // every edge and row.
            let x0i = Int(CLinux_truncate(x0))
            let x0floor = Float(x0i)
            let x1t = Int(CLinux_truncate(x1))
            let x1i = Float(x1t) < x1 ? x1t &+ 1 : x1t
            let x1ceil = Float(x1i)
            var last: Int
            if x1i <= x0i &+ 1 {
                // Within one cell: the part right of the edge's mean x stays in this cell.
                let xmf = 0.5 * (xTop + xBottom) - x0floor
                line[x0i] += d - d * xmf
                line[x0i &+ 1] += d * xmf
                last = x0i &+ 1
            } else {
                // Across cells: trapezoids, with a triangle at each end.
                let s = 1 / (x1 - x0)
                let x0f = x0 - x0floor
                let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
                let x1f = x1 - x1ceil + 1
                let am = 0.5 * s * x1f * x1f
                line[x0i] += d * a0
                if x1i == x0i &+ 2 {
                    line[x0i &+ 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - x0f)
                    line[x0i &+ 1] += d * (a1 - a0)
                    var xi = x0i &+ 2
                    let ds = d * s
                    while xi < x1i &- 1 { line[xi] += ds; xi &+= 1 }
                    let a2 = a1 + Float(x1i &- x0i &- 3) * s
                    line[x1i &- 1] += d * (1 - a2 - am)
                }
                line[x1i] += d * am
                last = x1i
            }
            // Cells lie in 0...width + 1 and rows in the band: no range checks.
            record(row &- bandStart, Int32(truncatingIfNeeded: x0i), Int32(truncatingIfNeeded: last))
        }
    }

    /// Prefix-sums one row's runs (sorted by first cell) into coverage, clears them, and emits
    /// the cells and gap spans inside the clip. The runs left of the clip are summed as drawing
    /// without the clip sums them, so the winding entering the clip is the same float (a run
    /// reaching into the clip is rewritten to start at its first column).
    @inline(__always)
    private func sweep<Sink: CoverageSink>(row: Int, bandStart: Int, cellStride: Int, runs rowRuns: UnsafeMutablePointer<Cells>,
                                           count runCount: Int, rule: FillRule, into sink: inout Sink) {
        let lo = emitStart, hi = emitEnd
        let y = row
        let line = cellBase + (row - bandStart) * cellStride
        #if arch(x86_64)
        if rule == .winding, !makesWindingsWhole {
            let runs = UnsafeMutableRawPointer(rowRuns).assumingMemoryBound(to: Int32.self)
            if let target = sink.solidOverTarget {
                let row = target.pixels + y * target.stride + cellsX, room = target.stride - cellsX
                if lo == 0 ? CLinux_sweep_row_solid_over_avx2(line, runs, runCount, hi, row, room, target.color) != 0
                    : CLinux_sweep_row_solid_over_from_avx2(line, runs, runCount, lo, hi, row, room, target.color) != 0 {
                    endsOnWholeWinding = false
                }
                return
            }
            if let target = sink.lookupRow(y: y, from: clip.x, to: clip.maxX) {
                let row = target.pixels + cellsX
                if lo == 0 ? CLinux_sweep_row_lookup_avx2(line, runs, runCount, hi, row, target.table) != 0
                    : CLinux_sweep_row_lookup_from_avx2(line, runs, runCount, lo, hi, row, target.table) != 0 {
                    endsOnWholeWinding = false
                }
                return
            }
        }
        #endif
        let out = coverage.base
        // Read once: the sink's calls between them might, as far as the compiler knows, change
        // them. Columns and run indices lie well inside Int: wrapping arithmetic.
        let cellsX = cellsX, makesWindingsWhole = makesWindingsWhole, hasCellsLeftOfClip = hasCellsLeftOfClip
        var winding: Float = 0
        var gapStart = lo
        var i = 0
        while i < runCount {
            var start = Int(rowRuns[i].x0)
            var end = Int(rowRuns[i].x1)
            i &+= 1
            while i < runCount && Int(rowRuns[i].x0) <= end &+ 1 {
                end = max(end, Int(rowRuns[i].x1))
                i &+= 1
            }
            if hasCellsLeftOfClip && start < lo {
                // Left of the clip: summed as drawing without the clip sums them (the winding
                // made whole after each run, as there), not emitted; a run reaching into the
                // clip goes on from its first column.
                for x in start...min(end, lo - 1) {
                    winding += line[x]
                    line[x] = 0
                }
                guard end >= lo else {
                    if makesWindingsWhole { winding = Self.wholeIfNear(winding) }
                    continue
                }
                start = lo
            }
            if start > gapStart {
                let c = Self.coverage(winding, rule)
                if c != 0 { sink.span(y: y, x: cellsX &+ gapStart, count: min(start, hi) &- gapStart, coverage: c) }
            }
            // One loop per rule, so the rule is not tested for every cell.
            switch rule {
            case .winding: winding = Self.sweepCells(line, start, end, winding, out, .winding)
            case .evenOdd: winding = Self.sweepCells(line, start, end, winding, out, .evenOdd)
            }
            let visibleEnd = min(end, hi &- 1)
            if visibleEnd >= start {
                sink.cells(y: y, x: cellsX &+ start, coverage: UnsafeBufferPointer(start: out, count: visibleEnd &- start &+ 1))
            }
            if makesWindingsWhole { winding = Self.wholeIfNear(winding) }
            gapStart = end &+ 1
            if gapStart >= hi { endsOnWholeWinding = false; break }
        }
        if makesWindingsWhole, winding != Float(CLinux_truncate(winding)) { endsOnWholeWinding = false }
        // A shape whose right side was clipped away still covers the rest of the row.
        if gapStart < hi {
            let c = Self.coverage(winding, rule)
            if c != 0 { sink.span(y: y, x: cellsX &+ gapStart, count: hi &- gapStart, coverage: c) }
        }
        // Runs past the clip still hold area: clear them so the buffer stays zero.
        while i < runCount {
            for x in Int(rowRuns[i].x0)...Int(rowRuns[i].x1) { line[x] = 0 }
            i += 1
        }
    }

    /// Prefix-sums cells `start...end` of `line` onto `winding`, clears them, and writes their
    /// coverages to `out`; returns the winding after them. The coverages go out eight to a
    /// 64-bit store (the last word's spare bytes zero; `out` has room for them): sinks read
    /// them eight at a time, and a wide load of bytes just stored one by one waits for the
    /// stores to reach the cache (a sixth of the stroke's compositing time in the rays scene).
    @inline(__always)
    private static func sweepCells(_ line: UnsafeMutablePointer<Float>, _ start: Int, _ end: Int, _ winding: Float,
                                   _ out: UnsafeMutablePointer<UInt8>, _ rule: FillRule) -> Float {
        var winding = winding
        var word: UInt64 = 0
        var filled = 0
        var o = UnsafeMutableRawPointer(out)
        for x in start...end {
            winding += line[x]
            line[x] = 0
            word = word &>> 8 | UInt64(coverage(winding, rule)) &<< 56
            filled &+= 1
            if filled == 8 {
                o.storeBytes(of: word, as: UInt64.self)
                o += 8
                word = 0
                filled = 0
            }
        }
        if filled > 0 { o.storeBytes(of: word &>> UInt64(64 - 8 * filled), as: UInt64.self) }
        return winding
    }

    /// `w` rounded to the nearest whole number when within 1/8192 of it (float error), else `w`.
    ///
    /// Past the last cell of an edge the exact winding is a sum of whole crossings, so usually a
    /// whole number; in float it is the sum of each edge's cell pieces, off by a few ulps that
    /// depend on where the edges cross the row. Made whole between runs, the coverage right of
    /// some edges does not depend on the rounding of the edges left of them: a row rasterized
    /// only up to a column between its runs joins the coverage right of that column from an
    /// earlier rasterization exactly (``TrackedCoverage``).
    @inline(__always)
    static func wholeIfNear(_ w: Float) -> Float {
        // |w| is at most the number of edges crossing the row, inside Int32.
        let k = Float(CLinux_truncate(w < 0 ? w - 0.5 : w + 0.5))
        return abs(w - k) < 1.0 / 8192 ? k : w
    }

    /// Reverses the order of a row's runs.
    @inline(__always)
    private func reverse(_ list: ScratchArray<Cells>) {
        var i = 0, j = list.count - 1
        while i < j {
            let t = list[i]
            list[i] = list[j]
            list[j] = t
            i += 1
            j -= 1
        }
    }

    /// Insertion sort of `count` elements at `list` by `key`: a band's edges come in nearly the
    /// order of the band before, and a row's runs are few or nearly sorted.
    @inline(__always)
    private static func insertionSort<Element, Key: Comparable>(_ list: UnsafeMutablePointer<Element>, count: Int,
                                                                 by key: (Element) -> Key) {
        var i = 1
        while i < count {
            let v = list[i]
            let k = key(v)
            var j = i - 1
            while j >= 0 && key(list[j]) > k { list[j + 1] = list[j]; j -= 1 }
            list[j + 1] = v
            i += 1
        }
    }

    /// The 8-bit coverage of a pixel whose average winding is `w`.
    @inline(__always)
    static func coverage(_ w: Float, _ rule: FillRule) -> UInt8 {
        var v = abs(w)
        switch rule {
        case .winding:
            v = min(1, v)
        case .evenOdd:
            // v >= 0, where truncating is flooring (no libm call per cell).
            v -= 2 * Float(CLinux_truncate(v * 0.5))
            if v > 1 { v = 2 - v }
        }
        return UInt8(truncatingIfNeeded: CLinux_truncate(v * 255 + 0.5))
    }
}

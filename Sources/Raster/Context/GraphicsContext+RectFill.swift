// GraphicsContext+RectFill: axis-aligned rectangles on fractional edges, covered analytically.
//
// A rectangle whose device image is axis-aligned (the CTM has b = c = 0) needs no scan
// conversion: the area of pixel (x, y) inside [x0, x1) × [y0, y1) is the product of the
// column's overlap with [x0, x1) and the row's overlap with [y0, y1). Each row is then at most
// three spans (the left edge pixel, the interior, the right edge pixel), each of one
// coverage, so the interior goes straight to the solid-span kernels. This is the coverage the
// rasterizer computes (exact area), without its edge list, accumulation buffer and sweep:
// for the 16×16 squares of a layer tree at fractional positions, about ten times less work.

extension GraphicsContext {
    /// Device coordinates beyond this are left to the rasterizer, which clips them exactly.
    private static let analyticLimit = 1e9

    /// Fills `rect` (user space) with `paint` by exact area coverage when the CTM keeps it
    /// axis-aligned; returns `false`, drawing nothing, when it does not (rotation, shear,
    /// non-finite or huge coordinates).
    func fillAxisAlignedRect(_ rect: Rect, paint: Paint) -> Bool {
        let t = state.ctm
        guard t.b == 0, t.c == 0 else { return false }
        let ax = rect.origin.x * t.a + t.tx, bx = (rect.origin.x + rect.size.width) * t.a + t.tx
        let ay = rect.origin.y * t.d + t.ty, by = (rect.origin.y + rect.size.height) * t.d + t.ty
        let limit = Self.analyticLimit
        guard abs(ax) < limit, abs(bx) < limit, abs(ay) < limit, abs(by) < limit else { return false }
        applyPendingClip()
        guard state.alpha > 0 || state.blendMode != .normal else { return true }
        // Clipping to the integer clip bounds changes no pixel inside them.
        let clip = state.clipBounds
        let x0 = max(min(ax, bx), Double(clip.x)), x1 = min(max(ax, bx), Double(clip.maxX))
        let y0 = max(min(ay, by), Double(clip.y)), y1 = min(max(ay, by), Double(clip.maxY))
        guard x1 > x0, y1 > y0 else { return true }
        let columns = RectCoverage(from: x0, to: x1)
        let rows = RectCoverage(from: y0, to: y1)
        let single = columns.end - columns.first == 1
        let interior = columns.end - columns.first - 2
        if case let .solid(color) = paint, state.clipMask == nil, state.blendMode == .normal {
            // The common case (a layer's background): straight into the rows, each coverage's
            // scaled colour prepared once for the whole rectangle.
            let alpha = compositingAlpha, source = color.premultipliedPixel
            if x0 == x0.rounded(.down), x1 == x1.rounded(.down), y0 == y0.rounded(.down), y1 == y1.rounded(.down),
               deferOpaqueFill(IntRect(x: columns.first, y: rows.first, width: columns.end - columns.first,
                                       height: rows.end - rows.first), pixel: source) {
                return true
            }
            flushPendingFill()
            var rowOverlap = -1.0
            var left = SolidBlend(source: 0, coverage: 0), middle = left, right = left
            for y in rows.first..<rows.end {
                let cy = rows.overlap(y)
                if cy != rowOverlap {
                    rowOverlap = cy
                    func blend(_ area: Double) -> SolidBlend {
                        SolidBlend(source: source, coverage: PixelMath.mul(UInt32(RectCoverage.coverage(area)), alpha))
                    }
                    left = blend((single ? columns.overlap(columns.first) : columns.firstOverlap) * cy)
                    middle = blend(cy)
                    right = blend(columns.lastOverlap * cy)
                }
                let row = bitmap.pixels + y * bitmap.stride + columns.first
                left.blend(row, count: 1)
                if single { continue }
                if interior > 0 { middle.blend(row + 1, count: interior) }
                right.blend(row + interior + 1, count: 1)
            }
            return true
        }
        var sink = compositor(for: paint)
        // The three coverages change only with the row's overlap: the first and last rows, and
        // the full rows between them.
        var rowOverlap = -1.0
        var left: UInt8 = 0, middle: UInt8 = 0, right: UInt8 = 0
        for y in rows.first..<rows.end {
            let cy = rows.overlap(y)
            if cy != rowOverlap {
                rowOverlap = cy
                left = RectCoverage.coverage((single ? columns.overlap(columns.first) : columns.firstOverlap) * cy)
                middle = RectCoverage.coverage(cy)
                right = RectCoverage.coverage(columns.lastOverlap * cy)
            }
            if left != 0 { sink.span(y: y, x: columns.first, count: 1, coverage: left) }
            if single { continue }
            if middle != 0 && interior > 0 { sink.span(y: y, x: columns.first + 1, count: interior, coverage: middle) }
            if right != 0 { sink.span(y: y, x: columns.end - 1, count: 1, coverage: right) }
        }
        return true
    }
}

/// The pixels `[first, end)` that the interval `[from, to)` touches along one axis, and how much
/// of each it covers.
struct RectCoverage {
    let from: Double, to: Double
    let first: Int, end: Int

    init(from: Double, to: Double) {
        self.from = from
        self.to = to
        first = Int(from.rounded(.down))
        end = Int(to.rounded(.up))
    }

    /// The length of `[from, to)` inside pixel `i`.
    @inline(__always)
    func overlap(_ i: Int) -> Double {
        max(0, min(Double(i + 1), to) - max(Double(i), from))
    }

    /// `area` (0...1) as 8-bit coverage, rounded as the rasterizer rounds.
    @inline(__always)
    static func coverage(_ area: Double) -> UInt8 {
        UInt8(min(1, max(0, area)) * 255 + 0.5)
    }

    /// The coverage of the first pixel (when the interval spans more than one).
    var firstOverlap: Double { Double(first + 1) - from }
    /// The coverage of the last pixel (when the interval spans more than one).
    var lastOverlap: Double { to - Double(end - 1) }
}

// GraphicsContext+RectStroke: the stroke of an axis-aligned rectangle with mitred corners,
// covered analytically.
//
// Stroking a rectangle with miter joins (at 90° the miter is √2 times the width, within every
// usable miter limit) outlines the region between the rectangle grown and shrunk by half the
// width. Under an axis-aligned transform, the area of that frame inside pixel (x, y) is the
// outer rectangle's area there minus the inner one's, each a product of a column and a row
// overlap (see GraphicsContext+RectFill). Layer borders are such strokes.

extension GraphicsContext {
    /// The smallest miter limit that keeps a right angle mitred (√2, with margin).
    private static let rightAngleMiterLimit = 1.4143

    /// Strokes `rect` (user space) by exact area coverage when the stroke is a plain frame: an
    /// axis-aligned transform, solid lines, mitred corners and an inner edge that does not
    /// cross itself. Returns `false`, drawing nothing, otherwise.
    func strokeAxisAlignedRect(_ rect: Rect) -> Bool {
        let t = state.ctm
        let w = state.lineWidth
        guard t.b == 0, t.c == 0, state.dashLengths.isEmpty, state.lineJoin == .miter,
              state.miterLimit >= Self.rightAngleMiterLimit, w > 0, w.isFinite else { return false }
        let r = rect.standardized
        guard r.width > w, r.height > w else { return false }
        let half = w / 2
        let outer = r.insetBy(dx: -half, dy: -half), inner = r.insetBy(dx: half, dy: half)
        func deviceX(_ x: Double) -> Double { x * t.a + t.tx }
        func deviceY(_ y: Double) -> Double { y * t.d + t.ty }
        let ox = (deviceX(outer.minX), deviceX(outer.maxX)), oy = (deviceY(outer.minY), deviceY(outer.maxY))
        let ix = (deviceX(inner.minX), deviceX(inner.maxX)), iy = (deviceY(inner.minY), deviceY(inner.maxY))
        // The outer edges bound the inner ones, so checking them checks all (NaN fails too).
        guard abs(ox.0) < 1e9, abs(ox.1) < 1e9, abs(oy.0) < 1e9, abs(oy.1) < 1e9 else { return false }
        applyPendingClip()
        guard state.alpha > 0 || state.blendMode != .normal else { return true }
        let clip = state.clipBounds
        func clipped(_ a: Double, _ b: Double, _ lo: Int, _ hi: Int) -> RectCoverage {
            let from = max(min(a, b), Double(lo)), to = min(max(a, b), Double(hi))
            return to > from ? RectCoverage(from: from, to: to) : RectCoverage(from: 0, to: 0)
        }
        let outerColumns = clipped(ox.0, ox.1, clip.x, clip.maxX), outerRows = clipped(oy.0, oy.1, clip.y, clip.maxY)
        guard outerColumns.end > outerColumns.first, outerRows.end > outerRows.first else { return true }
        let innerColumns = clipped(ix.0, ix.1, clip.x, clip.maxX), innerRows = clipped(iy.0, iy.1, clip.y, clip.maxY)
        var sink = compositor(for: .solid(state.strokeColor))
        // Without a clip mask, source-over goes straight into the row (what the compositor's
        // solid span computes, without its set-up for every one-pixel span of the edges).
        let direct = state.clipMask == nil && state.blendMode == .normal
        let source = state.strokeColor.premultipliedPixel, alpha = compositingAlpha
        func emit(_ y: Int, _ x: Int, _ count: Int, _ c: UInt8) {
            guard c != 0 else { return }
            if direct {
                SolidBlend(source: source, coverage: PixelMath.mul(UInt32(c), alpha)).blend(bitmap.pixels + y * bitmap.stride + x, count: count)
            } else {
                sink.span(y: y, x: x, count: count, coverage: c)
            }
        }
        // Between the inner rectangle's partial columns, both rectangles cover whole columns.
        let solidFirst = max(outerColumns.first, innerColumns.first + 1)
        let solidEnd = min(outerColumns.end, innerColumns.end - 1)
        for y in outerRows.first..<outerRows.end {
            let outerHeight = outerRows.overlap(y), innerHeight = innerRows.overlap(y)
            var x = outerColumns.first
            while x < outerColumns.end {
                if innerHeight > 0 && x == solidFirst && solidEnd > solidFirst {
                    emit(y, x, solidEnd - x, RectCoverage.coverage(outerHeight - innerHeight))
                    x = solidEnd
                    continue
                }
                if innerHeight == 0 && x > outerColumns.first && x < outerColumns.end - 1 {
                    // A row the inner rectangle does not reach: the outer rectangle's interior.
                    emit(y, x, outerColumns.end - 1 - x, RectCoverage.coverage(outerHeight))
                    x = outerColumns.end - 1
                    continue
                }
                let area = outerColumns.overlap(x) * outerHeight - innerColumns.overlap(x) * innerHeight
                emit(y, x, 1, RectCoverage.coverage(area))
                x += 1
            }
        }
        return true
    }
}

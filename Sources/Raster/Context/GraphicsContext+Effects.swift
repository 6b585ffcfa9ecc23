// GraphicsContext+Effects: compositing an offscreen picture with a blend function, and drawing blurred shadows.

import CLinux

extension GraphicsContext {
    /// Composites `image`'s pixels in `region` onto the bitmap, times `alpha` (0...1) and the
    /// clip, with `blend`. The image's pixel (0, 0) lands on the bitmap's pixel `origin`. The
    /// transform is not used: this is how a picture rendered offscreen in device space (a group,
    /// a layer with a blend mode) lands.
    public func composite(_ image: Bitmap, origin: (x: Int, y: Int) = (0, 0), region: IntRect, alpha: Double,
                          blend: BlendFunction = .normal) {
        if refusedByRecording() { return }
        applyPendingClip()
        flushPendingFill()
        let placed = IntRect(x: origin.x, y: origin.y, width: image.width, height: image.height)
        let r = region.intersection(state.clipBounds).intersection(bitmap.bounds).intersection(placed)
        let a = UInt32((min(1, max(0, alpha.isNaN ? 0 : alpha)) * 255).rounded())
        guard !r.isEmpty, a > 0 else { return }
        let mask = state.clipMask
        let dst = bitmap.pixels, dstStride = bitmap.stride
        let src = image.pixels, srcStride = image.stride
        if blend == .normal {
            // Source-over through the eight-pixel kernels: the same formulas, so the same pixels.
            coverageRow.reserve(bitmap.width + 2)
            let coverage = coverageRow.base
            for y in r.y..<r.maxY {
                let d = dst + y * dstStride + r.x, s = src + (y - origin.y) * srcStride + (r.x - origin.x)
                guard let maskRow = mask?.row(y) else {
                    Kernels.constantCoverage(d, source: s, count: r.width, coverage: a, mode: .normal)
                    continue
                }
                // At full opacity the mask's row is the coverage (mul(255, m) is m); else it is
                // scaled on AVX2 where there is one (a byte at a time cost more than the blend).
                var rowCoverage = maskRow + r.x
                if a != 255 {
                    PixelMath.mul(rowCoverage, by: a, count: r.width, into: coverage, avx2: usesAVX2Kernels)
                    rowCoverage = coverage
                }
                Kernels.variableCoverage(d, source: s, count: r.width, coverage: rowCoverage, mode: .normal)
            }
            return
        }
        let memo = blendMemo
        let modeIndex = UInt32(BlendFunction.allCases.firstIndex(of: blend) ?? 0)
        for y in r.y..<r.maxY {
            // The image's row, indexed from the region's left column.
            let d = dst + y * dstStride, s = src + (y - origin.y) * srcStride + (r.x - origin.x)
            let maskRow = mask?.row(y)
            for x in r.x..<r.maxX {
                var p = s[x - r.x]
                if p == 0 { continue }
                var c = a
                if let maskRow { c = PixelMath.mul(c, UInt32(maskRow[x])) }
                if c != 255 { p = PixelMath.scale(p, c) }
                if p == 0 { continue }
                d[x] = memo.composite(p, over: d[x], blend: blend, mode: modeIndex)
            }
        }
    }

    /// Draws `color` through the blurred alpha of `blur`, shifted by (`dx`, `dy`) device pixels,
    /// source-over, within the clip (the transform is not used). The pixels of `hidden` are left
    /// as they are when no clip mask is in force: for pixels the caller covers next with opaque
    /// colour at full coverage (the interior of the layer casting the shadow), whatever is
    /// drawn there now never shows.
    public func drawShadow(_ blur: AlphaBlur, color: Color, dx: Int, dy: Int, hidden: IntRect = .zero) {
        if refusedByRecording() { return }
        applyPendingClip()
        flushPendingFill()
        let b = blur.bounds
        let placed = IntRect(x: b.x + dx, y: b.y + dy, width: b.width, height: b.height)
        let r = placed.intersection(state.clipBounds).intersection(bitmap.bounds)
        let pixel = PixelMath.scale(color.premultipliedPixel, compositingAlpha)
        guard !r.isEmpty, pixel >> 24 != 0 else { return }
        let mask = state.clipMask
        let dst = bitmap.pixels, stride = bitmap.stride
        // A row's coverage first (C's conversion: the value is already in 0.5...255.5, so
        // Swift's range check is not needed), then the colour through the eight-pixel kernel.
        coverageRow.reserve(bitmap.width + 2)
        let coverage = coverageRow.base
        let skipped = mask == nil ? hidden.intersection(r) : .zero
        // Each row in up to two pieces, either side of the hidden columns.
        func draw(row y: Int, from x0: Int, to x1: Int) {
            guard x1 > x0 else { return }
            let plane = blur.row(y - dy) - b.x - dx + x0
            let maskRow = mask.map { $0.row(y) + x0 }
            for i in 0..<(x1 - x0) {
                var c = UInt32(truncatingIfNeeded: CLinux_truncate(min(255, max(0, plane[i] * 255 + 0.5))))
                if let maskRow { c = PixelMath.mul(c, UInt32(maskRow[i])) }
                coverage[i] = UInt8(truncatingIfNeeded: c)
            }
            Kernels.solidCoverage(dst + y * stride + x0, count: x1 - x0, source: pixel, coverage: coverage, mode: .normal)
        }
        for y in r.y..<r.maxY {
            if y >= skipped.y && y < skipped.maxY {
                draw(row: y, from: r.x, to: skipped.x)
                draw(row: y, from: skipped.maxX, to: r.maxX)
            } else {
                draw(row: y, from: r.x, to: r.maxX)
            }
        }
    }
}

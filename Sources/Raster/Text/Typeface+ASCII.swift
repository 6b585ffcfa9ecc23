// Typeface+ASCII: drawing bytes of ASCII straight into a bitmap, for text rebuilt every frame.

extension Typeface {
    /// Draws `text` (ASCII bytes; `\n` starts a new line) at `size` pixels per em with the top
    /// of its first line at `origin`, in `color`, source-over into `bitmap`.
    ///
    /// For figures refreshed many times a second (the FPS overlay): no layout object, no string,
    /// and once its glyphs are cached nothing is allocated. Kerning applies as in ``TextLayout``;
    /// pens sit at quarter-pixel phases and baselines on whole pixels.
    public func draw(ascii text: [UInt8], size: Double, into bitmap: Bitmap, at origin: Point, color: Color) {
        guard size > 0, size.isFinite, origin.x.isFinite, origin.y.isFinite, abs(origin.x) < 1e9, abs(origin.y) < 1e9 else { return }
        let pixel = color.premultipliedPixel
        guard pixel >> 24 != 0 else { return }
        var pen = origin.x
        var baseline = (origin.y + ascender * size).rounded()
        var previous: UInt32?
        for byte in text {
            if byte == 0x0A {
                pen = origin.x
                baseline += (lineHeight * size).rounded()
                previous = nil
                continue
            }
            let g = glyph(for: Unicode.Scalar(byte))
            if let previous { pen += kerning(previous, g) * size }
            previous = g
            defer { pen += advance(of: g) * size }
            guard byte != 0x20 else { continue }
            let q = Int((pen * 4).rounded(.down))
            guard let image = image(of: g, size: size, phase: q & 3) else { continue }
            image.blend(pixel, into: bitmap, x: (q >> 2) + image.left, y: Int(baseline) - image.top, clip: bitmap.bounds, mask: nil)
        }
    }
}

extension Typeface {
    /// Renders every printable ASCII glyph at `size`, at each of the four pen phases
    /// ``draw(ascii:size:into:at:color:)`` uses, with their advances and the kerning between
    /// them, into the caches.
    ///
    /// For text that appears on the first frame and must not make it late: finding the glyphs
    /// and rendering them through FreeType takes milliseconds the first time, and each later
    /// first use (a digit the figures had not shown yet) would take its own share. Call it
    /// while setting up, before frames are timed.
    public func prepareASCII(size: Double) {
        // The space first: it has an advance and kerning but no image.
        let glyphs = (UInt8(0x20)...0x7E).map { glyph(for: Unicode.Scalar($0)) }
        for g in glyphs { _ = advance(of: g) }
        for g in glyphs.dropFirst() {
            for phase in 0..<4 { _ = image(of: g, size: size, phase: phase) }
        }
        for left in glyphs {
            for right in glyphs { _ = kerning(left, right) }
        }
    }
}

extension GlyphImage {
    /// Blends `pixel` (premultiplied) through the glyph's coverage with its top-left at (`x`, `y`),
    /// within `clip`, times `mask` where given.
    func blend(_ pixel: UInt32, into bitmap: Bitmap, x x0: Int, y y0: Int, clip: IntRect, mask: AlphaMask?) {
        let r = IntRect(x: x0, y: y0, width: width, height: height).intersection(clip).intersection(bitmap.bounds)
        guard !r.isEmpty else { return }
        let pixels = bitmap.pixels, stride = bitmap.stride
        let opaque = pixel >> 24 == 255
        for y in r.y..<r.maxY {
            let src = coverage + (y - y0) * width - x0
            let row = pixels + y * stride
            if let maskRow = mask?.row(y) {
                for x in r.x..<r.maxX {
                    let c = PixelMath.mul(UInt32(src[x]), UInt32(maskRow[x]))
                    if c != 0 { row[x] = PixelMath.over(PixelMath.scale(pixel, c), row[x]) }
                }
                continue
            }
            // Eight pixels at a time (bit-identical to the scalar formulas), then the rest.
            var x = r.x
            while x + 8 <= r.maxX {
                let c = PixelMath.load8(UnsafePointer(src + x))
                if c != .zero {
                    PixelMath.store8(PixelMath.over8(PixelMath.scale8(Pixels8(repeating: pixel), c), PixelMath.load8(UnsafePointer(row + x))), row + x)
                }
                x += 8
            }
            while x < r.maxX {
                let c = UInt32(src[x])
                // Fully covered by an opaque colour: the pixel is the colour (most of a glyph's stems).
                if c != 0 { row[x] = c == 255 && opaque ? pixel : PixelMath.over(PixelMath.scale(pixel, c), row[x]) }
                x += 1
            }
        }
    }
}

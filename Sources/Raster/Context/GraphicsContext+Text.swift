// GraphicsContext+Text: drawing laid-out text, from cached glyph images or from outlines.

extension GraphicsContext {
    /// Draws `layout` with the top-left of its box at `origin` (user space), each glyph in its
    /// run's colour times the global alpha, within the clip.
    ///
    /// Under a transform that only translates, glyphs are FreeType's cached grayscale images,
    /// baselines on whole pixels and pens at quarter-pixel phases (crisp at small sizes, and a
    /// frame that draws the same text again renders nothing). Under any other transform the
    /// glyph outlines are filled by the rasterizer. Text always blends source-over.
    ///
    /// `styleColor`, when given, replaces the colour of glyphs whose runs had none of their own
    /// (``TextLayout/Glyph/hasStyleColor``): text whose colour animates keeps its layout.
    public func draw(_ layout: TextLayout, at origin: Point, styleColor: Color? = nil) {
        if refusedByRecording() { return }
        applyPendingClip()
        guard !layout.glyphs.isEmpty, !state.clipBounds.isEmpty, state.alpha > 0 else { return }
        let t = state.ctm
        if t.a == 1, t.b == 0, t.c == 0, t.d == 1, abs(t.tx) < 1e9, abs(t.ty) < 1e9 {
            blitGlyphs(layout, dx: origin.x + t.tx, dy: origin.y + t.ty, styleColor: styleColor)
        } else {
            for g in layout.glyphs {
                let place = Transform(scaleX: g.size, y: g.size)
                    .concatenating(Transform(translationX: origin.x + g.position.x, y: origin.y + g.position.y))
                    .concatenating(t)
                fill(g.typeface.outline(of: g.glyph), transform: place, rule: .winding, paint: .solid(g.hasStyleColor ? styleColor ?? g.color : g.color))
            }
        }
    }

    private func blitGlyphs(_ layout: TextLayout, dx: Double, dy: Double, styleColor: Color?) {
        flushPendingFill()
        let clip = state.clipBounds.intersection(bitmap.bounds)
        let alpha = compositingAlpha
        let mask = state.clipMask
        var lastColor = Color.clear, colorPixel: UInt32 = 0
        layout.glyphs.withUnsafeBufferPointer { glyphs in
            layout.images.withEntries(count: glyphs.count) { images in
                for i in glyphs.indices {
                    let px = glyphs[i].position.x + dx, baseline = (glyphs[i].position.y + dy).rounded()
                    let quarters = (px * 4).rounded(.down)
                    guard abs(quarters) < 4e9 else { continue }
                    let q = Int(quarters)
                    let ix = q >> 2, phase = Int8(q & 3)
                    if images[i].phase != phase {
                        let g = glyphs[i]
                        images[i] = .init(image: g.typeface.image(of: g.glyph, size: g.size, phase: Int(phase)), phase: phase)
                    }
                    guard let image = images[i].image, image.width > 0 else { continue }
                    let color = glyphs[i].hasStyleColor ? styleColor ?? glyphs[i].color : glyphs[i].color
                    if color != lastColor {
                        lastColor = color
                        colorPixel = PixelMath.scale(color.premultipliedPixel, alpha)
                    }
                    image.blend(colorPixel, into: bitmap, x: ix + image.left, y: Int(baseline) - image.top, clip: clip, mask: mask)
                }
            }
        }
    }
}

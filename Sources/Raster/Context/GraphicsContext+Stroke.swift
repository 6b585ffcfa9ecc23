// GraphicsContext+Stroke: the context's line style as a StrokeStyle, and stroke outlines.

extension GraphicsContext {
    /// The line style of the current graphics state.
    public var strokeStyle: StrokeStyle {
        StrokeStyle(lineWidth: state.lineWidth, lineJoin: state.lineJoin, lineCap: state.lineCap,
                    miterLimit: state.miterLimit, dashPhase: state.dashPhase, dashLengths: state.dashLengths)
    }

    /// Sets width, join, cap, miter limit and dashes at once.
    public func setStrokeStyle(_ style: StrokeStyle) {
        state.lineWidth = style.lineWidth
        state.lineJoin = style.lineJoin
        state.lineCap = style.lineCap
        state.miterLimit = style.miterLimit
        state.dashPhase = style.dashPhase
        state.dashLengths = style.dashLengths
    }

    /// Strokes the part of `path` (user space) between the fractions `strokeStart` and
    /// `strokeEnd` of its length, as `CAShapeLayer`'s strokeStart and strokeEnd do.
    public func stroke(_ path: Path, from strokeStart: Double, to strokeEnd: Double) {
        guard state.ctm.inverted() != nil else { return }
        let outline = strokeOutline(of: path, strokeStart: strokeStart, strokeEnd: strokeEnd)
        fill(outline, transform: state.ctm, rule: .winding, paint: .solid(state.strokeColor))
    }

    /// Fills `path` (user space) with the fill paint under `rule`, then strokes the part of it
    /// between the fractions `strokeStart` and `strokeEnd` of its length with the stroke colour
    /// and line style, as ``fill(_:rule:)`` followed by ``stroke(_:from:to:)`` would, with the
    /// same pixels (`CAShapeLayer` drawing its fill and stroke).
    ///
    /// Both are rasterized together, band of rows by band of rows, so the stroke blends over
    /// pixels the fill has just written, while they are still in the cache.
    public func fillAndStroke(_ path: Path, rule: FillRule = .winding, strokeFrom strokeStart: Double = 0, to strokeEnd: Double = 1) {
        guard recording == nil, state.ctm.inverted() != nil, !state.clipBounds.isEmpty,
              state.alpha > 0 || state.blendMode != .normal else {
            fill(path, rule: rule)
            stroke(path, from: strokeStart, to: strokeEnd)
            return
        }
        let outline = strokeOutline(of: path, strokeStart: strokeStart, strokeEnd: strokeEnd)
        if state.rectClip != nil {
            withRectClipSettled(for: path, and: outline, transform: state.ctm) { fillAndStroke(path, outline: outline, rule: rule) }
            return
        }
        fillAndStroke(path, outline: outline, rule: rule)
    }

    /// ``fillAndStroke(_:rule:strokeFrom:to:)`` with the stroke's outline made and the clip settled.
    private func fillAndStroke(_ path: Path, outline: Path, rule: FillRule) {
        // A rectangle clip rasterized just now may have emptied the clip.
        guard !state.clipBounds.isEmpty else { return }
        rasterizer.begin(clip: state.clipBounds, targetWidth: bitmap.width)
        rasterizer.add(path, transform: state.ctm)
        strokeRasterizer.begin(clip: state.clipBounds, targetWidth: bitmap.width)
        strokeRasterizer.add(outline, transform: state.ctm)
        let fillShader = Shader(state.fillPaint, ctm: state.ctm, table: gradientTable.base)
        let strokeShader = Shader(.solid(state.strokeColor), ctm: state.ctm, table: gradientTable.base)
        if !rasterizer.isEmpty, var fused = fusedCompositor(shader: fillShader) {
            var strokeSink = compositor(shader: strokeShader)
            Rasterizer.render(rasterizer, rule: rule, into: &fused, then: strokeRasterizer, rule: .winding, into: &strokeSink)
            fused.finish()
            return
        }
        var fillSink = compositor(shader: fillShader)
        var strokeSink = compositor(shader: strokeShader)
        Rasterizer.render(rasterizer, rule: rule, into: &fillSink, then: strokeRasterizer, rule: .winding, into: &strokeSink)
    }

    /// The outline of `userPath`'s stroke in user space, flattened finely enough that it stays
    /// within the rasterizer's flattening tolerance after the current transform. Reuses the
    /// context's buffers, and the last outline when nothing it depends on changed.
    ///
    /// The transform's scale is taken to single precision: a rotation's is 1 within a few ulps
    /// that change with the angle, which made the tolerance differ every frame of a turning
    /// shape and its outline be stroked again. A scale past single precision's range keeps its
    /// double (its tolerance as before).
    func strokeOutline(of userPath: Path, strokeStart: Double = 0, strokeEnd: Double = 1) -> Path {
        let exact = state.ctm.maximumScale, rounded = Double(Float(exact))
        let scale = rounded.isFinite ? rounded : exact
        return pathStroker.outline(of: userPath, style: strokeStyle, tolerance: Rasterizer.flatteningTolerance / max(1e-9, scale),
                                   strokeStart: strokeStart, strokeEnd: strokeEnd)
    }
}

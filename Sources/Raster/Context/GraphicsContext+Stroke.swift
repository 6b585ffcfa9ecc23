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

    /// The outline of `userPath`'s stroke in user space, flattened finely enough that it stays
    /// within the rasterizer's flattening tolerance after the current transform. Reuses the
    /// context's buffers.
    func strokeOutline(of userPath: Path, strokeStart: Double = 0, strokeEnd: Double = 1) -> Path {
        pathStroker.outline(of: userPath, style: strokeStyle, tolerance: Rasterizer.flatteningTolerance / max(1e-9, state.ctm.maximumScale),
                            strokeStart: strokeStart, strokeEnd: strokeEnd)
    }
}

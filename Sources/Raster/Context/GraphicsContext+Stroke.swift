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

    /// The outline of `userPath`'s stroke in user space, flattened finely enough that it stays
    /// within 0.1 device pixels after the current transform.
    func strokeOutline(of userPath: Path) -> Path {
        userPath.strokedOutline(strokeStyle, tolerance: 0.1 / max(1e-9, state.ctm.maximumScale))
    }
}

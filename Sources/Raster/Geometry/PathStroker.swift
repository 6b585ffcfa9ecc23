// PathStroker: stroke outlines with buffers kept between calls, for drawing every frame.

/// Makes stroke outlines like ``Path/strokedOutline(_:tolerance:)`` (after an optional trim, as
/// ``Path/trimmed(from:to:)``), keeping its working buffers between calls so that stroking a
/// path every frame allocates nothing once warm.
///
/// The returned outline shares storage with the stroker until the next call; keeping it past
/// that call is safe (the next call then copies), just not allocation-free.
public struct PathStroker {
    private var stroker = Stroker()
    private var measure = PathMeasure()
    private var trimmed = Path()
    private var dashes = Path()
    /// The last outline's path (its elements copied into storage of the stroker's own, so that a
    /// caller refilling its path's storage is not made to copy it) and its other inputs: the
    /// same inputs again give the same outline, returned without stroking again. A shape
    /// layer that turns keeps its path and line style (the rays: 70 k instructions a frame for
    /// each band's context).
    private var lastPath = Path()
    private var lastInputs: (style: StrokeStyle, tolerance: Double, start: Double, end: Double)?

    /// Creates a stroker with empty buffers.
    public init() {}

    /// The outline of `path`'s stroke in `style`, to fill with the non-zero rule; see
    /// ``Path/strokedOutline(_:tolerance:)`` for `tolerance` (user space: the device tolerance
    /// divided by the transform's ``Transform/maximumScale``).
    ///
    /// - Parameters:
    ///   - strokeStart: The fraction of the path's length where the stroke starts
    ///     (`CAShapeLayer.strokeStart`), clamped to 0...1.
    ///   - strokeEnd: The fraction where it ends (`CAShapeLayer.strokeEnd`); nothing is
    ///     stroked unless it is above `strokeStart`.
    public mutating func outline(of path: Path, style: StrokeStyle, tolerance: Double = 0.1,
                                 strokeStart: Double = 0, strokeEnd: Double = 1) -> Path {
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
        if let last = lastInputs, last.style == style, last.tolerance == tol, last.start == strokeStart, last.end == strokeEnd,
           lastPath == path {
            return stroker.output
        }
        lastInputs = nil
        stroker.reset(style: style, tolerance: tol)
        guard style.lineWidth > 0, style.lineWidth.isFinite, !path.isEmpty,
              let (s, e) = Path.trimFractions(strokeStart, strokeEnd) else { return Path() }
        var source = path
        if s > 0 || e < 1 {
            measure.reset(path)
            trimmed.removeAll()
            Path.appendTrimmed(measure, from: s, to: e, to: &trimmed)
            source = trimmed
        }
        if !style.dashLengths.isEmpty {
            measure.reset(source)
            dashes.removeAll()
            if Path.appendDashes(of: measure, phase: style.dashPhase, lengths: style.dashLengths, to: &dashes) {
                source = dashes
            }
        }
        stroker.stroke(source, flatteningTolerance: Stroker.flatteningTolerance(for: source, tolerance: tol))
        lastPath.copyContents(of: path)
        lastInputs = (style, tol, strokeStart, strokeEnd)
        return stroker.output
    }
}

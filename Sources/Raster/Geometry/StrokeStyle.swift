// StrokeStyle: how a path's centre line becomes a stroke (the line parameters of a CGContext).

/// The parameters that turn a path into the outline of its stroke, as Core Graphics' line
/// width, join, cap, miter limit and dash pattern.
///
/// Lengths are in user space: the stroke is built there and transformed with the path.
public struct StrokeStyle: Hashable, Sendable {
    /// The full width of the stroke, centred on the path. Zero, negative or non-finite widths
    /// stroke nothing.
    public var lineWidth: Double = 1
    /// The shape where two segments meet.
    public var lineJoin: LineJoin = .miter
    /// The shape at the open ends of subpaths.
    public var lineCap: LineCap = .butt
    /// The longest miter, as a multiple of ``lineWidth``, before a miter join becomes a bevel.
    ///
    /// As in Core Graphics, a join is beveled when `miterLength / lineWidth > miterLimit`,
    /// where the miter length (from the inner corner to the tip) is `lineWidth / sin(θ/2)`
    /// for an angle θ between the segments. The default 10 bevels angles below about 11.5°.
    public var miterLimit: Double = 10
    /// How far into the dash pattern the stroke starts, in user-space units.
    public var dashPhase: Double = 0
    /// Alternating painted and unpainted lengths; empty for a solid stroke. See
    /// ``Path/dashed(phase:lengths:)`` for what counts as a valid pattern.
    public var dashLengths: [Double] = []

    /// Creates a stroke style; the defaults are Core Graphics' (a 1-unit solid line with
    /// miter joins, butt caps and a miter limit of 10).
    public init(lineWidth: Double = 1, lineJoin: LineJoin = .miter, lineCap: LineCap = .butt,
                miterLimit: Double = 10, dashPhase: Double = 0, dashLengths: [Double] = []) {
        self.lineWidth = lineWidth
        self.lineJoin = lineJoin
        self.lineCap = lineCap
        self.miterLimit = miterLimit
        self.dashPhase = dashPhase
        self.dashLengths = dashLengths
    }
}

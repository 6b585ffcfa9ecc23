// BlendMode and PathDrawingMode: how drawing combines with what is there, and what a path draws.

/// How drawn pixels combine with the destination, in premultiplied space (CGBlendMode subset).
public enum BlendMode: Sendable, Hashable {
    /// Source over destination: `d = s + d·(1 − sα)`.
    case normal
    /// The source replaces the destination where it is drawn: `d = s·c + d·(1 − c)` for coverage `c`.
    case copy
    /// The destination is erased where drawn: `d = d·(1 − c)`.
    case clear
}

/// What ``GraphicsContext/drawPath(using:)`` does with the current path (CGPathDrawingMode).
public enum PathDrawingMode: Sendable, Hashable {
    /// Fill with the non-zero winding rule.
    case fill
    /// Fill with the even-odd rule.
    case eoFill
    /// Stroke only.
    case stroke
    /// Fill with the non-zero rule, then stroke.
    case fillStroke
    /// Fill with the even-odd rule, then stroke.
    case eoFillStroke
}

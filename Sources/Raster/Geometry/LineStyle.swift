// Small enums shared by filling and stroking. They live apart from StrokeStyle so the
// rasterizer and the stroker can each depend on them without depending on each other.

/// How the inside of a path is decided when it is filled (Core Graphics' `CGPathFillRule`).
public enum FillRule: Sendable, Hashable {
    /// A point is inside when the path winds around it a non-zero number of times.
    case winding
    /// A point is inside when a ray from it crosses the path an odd number of times.
    case evenOdd
}

/// The shape drawn where two stroked segments meet (Core Graphics' `CGLineJoin`).
public enum LineJoin: Sendable, Hashable {
    /// Sharp corner, replaced by a bevel when it would exceed the miter limit.
    case miter
    /// Circular arc of diameter `lineWidth` around the joint.
    case round
    /// The corner cut off straight across.
    case bevel
}

/// The shape drawn at the open ends of a stroked subpath (Core Graphics' `CGLineCap`).
public enum LineCap: Sendable, Hashable {
    /// The stroke stops exactly at the end point.
    case butt
    /// A half disc of diameter `lineWidth` around the end point.
    case round
    /// A half square of side `lineWidth` beyond the end point.
    case square
}

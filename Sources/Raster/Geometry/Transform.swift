// Transform: a 2D affine transform with Core Graphics' conventions (CGAffineTransform).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A two-dimensional affine transform, laid out as Core Graphics' `CGAffineTransform`.
///
/// A point (x, y) maps to (a·x + c·y + tx, b·x + d·y + ty). With y growing downward,
/// a positive rotation angle turns clockwise on screen.
public struct Transform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    /// Creates a transform from its six coefficients.
    @inlinable
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The identity transform.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (tx, ty).
    @inlinable
    public init(translationX tx: Double, y ty: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale by (sx, sy) about the origin.
    @inlinable
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians about the origin (clockwise on screen for positive angles).
    @inlinable
    public init(rotationAngle angle: Double) {
        let s = sin(angle), c = cos(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Whether this is exactly the identity.
    @inlinable
    public var isIdentity: Bool { self == .identity }

    /// The transform that applies `self` first and then `other`.
    @inlinable
    public func concatenating(_ other: Transform) -> Transform {
        Transform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty
        )
    }

    /// A translation applied before this transform (as `CGAffineTransform.translatedBy`).
    @inlinable
    public func translatedBy(x: Double, y: Double) -> Transform {
        Transform(translationX: x, y: y).concatenating(self)
    }

    /// A scale applied before this transform (as `CGAffineTransform.scaledBy`).
    @inlinable
    public func scaledBy(x: Double, y: Double) -> Transform {
        Transform(scaleX: x, y: y).concatenating(self)
    }

    /// A rotation applied before this transform (as `CGAffineTransform.rotated(by:)`).
    @inlinable
    public func rotated(by angle: Double) -> Transform {
        Transform(rotationAngle: angle).concatenating(self)
    }

    /// The determinant, a·d − b·c; zero for a singular transform.
    @inlinable
    public var determinant: Double { a * d - b * c }

    /// The inverse transform, or `nil` when the transform is singular or not finite.
    public func inverted() -> Transform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Transform(a: ia, b: ib, c: ic, d: id,
                         tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// The largest factor by which the transform stretches a length; flattening tolerances divide by it.
    public var maximumScale: Double {
        // Largest singular value of the 2x2 part.
        let s1 = a * a + b * b + c * c + d * d
        let s2 = (a * a + b * b - c * c - d * d)
        let s3 = 2 * (a * c + b * d)
        return ((s1 + (s2 * s2 + s3 * s3).squareRoot()) / 2).squareRoot()
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

extension Point {
    /// The point mapped by `transform`.
    @inlinable
    public func applying(_ t: Transform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension Size {
    /// The size mapped by the linear part of `transform` (no translation).
    @inlinable
    public func applying(_ t: Transform) -> Size {
        Size(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

// Transform+Interpolatable: affine transforms animate through their components, not their matrices.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// An affine transform split into scale, shear, rotation and translation, applied in that order.
///
/// This is how transforms animate: interpolating the six matrix coefficients would shrink a
/// rotating layer half-way through a half turn; interpolating the components keeps it rigid.
/// The key paths `transform.rotation.z`, `transform.scale.x` and friends read and write these
/// components, as Core Animation's do.
public struct TransformComponents: Hashable, Sendable {
    /// The scale along x, applied first; negative when the transform mirrors.
    public var scaleX: Double
    /// The scale along y.
    public var scaleY: Double
    /// The shear factor: x gains `shear · y` (after scaling).
    public var shear: Double
    /// The rotation in radians (clockwise on screen for positive angles).
    public var rotation: Double
    /// The translation, applied last.
    public var translation: Point

    /// Creates components; the defaults are the identity.
    public init(scaleX: Double = 1, scaleY: Double = 1, shear: Double = 0, rotation: Double = 0, translation: Point = .zero) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shear = shear
        self.rotation = rotation
        self.translation = translation
    }

    /// Decomposes `transform`. A singular transform decomposes with zero scales.
    public init(_ t: Transform) {
        let sx = (t.a * t.a + t.b * t.b).squareRoot()
        guard sx > 0, sx.isFinite else {
            self.init(scaleX: 0, scaleY: (t.c * t.c + t.d * t.d).squareRoot(), translation: Point(x: t.tx, y: t.ty))
            return
        }
        let angle = atan2(t.b, t.a)
        let cs = t.a / sx, sn = t.b / sx
        let sy = -t.c * sn + t.d * cs
        let shearTimesSy = t.c * cs + t.d * sn
        self.init(scaleX: sx, scaleY: sy, shear: sy != 0 ? shearTimesSy / sy : 0, rotation: angle,
                  translation: Point(x: t.tx, y: t.ty))
    }

    /// The transform these components describe.
    public var transform: Transform {
        let cs = cos(rotation), sn = sin(rotation)
        // [sx 0; sy·k sy] · [cos sin; −sin cos], rows being the images of the axes.
        return Transform(a: scaleX * cs, b: scaleX * sn,
                         c: scaleY * shear * cs - scaleY * sn, d: scaleY * shear * sn + scaleY * cs,
                         tx: translation.x, ty: translation.y)
    }
}

/// Transforms interpolate component-wise (see ``TransformComponents``), taking the shorter way
/// round for the rotation, as CSS does for 2D transforms; they add by concatenation (`self` then
/// `other`), which is how Core Animation's additive transform animations combine.
extension Transform: Interpolatable {
    public func interpolated(to other: Transform, at t: Double) -> Transform {
        // sx is never negative, so a mirror lives in sy: flipping goes through a zero-height frame.
        let a = TransformComponents(self), b = TransformComponents(other)
        var delta = b.rotation - a.rotation
        if delta > .pi { delta -= 2 * .pi } else if delta < -.pi { delta += 2 * .pi }
        let mixed = TransformComponents(
            scaleX: a.scaleX.interpolated(to: b.scaleX, at: t),
            scaleY: a.scaleY.interpolated(to: b.scaleY, at: t),
            shear: a.shear.interpolated(to: b.shear, at: t),
            rotation: a.rotation + delta * t,
            translation: a.translation.interpolated(to: b.translation, at: t))
        return mixed.transform
    }

    public func adding(_ other: Transform) -> Transform { concatenating(other) }

    public func subtracting(_ other: Transform) -> Transform {
        guard let inverse = other.inverted() else { return self }
        return concatenating(inverse)
    }

    public func distance(to other: Transform) -> Double {
        let a = TransformComponents(self), b = TransformComponents(other)
        var dr = abs(b.rotation - a.rotation)
        if dr > .pi { dr = 2 * .pi - dr }
        return a.translation.distance(to: b.translation) + abs(b.scaleX - a.scaleX) + abs(b.scaleY - a.scaleY)
            + abs(b.shear - a.shear) + dr
    }
}

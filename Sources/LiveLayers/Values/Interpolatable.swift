// Interpolatable: what an animatable property's value must be able to do.

import Raster

/// A value that animations can interpolate, accumulate and measure.
///
/// Every animatable layer property has an `Interpolatable` type: the built-in ones are `Double`,
/// ``Raster/Point``, ``Raster/Size``, ``Raster/Rect``, ``Raster/Color``, ``Raster/Transform``
/// and ``Raster/Path``. Conform your own types to animate custom properties of them.
///
/// - `interpolated(to:at:)` must return `self` at 0 and `other` at 1, and extrapolate
///   sensibly outside 0...1 (springs and custom timing functions overshoot).
/// - `adding(_:)` and `subtracting(_:)` serve `byValue`, `isAdditive` and `isCumulative`.
/// - `distance(to:)` measures the arc length that paced keyframe animations share out.
/// - `interpolate(to:at:into:)` is optional: values with storage of their own (arrays) write
///   into `result`'s storage, so an animation frame allocates nothing once warm.
public protocol Interpolatable: Equatable, Sendable {
    /// The value at `fraction` of the way from `self` to `other`.
    func interpolated(to other: Self, at fraction: Double) -> Self
    /// Sets `result` to `interpolated(to: other, at: fraction)`, reusing its storage where the
    /// type can (the default simply assigns).
    func interpolate(to other: Self, at fraction: Double, into result: inout Self)
    /// The sum of the two values (for a transform: `self` then `other`).
    func adding(_ other: Self) -> Self
    /// The difference, so that `a.adding(b).subtracting(b) == a`.
    func subtracting(_ other: Self) -> Self
    /// A non-negative measure of how far apart the two values are.
    func distance(to other: Self) -> Double
}

extension Interpolatable {
    public func interpolate(to other: Self, at fraction: Double, into result: inout Self) {
        result = interpolated(to: other, at: fraction)
    }
}

extension Double: Interpolatable {
    @inlinable
    public func interpolated(to other: Double, at fraction: Double) -> Double { self + (other - self) * fraction }
    @inlinable
    public func adding(_ other: Double) -> Double { self + other }
    @inlinable
    public func subtracting(_ other: Double) -> Double { self - other }
    @inlinable
    public func distance(to other: Double) -> Double { abs(other - self) }
}

extension Point: Interpolatable {
    public func interpolated(to other: Point, at fraction: Double) -> Point { interpolated(to: other, fraction: fraction) }
    public func adding(_ other: Point) -> Point { self + other }
    public func subtracting(_ other: Point) -> Point { self - other }
}

extension Size: Interpolatable {
    public func interpolated(to other: Size, at t: Double) -> Size {
        Size(width: width + (other.width - width) * t, height: height + (other.height - height) * t)
    }
    public func adding(_ other: Size) -> Size { Size(width: width + other.width, height: height + other.height) }
    public func subtracting(_ other: Size) -> Size { Size(width: width - other.width, height: height - other.height) }
    public func distance(to other: Size) -> Double {
        let dw = other.width - width, dh = other.height - height
        return (dw * dw + dh * dh).squareRoot()
    }
}

extension Rect: Interpolatable {
    public func interpolated(to other: Rect, at t: Double) -> Rect {
        Rect(origin: origin.interpolated(to: other.origin, at: t), size: size.interpolated(to: other.size, at: t))
    }
    public func adding(_ other: Rect) -> Rect { Rect(origin: origin + other.origin, size: size.adding(other.size)) }
    public func subtracting(_ other: Rect) -> Rect { Rect(origin: origin - other.origin, size: size.subtracting(other.size)) }
    public func distance(to other: Rect) -> Double { origin.distance(to: other.origin) + size.distance(to: other.size) }
}

/// Colours interpolate in premultiplied space (``Raster/Color/interpolated(to:fraction:)``), so a
/// fade to `.clear` does not darken; sums and differences are taken per straight component.
extension Color: Interpolatable {
    public func interpolated(to other: Color, at fraction: Double) -> Color { interpolated(to: other, fraction: fraction) }
    public func adding(_ other: Color) -> Color {
        Color(red: red + other.red, green: green + other.green, blue: blue + other.blue, alpha: alpha + other.alpha)
    }
    public func subtracting(_ other: Color) -> Color {
        Color(red: red - other.red, green: green - other.green, blue: blue - other.blue, alpha: alpha - other.alpha)
    }
    public func distance(to other: Color) -> Double {
        let dr = other.red - red, dg = other.green - green, db = other.blue - blue, da = other.alpha - alpha
        return (dr * dr + dg * dg + db * db + da * da).squareRoot()
    }
}

/// An optional value interpolates when both ends are present; otherwise it switches from one
/// end to the other half-way, as a discrete property would.
extension Optional: Interpolatable where Wrapped: Interpolatable {
    public func interpolated(to other: Wrapped?, at fraction: Double) -> Wrapped? {
        if let a = self, let b = other { return a.interpolated(to: b, at: fraction) }
        return fraction < 0.5 ? self : other
    }
    public func interpolate(to other: Wrapped?, at fraction: Double, into result: inout Wrapped?) {
        guard let a = self, let b = other, var kept = result else {
            result = interpolated(to: other, at: fraction)
            return
        }
        result = nil  // so that `kept` holds the only reference to its storage
        a.interpolate(to: b, at: fraction, into: &kept)
        result = kept
    }
    public func adding(_ other: Wrapped?) -> Wrapped? {
        if let a = self, let b = other { return a.adding(b) }
        return self ?? other
    }
    public func subtracting(_ other: Wrapped?) -> Wrapped? {
        if let a = self, let b = other { return a.subtracting(b) }
        return self
    }
    public func distance(to other: Wrapped?) -> Double {
        if let a = self, let b = other { return a.distance(to: b) }
        return self == nil && other == nil ? 0 : 1
    }
}

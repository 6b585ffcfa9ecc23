// Color: a straight-alpha RGBA colour in sRGB (Core Graphics' CGColor), and its packed pixel.

/// A colour with straight (non-premultiplied) alpha, components in 0...1.
///
/// Pixels store colours premultiplied; ``premultipliedPixel`` does that conversion.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    /// Opacity: 0 is transparent, 1 is opaque.
    public var alpha: Double

    /// Creates a colour from straight-alpha components in 0...1.
    @inlinable
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Creates a grey.
    @inlinable
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Creates an opaque colour from a 24-bit `0xRRGGBB` value.
    @inlinable
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(red: Double((rgb >> 16) & 0xFF) / 255,
                  green: Double((rgb >> 8) & 0xFF) / 255,
                  blue: Double(rgb & 0xFF) / 255,
                  alpha: alpha)
    }

    /// Creates a colour from a premultiplied `0xAARRGGBB` pixel.
    public init(premultipliedPixel p: UInt32) {
        let a = Double(p >> 24) / 255
        guard a > 0 else { self.init(red: 0, green: 0, blue: 0, alpha: 0); return }
        self.init(red: min(1, Double((p >> 16) & 0xFF) / 255 / a),
                  green: min(1, Double((p >> 8) & 0xFF) / 255 / a),
                  blue: min(1, Double(p & 0xFF) / 255 / a),
                  alpha: a)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)

    /// The same colour with a different alpha.
    @inlinable
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour as a premultiplied `0xAARRGGBB` pixel, components clamped to 0...1 and rounded.
    @inlinable
    public var premultipliedPixel: UInt32 {
        @inline(__always) func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        let a = clamp(alpha)
        let r = UInt32((clamp(red) * a * 255).rounded())
        let g = UInt32((clamp(green) * a * 255).rounded())
        let b = UInt32((clamp(blue) * a * 255).rounded())
        return UInt32((a * 255).rounded()) << 24 | r << 16 | g << 8 | b
    }

    /// The colour at fraction `t` between `self` and `other`, interpolated in premultiplied space
    /// so that fading to `.clear` does not darken.
    public func interpolated(to other: Color, fraction t: Double) -> Color {
        let a = alpha + (other.alpha - alpha) * t
        guard a > 0 else { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
        func mix(_ x: Double, _ y: Double) -> Double { (x * alpha + (y * other.alpha - x * alpha) * t) / a }
        return Color(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue), alpha: a)
    }

    public var description: String { "Color(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }
}

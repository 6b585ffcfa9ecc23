// BlendFunction: the blend modes of the W3C Compositing and Blending spec (and PDF), separable and not.

/// How a source colour mixes with the backdrop where both are present: the blending function
/// `B(Cb, Cs)` of the W3C Compositing and Blending Level 1 spec (the PDF blend modes), composited
/// source-over: `co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)`, `αo = αs + αb·(1 − αs)`.
///
/// `Cb` and `Cs` are the un-premultiplied backdrop and source colours; `cs` and `cb` the
/// premultiplied ones. Where the backdrop is transparent the source shows as it is; where the
/// source is, the backdrop shows as it is.
public enum BlendFunction: Sendable, Hashable, CaseIterable {
    case normal
    case multiply
    case screen
    case overlay
    case darken
    case lighten
    case colorDodge
    case colorBurn
    case hardLight
    case softLight
    case difference
    case exclusion
    /// The source's hue with the backdrop's saturation and luminosity.
    case hue
    /// The source's saturation with the backdrop's hue and luminosity.
    case saturation
    /// The source's hue and saturation with the backdrop's luminosity.
    case color
    /// The source's luminosity with the backdrop's hue and saturation.
    case luminosity

    /// Whether the function works on each channel alone (all but hue, saturation, colour, luminosity).
    public var isSeparable: Bool {
        switch self {
        case .hue, .saturation, .color, .luminosity: return false
        default: return true
        }
    }

    /// `B(cb, cs)` for one channel of a separable mode, channels in 0...1.
    @inline(__always)
    public func blendChannel(_ cb: Double, _ cs: Double) -> Double {
        switch self {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return BlendFunction.hardLight.blendChannel(cs, cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs >= 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb >= 1 { return 1 }
            if cs <= 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5 ? cb * 2 * cs : BlendFunction.screen.blendChannel(cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        case .hue, .saturation, .color, .luminosity: return cs
        }
    }

    /// `B(Cb, Cs)` for a whole colour (r, g, b in 0...1).
    public func blend(_ cb: (Double, Double, Double), _ cs: (Double, Double, Double)) -> (Double, Double, Double) {
        switch self {
        case .hue: return Self.setLum(Self.setSat(cs, Self.sat(cb)), Self.lum(cb))
        case .saturation: return Self.setLum(Self.setSat(cb, Self.sat(cs)), Self.lum(cb))
        case .color: return Self.setLum(cs, Self.lum(cb))
        case .luminosity: return Self.setLum(cb, Self.lum(cs))
        default: return (blendChannel(cb.0, cs.0), blendChannel(cb.1, cs.1), blendChannel(cb.2, cs.2))
        }
    }

    /// The source pixel `s` blended onto the backdrop pixel `d` (both premultiplied `0xAARRGGBB`).
    public func composite(_ s: UInt32, over d: UInt32) -> UInt32 {
        // Each byte's Double(v) / 255 from a table: the same values, without eight divisions.
        let unit = Self.unitValues
        let sa = unit[Int(s >> 24)]
        if sa == 0 { return d }
        let ba = unit[Int(d >> 24)]
        if self == .normal || ba == 0 { return PixelMath.over(s, d) }
        func channels(_ p: UInt32) -> (Double, Double, Double) {
            (unit[Int((p >> 16) & 0xFF)], unit[Int((p >> 8) & 0xFF)], unit[Int(p & 0xFF)])
        }
        let cs = channels(s), cb = channels(d)
        // An opaque colour is its own un-premultiplied one (x / 1 is x, and no channel exceeds 1).
        let us = sa == 1 ? cs : (min(1, cs.0 / sa), min(1, cs.1 / sa), min(1, cs.2 / sa))
        let ub = ba == 1 ? cb : (min(1, cb.0 / ba), min(1, cb.1 / ba), min(1, cb.2 / ba))
        let b = blend(ub, us)
        let k = sa * ba
        func mix(_ s: Double, _ d: Double, _ b: Double) -> UInt32 {
            let v = s * (1 - ba) + d * (1 - sa) + k * b
            return Self.byte(v * 255)
        }
        let a = Self.byte((sa + ba - sa * ba) * 255)
        return a << 24 | min(a, mix(cs.0, cb.0, b.0)) << 16 | min(a, mix(cs.1, cb.1, b.1)) << 8 | min(a, mix(cs.2, cb.2, b.2))
    }

    /// `Double(v) / 255` for each byte `v`. Written once, when first used, and only read after.
    nonisolated(unsafe) private static let unitValues: UnsafeMutablePointer<Double> = {
        let table = UnsafeMutablePointer<Double>.allocate(capacity: 256)
        for v in 0..<256 { table[v] = Double(v) / 255 }
        return table
    }()

    /// `x` rounded half away from zero and clamped to 0...255, as `min(255, max(0, x.rounded()))`
    /// gives, without the call to libm's `round` that `rounded()` is for a baseline x86-64 build
    /// (no SSE4.1): it was a third of the cost of compositing a pixel.
    @inline(__always)
    static func byte(_ x: Double) -> UInt32 {
        let c = min(255, max(0, x))
        let whole = UInt32(c)
        return c - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    // The spec's helpers for the non-separable modes.
    static func lum(_ c: (Double, Double, Double)) -> Double { 0.3 * c.0 + 0.59 * c.1 + 0.11 * c.2 }

    static func clipColor(_ c: (Double, Double, Double)) -> (Double, Double, Double) {
        let l = lum(c)
        let n = min(c.0, c.1, c.2), x = max(c.0, c.1, c.2)
        var r = c
        if n < 0 {
            let f = l / (l - n)
            r = (l + (r.0 - l) * f, l + (r.1 - l) * f, l + (r.2 - l) * f)
        }
        if x > 1 {
            let f = (1 - l) / (x - l)
            r = (l + (r.0 - l) * f, l + (r.1 - l) * f, l + (r.2 - l) * f)
        }
        return r
    }

    static func setLum(_ c: (Double, Double, Double), _ l: Double) -> (Double, Double, Double) {
        let d = l - lum(c)
        return clipColor((c.0 + d, c.1 + d, c.2 + d))
    }

    static func sat(_ c: (Double, Double, Double)) -> Double { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) }

    static func setSat(_ c: (Double, Double, Double), _ s: Double) -> (Double, Double, Double) {
        // Cmax takes s, Cmid keeps its place between, Cmin becomes 0 (without arrays: per pixel).
        let mx = max(c.0, c.1, c.2), mn = min(c.0, c.1, c.2)
        guard mx > mn else { return (0, 0, 0) }
        func f(_ v: Double) -> Double { (v - mn) * s / (mx - mn) }
        return (f(c.0), f(c.1), f(c.2))
    }
}

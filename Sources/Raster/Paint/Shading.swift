// Shading: an axial, radial or conic gradient that fills the clip, dithered (CGShading).

import CLinux
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A gradient drawn over the whole clip with ``GraphicsContext/drawShading(_:)``, as
/// `CGContextDrawLinearGradient` and `CGContextDrawRadialGradient` draw, extended with the end
/// colours beyond both ends.
///
/// Unlike a gradient ``Paint`` (256 colours, rounded), a shading resolves 1024 steps with 8 bits of
/// fraction each and adds an ordered (8×8 Bayer) dither before rounding to 8-bit pixels, so a
/// gradient across a large area shows no bands. The dither never moves a stop's colour: a pixel
/// whose centre lies exactly on a stop gets that stop's ``Color/premultipliedPixel``.
public struct Shading: Sendable, Hashable {
    /// Where the gradient's locations 0...1 lie, in user space.
    public enum Geometry: Sendable, Hashable {
        /// Location 0 at `start`, 1 at `end`, constant across the line between them.
        case axial(start: Point, end: Point)
        /// Location 0 at `center`, 1 on the circle of `radius` around it.
        case radial(center: Point, radius: Double)
        /// Location 0 along the ray from `center` at `angle` radians (0 points along +x, positive
        /// angles turn clockwise on screen), growing clockwise to 1 after a full turn.
        case conic(center: Point, angle: Double)
    }

    /// The colours and their locations.
    public private(set) var gradient: Gradient
    /// Where the locations lie.
    public var geometry: Geometry
    /// Whether an ordered dither is added before rounding (default `true`).
    public var isDithered: Bool
    private(set) var ramp: ShadingRamp

    /// Creates a shading; the colour ramp is built here, once.
    public init(_ gradient: Gradient, geometry: Geometry, isDithered: Bool = true) {
        self.gradient = gradient
        self.geometry = geometry
        self.isDithered = isDithered
        ramp = ShadingRamp(gradient)
    }

    /// Replaces the gradient's stops (``Gradient/setStops(colors:locations:)``) and rebuilds
    /// the colour ramp if they changed: in place when no other copy of this shading shares it,
    /// so an animated gradient kept in one place allocates nothing per frame.
    public mutating func setStops(colors: [Color], locations: [Double]?) {
        guard gradient.setStops(colors: colors, locations: locations) else { return }
        if isKnownUniquelyReferenced(&ramp) {
            ramp.fill(gradient)
        } else {
            ramp = ShadingRamp(gradient)
        }
    }

    /// The locations whose pixels may differ between this shading and `other`, drawn with the
    /// same geometry: from half a ramp step before the first entry of their colour ramps that
    /// differs to half a step after the last (infinite at a ramp's padded end). Nil when the
    /// ramps and dithers are the same, so that every pixel either draws is the same.
    public func locationsThatDiffer(from other: Shading) -> (lower: Double, upper: Double)? {
        guard isDithered == other.isDithered else { return (-.infinity, .infinity) }
        if ramp === other.ramp { return nil }
        let a = ramp.entries, b = other.ramp.entries, n = ShadingRamp.count
        var first = 0
        while first < n && a[first] == b[first] { first += 1 }
        guard first < n else { return nil }
        var last = n - 1
        while a[last] == b[last] { last -= 1 }
        let steps = Double(n - 1)
        return (first == 0 ? -.infinity : (Double(first) - 0.5) / steps,
                last == n - 1 ? .infinity : (Double(last) + 0.5) / steps)
    }

    public static func == (lhs: Shading, rhs: Shading) -> Bool {
        lhs.gradient == rhs.gradient && lhs.geometry == rhs.geometry && lhs.isDithered == rhs.isDithered
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(gradient)
        hasher.combine(geometry)
        hasher.combine(isDithered)
    }

    /// The 8×8 Bayer matrix, as offsets within one 8-bit step (1...255 in 1/256ths, centred).
    /// The dither of an undithered shading: half a step, which rounds to nearest.
    static let noDither = [UInt32](repeating: 128, count: 64)

    static let bayer: [UInt32] = {
        let m: [UInt32] = [
            0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
            12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
            3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
            15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
        ]
        return m.map { $0 * 4 + 2 }
    }()

    /// The two tables with each value in all four 16-bit lanes, as ``ShadingRamp/pixel(_:lanes:)``
    /// adds it: one multiplication less per pixel.
    static let noDitherLanes = noDither.map { UInt64($0) &* 0x0001_0001_0001_0001 }
    static let bayerLanes = bayer.map { UInt64($0) &* 0x0001_0001_0001_0001 }
}

/// A gradient's colours at 1024 evenly spaced locations, premultiplied, each channel in 8.8
/// fixed point packed into 16 bits of a `UInt64` (alpha, red, green, blue from high to low).
final class ShadingRamp: @unchecked Sendable {
    // Immutable once shared: `fill` runs only in init or when the one shading that holds the
    // ramp is its only reference (isKnownUniquelyReferenced), so no other thread can read it.
    static let count = 1024
    let entries: UnsafeMutablePointer<UInt64>
    /// Whether every entry is opaque (the source-over blend is then a copy).
    private(set) var isOpaque = false

    init(_ gradient: Gradient) {
        entries = .allocate(capacity: Self.count)
        entries.initialize(repeating: 0, count: Self.count)
        fill(gradient)
    }

    /// Computes every entry for `gradient`.
    func fill(_ gradient: Gradient) {
        let stops = gradient.stops
        guard !stops.isEmpty else {
            entries.update(repeating: 0, count: Self.count)
            isOpaque = false
            return
        }
        // Premultiplied channels in 0...255, as `premultipliedPixel` computes them before rounding.
        func channels(_ c: Color) -> (Double, Double, Double, Double) {
            func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
            let a = clamp(c.alpha)
            return (a * 255, clamp(c.red) * a * 255, clamp(c.green) * a * 255, clamp(c.blue) * a * 255)
        }
        func pack(_ a: Double, _ r: Double, _ g: Double, _ b: Double) -> UInt64 {
            func q(_ v: Double) -> UInt64 { UInt64(min(65280, max(0, (v * 256).rounded()))) }
            return q(a) << 48 | q(r) << 32 | q(g) << 16 | q(b)
        }
        let last = Double(Self.count - 1)
        var j = 0
        for i in 0..<Self.count {
            let t = Double(i) / last
            while j < stops.count && stops[j].location < t { j += 1 }
            let c: (Double, Double, Double, Double)
            if j == 0 {
                c = channels(stops[0].color)
            } else if j == stops.count {
                c = channels(stops[stops.count - 1].color)
            } else {
                let s0 = stops[j - 1], s1 = stops[j]
                let span = s1.location - s0.location
                let f = span > 0 ? (t - s0.location) / span : 1
                let p = channels(s0.color), q = channels(s1.color)
                c = (p.0 + (q.0 - p.0) * f, p.1 + (q.1 - p.1) * f, p.2 + (q.2 - p.2) * f, p.3 + (q.3 - p.3) * f)
            }
            entries[i] = pack(c.0, c.1, c.2, c.3)
        }
        // The entry a stop's location lands on holds exactly that stop's rounded pixel, so the
        // dither (less than one step) can never move it.
        for stop in stops {
            let i = Int((stop.location * last).rounded())
            let p = stop.color.premultipliedPixel
            entries[i] = UInt64(p >> 24) << 56 | UInt64((p >> 16) & 0xFF) << 40 | UInt64((p >> 8) & 0xFF) << 24 | UInt64(p & 0xFF) << 8
        }
        // Colour lanes at most the alpha lane: with the same dither added, each channel's
        // byte then stays at or below alpha's, which `pixel` needs no comparisons to keep.
        var opaque = true
        for i in 0..<Self.count {
            let e = entries[i], a = e >> 48
            let r = min(a, (e >> 32) & 0xFFFF), g = min(a, (e >> 16) & 0xFFFF), b = min(a, e & 0xFFFF)
            entries[i] = a << 48 | r << 32 | g << 16 | b
            if a != 65280 { opaque = false }
        }
        isOpaque = opaque
    }

    deinit { entries.deallocate() }

    /// The ramp index for location `t`, padded to the ends (NaN maps to 0).
    @inline(__always)
    static func index(_ t: Double) -> Int {
        let v = t * Double(count - 1) + 0.5
        // In range where it is truncated: C's conversion, without the check and trap of Int(v).
        return v >= Double(count - 1) ? count - 1 : (v > 0 ? Int(CLinux_truncate_double(v)) : 0)
    }

    /// The premultiplied pixel of entry `i` with `dither` (0...255, in 1/256ths of a step) added
    /// before truncation; colour channels are kept at or below alpha.
    @inline(__always)
    func pixel(_ i: Int, dither: UInt32) -> UInt32 {
        pixel(i, lanes: UInt64(dither) &* 0x0001_0001_0001_0001)
    }

    /// The same, with the dither already in all four lanes (`dither · 0x0001_0001_0001_0001`).
    @inline(__always)
    func pixel(_ i: Int, lanes dither: UInt64) -> UInt32 {
        // All four lanes at once: each lane is at most 65280 and the dither at most 255, so no
        // sum carries into the next lane. Then the high byte of each lane, packed a r g b.
        let v = entries[i] &+ dither
        let high = (v >> 8) & 0x00FF_00FF_00FF_00FF
        let packed = (high | high >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: packed) | UInt32(truncatingIfNeeded: packed >> 16) & 0xFFFF_0000
    }
}

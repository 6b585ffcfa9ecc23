// GraphicsContext+Shading: drawing a dithered gradient over the clip.

import CLinux
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GraphicsContext {
    /// Fills the whole clip with `shading`, mapped to device space by the current transform
    /// and multiplied by the global alpha and any clip mask (CGContextDrawLinearGradient with
    /// both extend options). Clip to a shape first to fill only the shape.
    public func drawShading(_ shading: Shading) {
        if refusedByRecording() { return }
        applyPendingClip()
        flushPendingFill()
        let region = state.clipBounds.intersection(bitmap.bounds)
        guard !region.isEmpty, let inverse = state.ctm.inverted() else { return }
        let alpha = compositingAlpha
        let mode = state.blendMode
        guard alpha > 0 || mode != .normal else { return }
        if mode == .clear {
            clear(bitmap.bounds.rect.applying(inverse))
            return
        }
        let mask = state.clipMask
        let ramp = shading.ramp
        let dithered = shading.isDithered
        let replaces = mask == nil && alpha == 255 && (mode == .copy || ramp.isOpaque)
        let pixels = bitmap.pixels, stride = bitmap.stride
        // A run's colours go to a row of source pixels, then through the same eight-pixel
        // kernels as an image's: per pixel, blending cost three times what finding the colour did.
        sourceRow.reserve(bitmap.width + 2)
        coverageRow.reserve(bitmap.width + 2)
        let source = sourceRow.base, coverage = coverageRow.base
        (dithered ? Shading.bayerLanes : Shading.noDitherLanes).withUnsafeBufferPointer { bayer in
            var evaluator = ShadingEvaluator(shading.geometry, inverse: inverse)
            evaluator.usesAVX2 = usesAVX2Kernels
            func shade(_ count: Int, fromX x: Int, dither: UnsafePointer<UInt64>, into out: UnsafeMutablePointer<UInt32>) {
                evaluator.shade(count, fromX: x, ramp: ramp, dither: dither, into: out)
            }
            for y in region.y..<region.maxY {
                let row = pixels + y * stride
                let dither = bayer.baseAddress! + (y & 7) * 8
                evaluator.startRow(x: region.x, y: y)
                guard let maskRow = mask.map({ $0.row(y) }) else {
                    if replaces {
                        shade(region.width, fromX: region.x, dither: dither, into: row + region.x)
                    } else if alpha > 0 {
                        shade(region.width, fromX: region.x, dither: dither, into: source)
                        Kernels.constantCoverage(row + region.x, source: source, count: region.width, coverage: alpha, mode: mode)
                    }
                    continue
                }
                // Only the mask's covered runs are shaded (a shape's mask covers a fraction of
                // its box); the evaluator steps over the rest exactly as it would pixel by pixel.
                var x = region.x
                while x < region.maxX {
                    let zeros = x
                    while x + 8 <= region.maxX && UnsafeRawPointer(maskRow + x).loadUnaligned(as: UInt64.self) == 0 { x += 8 }
                    while x < region.maxX && maskRow[x] == 0 { x += 1 }
                    evaluator.skip(x - zeros)
                    let start = x
                    // Eight covered bytes at a time (none of them zero), then byte by byte.
                    while x + 8 <= region.maxX {
                        let word = UnsafeRawPointer(maskRow + x).loadUnaligned(as: UInt64.self)
                        guard (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 == 0 else { break }
                        x += 8
                    }
                    while x < region.maxX, maskRow[x] != 0 { x += 1 }
                    let count = x - start
                    guard count > 0 else { continue }
                    shade(count, fromX: start, dither: dither, into: source)
                    var runCoverage = maskRow + start
                    if alpha != 255 {
                        PixelMath.mul(UnsafePointer(runCoverage), by: alpha, count: count, into: coverage,
                                      avx2: usesAVX2Kernels)
                        runCoverage = coverage
                    }
                    Kernels.variableCoverage(row + start, source: source, count: count, coverage: runCoverage, mode: mode)
                }
            }
        }
    }
}

/// The location `t` at successive device pixel centres along a row, for one shading geometry.
struct ShadingEvaluator {
    private enum Kind { case axial, radial, conic }
    private let kind: Kind
    private let inverse: Transform
    // Axial: t = t0 + dtdx·x + dtdy·y. Radial and conic: the user-space point relative to the centre.
    private var t0 = 0.0, dtdx = 0.0, dtdy = 0.0
    private var center = Point.zero, scale = 1.0, angle = 0.0
    private var t = 0.0, u = 0.0, v = 0.0
    /// Whether the axial, radial and conic loops may run on AVX2 (CLinux), four pixels at a time: the same pixels.
    var usesAVX2 = false

    init(_ geometry: Shading.Geometry, inverse: Transform) {
        self.inverse = inverse
        switch geometry {
        case let .axial(start, end):
            kind = .axial
            let dx = end.x - start.x, dy = end.y - start.y
            let len2 = dx * dx + dy * dy
            if len2 > 0, len2.isFinite {
                dtdx = (inverse.a * dx + inverse.b * dy) / len2
                dtdy = (inverse.c * dx + inverse.d * dy) / len2
                t0 = ((inverse.tx - start.x) * dx + (inverse.ty - start.y) * dy) / len2
            } else {
                t0 = 1          // a degenerate axis shows the last colour, as Core Graphics' pad does
            }
        case let .radial(c, radius):
            kind = .radial
            center = c
            scale = radius > 0 && radius.isFinite ? 1 / radius : .infinity
        case let .conic(c, a):
            kind = .conic
            center = c
            angle = a.isFinite ? a : 0
        }
    }

    /// Starts a row at column `x` of row `y`.
    @inline(__always)
    mutating func startRow(x: Int, y: Int) {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        switch kind {
        case .axial:
            t = t0 + dtdx * px + dtdy * py
        case .radial, .conic:
            u = inverse.a * px + inverse.c * py + inverse.tx - center.x
            v = inverse.b * px + inverse.d * py + inverse.ty - center.y
        }
    }

    /// Moves `n` pixels right without evaluating them, with the same arithmetic as `next()`
    /// (so the pixels after a skipped run are exactly the ones evaluated one by one).
    @inline(__always)
    mutating func skip(_ n: Int) {
        guard n > 0 else { return }
        switch kind {
        case .axial:
            Self.step(&t, by: dtdx, times: n)
        case .radial, .conic:
            Self.step(&u, by: inverse.a, times: n)
            Self.step(&v, by: inverse.b, times: n)
        }
    }

    /// `n` times `x += d`, exactly, without `n` dependent adds where it can: a masked shape's
    /// uncovered stretches were a chain of adds 4 cycles each (a third of a gradient fill's time).
    /// While x stays on one binade's grid (spacing `ulp`) away from its ends, every add rounds
    /// `d` to the same multiple of the spacing (no tie: then it would depend on x's last bit),
    /// so m adds are x + m·δ, a multiple of the spacing inside the binade: exact.
    @inline(__always)
    static func step(_ x: inout Double, by d: Double, times n: Int) {
        var n = n
        while n > 0 {
            if n >= 16, let (m, delta) = stepsOnGrid(x, d, n) {
                x += Double(m) * delta
                n -= m
            }
            let serial = min(n, 8)
            for _ in 0..<serial { x += d }
            n -= serial
        }
    }

    /// How many adds of `d` from `x` (at most `n`, at least 8) stay on x's binade grid, away
    /// from its ends, and the multiple of the spacing each adds; nil where that does not hold.
    @inline(never)
    static func stepsOnGrid(_ x: Double, _ d: Double, _ n: Int) -> (Int, Double)? {
        guard x.isNormal, d.isFinite else { return nil }
        let a = x.magnitude, spacing = a.ulp, low = a.binade, high = low * 2
        // Fast2Sum (|d| well below |x|): x + d - x is the exact rounded step.
        guard d.magnitude < low * 0x1p-4 else { return nil }
        let delta = (x + d) - x
        guard (d - delta).magnitude != spacing * 0.5 else { return nil }
        // Moving the magnitude: bounds one and two spacings inside the binade keep every exact
        // sum (within half a spacing of the next grid point) where the spacing is `spacing`.
        let move = x < 0 ? -delta : delta
        let lower = low + spacing, upper = high - 2 * spacing
        // The first add's sum inside too, so `delta` is d rounded to this binade's spacing.
        guard a >= lower, a <= upper, a + move >= lower, a + move <= upper else { return nil }
        let room = move > 0 ? (upper - a) / move : move < 0 ? (a - lower) / -move : Double(n)
        // One fewer than the rounded quotient: never past the bound.
        let m = room >= Double(n) ? n : Int(room) - 1
        guard m >= 8 else { return nil }
        return (m, delta)
    }

    /// The colours of the next `count` pixels, from column `x`, into `out`: `ramp`'s entries at
    /// their locations plus `dither`'s 8 values (by column), moving `count` pixels right. One
    /// loop per kind, with the same arithmetic as `next()`.
    @inline(__always)
    mutating func shade(_ count: Int, fromX x: Int, ramp: ShadingRamp, dither: UnsafePointer<UInt64>,
                        into out: UnsafeMutablePointer<UInt32>) {
        switch kind {
        case .axial:
            var t = self.t
            let dtdx = self.dtdx
            var done = 0
            #if arch(x86_64)
            if usesAVX2 { done = CLinux_axial_shade_avx2(out, count, &t, dtdx, ramp.entries, dither, x) }
            #endif
            for i in done..<count {
                out[i] = ramp.pixel(ShadingRamp.index(t), lanes: dither[(x &+ i) & 7])
                t += dtdx
            }
            self.t = t
        case .radial:
            guard !scale.isInfinite else {
                for i in 0..<count { out[i] = ramp.pixel(ShadingRamp.index(1), lanes: dither[(x &+ i) & 7]) }
                skip(count)
                return
            }
            var u = self.u, v = self.v
            let du = inverse.a, dv = inverse.b, scale = self.scale
            var done = 0
            #if arch(x86_64)
            if usesAVX2 { done = CLinux_radial_shade_avx2(out, count, &u, &v, du, dv, scale, ramp.entries, dither, x) }
            #endif
            for i in done..<count {
                out[i] = ramp.pixel(ShadingRamp.index((u * u + v * v).squareRoot() * scale), lanes: dither[(x &+ i) & 7])
                u += du
                v += dv
            }
            self.u = u
            self.v = v
        case .conic:
            var u = self.u, v = self.v
            let du = inverse.a, dv = inverse.b, angle = self.angle
            var done = 0
            #if arch(x86_64)
            if usesAVX2 {
                done = CLinux_conic_shade_avx2(out, count, &u, &v, du, dv, angle, ramp.entries, dither, x)
            }
            #endif
            for i in done..<count {
                out[i] = ramp.pixel(ShadingRamp.index(Self.turn(Self.angle(v, u), from: angle)), lanes: dither[(x &+ i) & 7])
                u += du
                v += dv
            }
            self.u = u
            self.v = v
        }
    }

    /// The location at the current pixel, then moves one pixel right.
    @inline(__always)
    mutating func next() -> Double {
        switch kind {
        case .axial:
            defer { t += dtdx }
            return t
        case .radial:
            defer { u += inverse.a; v += inverse.b }
            let d = (u * u + v * v).squareRoot()
            return scale.isInfinite ? 1 : d * scale
        case .conic:
            defer { u += inverse.a; v += inverse.b }
            return Self.turn(Self.angle(v, u), from: angle)
        }
    }

    /// The fraction of a turn clockwise from `start` to `angle` (radians), in 0 ..< 1.
    @inline(__always)
    static func turn(_ angle: Double, from start: Double) -> Double {
        let turn = (angle - start) / (2 * Double.pi)
        // `rounded(.down)` is a call to libm's floor on baseline x86-64: truncation instead,
        // one less below zero, where the value is small enough to convert (NaN is not).
        guard abs(turn) < 1e15 else { return turn - turn.rounded(.down) }
        let whole = Double(CLinux_truncate_double(turn))
        return turn - (whole > turn ? whole - 1 : whole)
    }

    /// `atan2(y, x)` within 2e-6 radians (a 3,000th of a ramp step), without libm's call: a
    /// conic shading evaluates it at every pixel. An odd polynomial for atan on [0, 1], then
    /// the octant; (0, 0) and non-finite points go to `atan2`.
    @inline(__always)
    static func angle(_ y: Double, _ x: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        guard ax.isFinite, ay.isFinite, ax > 0 || ay > 0 else { return atan2(y, x) }
        let big = max(ax, ay), small = min(ax, ay)
        let a = small / big, s = a * a
        var r = (((((-0.01172120 * s + 0.05265332) * s - 0.11643287) * s + 0.19354346) * s - 0.33262347) * s + 0.99997726) * a
        if ay > ax { r = Double.pi / 2 - r }
        if x < 0 { r = Double.pi - r }
        return y < 0 ? -r : r
    }
}

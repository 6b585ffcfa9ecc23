// GraphicsContext+Shading: drawing a dithered gradient over the clip.

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
        let replaces = mask == nil && alpha == 255 && (mode == .copy || ramp.isOpaque)
        let pixels = bitmap.pixels, stride = bitmap.stride
        Shading.bayer.withUnsafeBufferPointer { bayer in
            var evaluator = ShadingEvaluator(shading.geometry, inverse: inverse)
            for y in region.y..<region.maxY {
                let row = pixels + y * stride
                let dither = bayer.baseAddress! + (y & 7) * 8
                evaluator.startRow(x: region.x, y: y)
                guard let maskRow = mask.map({ $0.row(y) }) else {
                    for x in region.x..<region.maxX {
                        let t = evaluator.next()
                        let s = ramp.pixel(ShadingRamp.index(t), dither: shading.isDithered ? dither[x & 7] : 128)
                        if replaces { row[x] = s; continue }
                        if alpha == 0 { continue }
                        row[x] = mode == .copy ? PixelMath.lerp(s, row[x], alpha) : PixelMath.over(PixelMath.scale(s, alpha), row[x])
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
                    while x < region.maxX, maskRow[x] != 0 {
                        let t = evaluator.next()
                        let s = ramp.pixel(ShadingRamp.index(t), dither: shading.isDithered ? dither[x & 7] : 128)
                        let c = PixelMath.mul(alpha, UInt32(maskRow[x]))
                        if c != 0 {
                            row[x] = mode == .copy ? PixelMath.lerp(s, row[x], c) : PixelMath.over(PixelMath.scale(s, c), row[x])
                        }
                        x += 1
                    }
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
            for _ in 0..<n { t += dtdx }
        case .radial, .conic:
            for _ in 0..<n { u += inverse.a; v += inverse.b }
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
            var turn = (Self.angle(v, u) - angle) / (2 * Double.pi)
            turn -= turn.rounded(.down)
            return turn
        }
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

// SolidBlend: source-over of one solid colour at one coverage, prepared once for many spans.

/// A premultiplied colour already scaled by its coverage, with the vector constants ready:
/// blending a span computes exactly what ``Kernels/solidSpan(_:count:source:coverage:mode:)``
/// computes in `.normal` mode, without redoing the set-up for every span. Rectangles reuse one
/// per distinct row coverage, over all their rows.
struct SolidBlend {
    private let scaled: UInt32
    private let inverse: UInt32

    /// Source `s` at coverage `c` (0...255, already multiplied by any global alpha).
    @inline(__always)
    init(source s: UInt32, coverage c: UInt32) {
        scaled = PixelMath.scale(s, c)
        inverse = 255 - (scaled >> 24)
    }

    /// Blends the colour over `count` pixels at `dst`.
    @inline(__always)
    func blend(_ dst: UnsafeMutablePointer<UInt32>, count: Int) {
        if inverse == 0 { PixelMath.fill(dst, scaled, count: count); return }
        if scaled == 0 { return }
        if count == 1 { dst[0] = scaled &+ PixelMath.scale(dst[0], inverse); return }
        Kernels.solidSpan(dst, count: count, source: scaled, coverage: 255, mode: .normal)
    }
}

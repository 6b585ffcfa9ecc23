// PixelMath: 8-bit premultiplied arithmetic with exact rounding, two channels per 32-bit lane.

import CLinux

enum PixelMath {
    /// `x · a / 255` rounded to nearest, for `x, a` in 0...255.
    @inline(__always)
    static func mul(_ x: UInt32, _ a: UInt32) -> UInt32 {
        let t = x &* a &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// `count` coverages times `a / 255`, rounded to nearest (`mul`'s bytes), into `out`.
    @inline(__always)
    static func mul(_ coverage: UnsafePointer<UInt8>, by a: UInt32, count: Int, into out: UnsafeMutablePointer<UInt8>,
                    avx2: Bool) {
        #if arch(x86_64)
        if avx2 {
            CLinux_mul_coverage_avx2(out, coverage, count, a)
            return
        }
        #endif
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: mul(a, UInt32(coverage[i]))) }
    }

    /// `values[i]` times `by[i] / 255`, rounded to nearest (`mul`'s bytes), in place.
    @inline(__always)
    static func mul(_ values: UnsafeMutablePointer<UInt8>, by m: UnsafePointer<UInt8>, count: Int, avx2: Bool) {
        #if arch(x86_64)
        if avx2 {
            CLinux_mul_bytes_avx2(values, m, count)
            return
        }
        #endif
        for i in 0..<count { values[i] = UInt8(truncatingIfNeeded: mul(UInt32(values[i]), UInt32(m[i]))) }
    }

    /// The alpha bytes of `count` pixels into `out`.
    @inline(__always)
    static func alphas(of pixels: UnsafePointer<UInt32>, count: Int, into out: UnsafeMutablePointer<UInt8>, avx2: Bool) {
        #if arch(x86_64)
        if avx2 {
            CLinux_alpha_bytes_avx2(out, pixels, count)
            return
        }
        #endif
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: pixels[i] >> 24) }
    }

    /// Every channel of `p` times `a / 255`, rounded to nearest (`a` in 0...255).
    ///
    /// Red and blue, then alpha and green, are done together in the halves of one `UInt32`:
    /// each product is below 65536, so the lanes never carry into each other.
    @inline(__always)
    static func scale(_ p: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Premultiplied source-over: `s + d·(255 − sα)/255`.
    @inline(__always)
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        s &+ scale(d, 255 &- (s >> 24))
    }

    /// The straight interpolation `s·c + d·(255 − c)`, both rounded (copy under coverage `c`).
    @inline(__always)
    static func lerp(_ s: UInt32, _ d: UInt32, _ c: UInt32) -> UInt32 {
        scale(s, c) &+ scale(d, 255 &- c)
    }
}

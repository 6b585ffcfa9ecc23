// PixelMath+SIMD: the same 8-bit premultiplied arithmetic as PixelMath, eight pixels at a time.
// Every lane computes exactly what the scalar function computes (same integer formulas), so the
// vector kernels are bit-identical to the scalar reference; KernelDifferentialTests checks it.

import CLinux

typealias Pixels8 = SIMD8<UInt32>
typealias Pixels4 = SIMD4<UInt32>

extension PixelMath {
    /// Eight pixels loaded from `p` (no alignment needed).
    @inline(__always)
    static func load8(_ p: UnsafePointer<UInt32>) -> Pixels8 {
        UnsafeRawPointer(p).loadUnaligned(as: Pixels8.self)
    }

    /// Stores eight pixels at `p`.
    @inline(__always)
    static func store8(_ v: Pixels8, _ p: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Pixels8.self)
    }

    /// Eight coverage bytes widened to lanes (see CLinux_widen8).
    @inline(__always)
    static func load8(_ p: UnsafePointer<UInt8>) -> Pixels8 {
        CLinux_widen8(p)
    }

    /// ``scale(_:_:)`` lane by lane.
    ///
    /// Done in 16-bit lanes (red and blue, then alpha and green, each widened to 16 bits), because
    /// x86-64's baseline has a 16-bit vector multiply but no 32-bit one: `x·a + 128` stays below
    /// 65536, so the lanes never overflow, and the result equals the scalar one exactly.
    @inline(__always)
    static func scale8(_ p: Pixels8, _ a: Pixels8) -> Pixels8 {
        let a16 = unsafeBitCast(a | (a &<< 16), to: SIMD16<UInt16>.self)
        let lo = Pixels8(repeating: 0x00FF_00FF)
        @inline(__always) func mul(_ x: Pixels8) -> Pixels8 {
            let t = unsafeBitCast(x, to: SIMD16<UInt16>.self) &* a16 &+ 128
            return unsafeBitCast((t &+ (t &>> 8)) &>> 8, to: Pixels8.self)
        }
        return mul(p & lo) | (mul((p &>> 8) & lo) &<< 8)
    }

    /// Four coverage bytes widened to lanes.
    @inline(__always)
    static func load4(_ p: UnsafePointer<UInt8>) -> Pixels4 {
        CLinux_widen4(p)
    }

    /// ``scale8(_:_:)`` on four pixels: one 128-bit register instead of two, for the short
    /// runs of a stroke's edge cells.
    @inline(__always)
    static func scale4(_ p: Pixels4, _ a: Pixels4) -> Pixels4 {
        let a16 = unsafeBitCast(a | (a &<< 16), to: SIMD8<UInt16>.self)
        let lo = Pixels4(repeating: 0x00FF_00FF)
        @inline(__always) func mul(_ x: Pixels4) -> Pixels4 {
            let t = unsafeBitCast(x, to: SIMD8<UInt16>.self) &* a16 &+ 128
            return unsafeBitCast((t &+ (t &>> 8)) &>> 8, to: Pixels4.self)
        }
        return mul(p & lo) | (mul((p &>> 8) & lo) &<< 8)
    }

    /// ``over8(_:_:)`` on four pixels.
    @inline(__always)
    static func over4(_ s: Pixels4, _ d: Pixels4) -> Pixels4 {
        s &+ scale4(d, Pixels4(repeating: 255) &- (s &>> 24))
    }

    /// ``over(_:_:)`` lane by lane.
    @inline(__always)
    static func over8(_ s: Pixels8, _ d: Pixels8) -> Pixels8 {
        s &+ scale8(d, Pixels8(repeating: 255) &- (s &>> 24))
    }

    /// Whether all eight pixels are zero (transparent, premultiplied): source-over of them
    /// leaves the destination as it is.
    @inline(__always)
    static func allClear(_ v: Pixels8) -> Bool {
        let h = v.lowHalf | v.highHalf
        let q = h.lowHalf | h.highHalf
        return q[0] | q[1] == 0
    }

    /// Whether all eight pixels are opaque.
    @inline(__always)
    static func allOpaque(_ v: Pixels8) -> Bool {
        let h = v.lowHalf & v.highHalf
        let q = h.lowHalf & h.highHalf
        return (q[0] & q[1]) >> 24 == 255
    }
}

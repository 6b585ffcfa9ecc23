// PixelFill: one opaque pixel value stored over a run of pixels, as fast as the CPU allows.

import CLinux

extension PixelMath {
    /// Runs this long or longer go to the C library, whose call costs more than a short loop.
    static let libraryFillMinimum = 64

    /// Stores `pixel` into the `count` pixels at `dst`. Long runs (a layer's background, the
    /// inside of a shape) go to the C library's `wmemset`, a 32-bit fill that the library picks
    /// for the CPU at load time (AVX2 or AVX-512 stores where the CPU has them); Swift's own loop
    /// is built for baseline x86-64, 16 bytes a store.
    @inline(__always)
    static func fill(_ dst: UnsafeMutablePointer<UInt32>, _ pixel: UInt32, count: Int) {
        if count >= libraryFillMinimum {
            CLinux_fill32(dst, pixel, count)
            return
        }
        dst.update(repeating: pixel, count: count)
    }
}

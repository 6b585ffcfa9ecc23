@testable import Raster
import Testing

/// The compositing kernels (with their shortcuts and vector paths) against the one-pixel-at-a-time
/// reference, on seeded random data: results must be identical.
@Suite struct KernelDifferentialTests {
    /// A random valid premultiplied pixel, biased toward opaque and transparent like real images.
    static func pixel(_ rng: inout SplitMix64) -> UInt32 {
        let a: UInt32
        switch rng.next() % 4 {
        case 0: a = 255
        case 1: a = 0
        default: a = UInt32(rng.next() % 256)
        }
        func channel() -> UInt32 { a == 0 ? 0 : UInt32(rng.next() % UInt64(a + 1)) }
        return a << 24 | channel() << 16 | channel() << 8 | channel()
    }

    /// Coverage in runs of 0, of 255 and of random values, as the rasterizer and masks produce.
    static func coverage(_ rng: inout SplitMix64, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            let run = Int(rng.next() % 20) + 1
            let kind = rng.next() % 3
            for _ in 0..<run { out.append(kind == 0 ? 0 : kind == 1 ? 255 : UInt8(truncatingIfNeeded: rng.next())) }
        }
        return Array(out.prefix(count))
    }

    /// Fixed seeds, one per mode (a `hashValue` differs on every run, so a failure could not be
    /// reproduced); a failure names its seed, round and pixel.
    @Test(arguments: [(BlendMode.normal, UInt64(0x1234)), (.copy, 0x1235), (.clear, 0x1236)])
    func kernelsMatchTheReference(mode: BlendMode, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for round in 0..<400 {
            let count = Int(rng.next() % 70) + 1
            // Some rounds use an all-opaque source, the case the vector path accelerates; some a
            // source in runs of transparent pixels, the case it skips.
            let opaque = round % 3 == 0, runsOfClear = round % 3 == 1
            let clear = Self.coverage(&rng, count: count)
            let source = (0..<count).map { i in
                opaque ? 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
                    : runsOfClear && clear[i] == 0 ? 0 : Self.pixel(&rng)
            }
            let dst = (0..<count).map { _ in Self.pixel(&rng) }
            var cov = Self.coverage(&rng, count: count)
            let c = UInt32(rng.next() % 256)
            let solid = source[0]

            var a = dst, b = dst, e = dst, f = dst
            source.withUnsafeBufferPointer { src in
                cov.withUnsafeMutableBufferPointer { cv in
                    a.withUnsafeMutableBufferPointer { Kernels.variableCoverage($0.baseAddress!, source: src.baseAddress!, count: count, coverage: cv.baseAddress!, mode: mode) }
                    b.withUnsafeMutableBufferPointer { Kernels.constantCoverage($0.baseAddress!, source: src.baseAddress!, count: count, coverage: c, mode: mode) }
                    e.withUnsafeMutableBufferPointer { Kernels.solidCoverage($0.baseAddress!, count: count, source: solid, coverage: cv.baseAddress!, mode: mode) }
                    f.withUnsafeMutableBufferPointer { Kernels.solidSpan($0.baseAddress!, count: count, source: solid, coverage: c, mode: mode) }
                }
            }
            for i in 0..<count {
                let at = Comment(rawValue: "seed 0x\(String(seed, radix: 16)), round \(round), pixel \(i)")
                #expect(a[i] == ReferenceKernels.blend(source[i], dst[i], coverage: UInt32(cov[i]), mode: mode), at)
                #expect(b[i] == ReferenceKernels.blend(source[i], dst[i], coverage: c, mode: mode), at)
                #expect(e[i] == ReferenceKernels.blend(solid, dst[i], coverage: UInt32(cov[i]), mode: mode), at)
                #expect(f[i] == ReferenceKernels.blend(solid, dst[i], coverage: c, mode: mode), at)
            }
        }
    }

    /// The grouped kernel for edge cells: every count from 1 to 40, with the pixels and coverage
    /// past the run holding other values; those pixels must come back unchanged.
    @Test func groupedSolidCoverageMatchesTheReference() {
        var rng = SplitMix64(seed: 0x1237)
        for count in 1...40 {
            for _ in 0..<20 {
                let padded = (count + 7) & ~7
                let solid = rng.next() % 2 == 0 ? 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF : Self.pixel(&rng)
                let dst = (0..<padded).map { _ in Self.pixel(&rng) }
                let cov = Self.coverage(&rng, count: padded).map { $0 == 0 ? UInt8(7) : $0 }   // no accidental zeros past the run
                let head = Array(Self.coverage(&rng, count: count))
                let coverage = head + cov[count...]
                // The Swift loop, and the AVX2 one where the CPU has it.
                for avx2 in Kernels.hasAVX2 ? [false, true] : [false] {
                    var a = dst
                    coverage.withUnsafeBufferPointer { cv in
                        a.withUnsafeMutableBufferPointer {
                            Kernels.solidCoverageInGroups($0.baseAddress!, count: count, source: solid, coverage: cv.baseAddress!, avx2: avx2)
                        }
                    }
                    for i in 0..<padded {
                        let expected = i < count ? ReferenceKernels.blend(solid, dst[i], coverage: UInt32(head[i]), mode: .normal) : dst[i]
                        #expect(a[i] == expected, "count \(count), pixel \(i), AVX2 \(avx2)")
                    }
                }
            }
        }
    }

    /// The AVX2 sweeps read a row's runs of cells as pairs of 32-bit first and last cells.
    @Test func runsOfCellsArePairsOfInt32() {
        #expect(MemoryLayout<Rasterizer.Cells>.size == 8 && MemoryLayout<Rasterizer.Cells>.stride == 8)
        #expect(MemoryLayout<Rasterizer.Cells>.offset(of: \.x0) == 0 && MemoryLayout<Rasterizer.Cells>.offset(of: \.x1) == 4)
    }

    /// Pixel runs on both sides of the length where fills go to the C library: every pixel of the
    /// run set, the neighbours on either side untouched.
    @Test func fillStoresExactlyTheRun() {
        for count in [0, 1, 7, PixelMath.libraryFillMinimum - 1, PixelMath.libraryFillMinimum, 333] {
            var row = [UInt32](repeating: 0x1234_5678, count: count + 2)
            row.withUnsafeMutableBufferPointer { PixelMath.fill($0.baseAddress! + 1, 0xFF3B_7FBF, count: count) }
            #expect(row.first == 0x1234_5678 && row.last == 0x1234_5678, "count \(count)")
            #expect(row.dropFirst().dropLast().allSatisfy { $0 == 0xFF3B_7FBF }, "count \(count)")
        }
    }

    /// A clip mask narrowed by another (a rectangle clipped inside a matte): every pair of bytes,
    /// at every length and start up to two registers, gives `PixelMath.mul`'s byte on both loops,
    /// and the bytes past the row stay as they were.
    @Test func maskTimesMaskIsTheProductOfEachPair() {
        let all = (0..<65536).map { UInt8(truncatingIfNeeded: $0 >> 8) }, by = (0..<65536).map { UInt8(truncatingIfNeeded: $0) }
        for avx2 in [false, true] where !avx2 || Kernels.hasAVX2 {
            var values = all
            values.withUnsafeMutableBufferPointer { v in
                by.withUnsafeBufferPointer { PixelMath.mul(v.baseAddress!, by: $0.baseAddress!, count: 65536, avx2: avx2) }
            }
            let wrong = (0..<65536).filter { UInt32(values[$0]) != PixelMath.mul(UInt32(all[$0]), UInt32(by[$0])) }
            #expect(wrong.isEmpty, "avx2 \(avx2): \(wrong.count) differ, first at \(wrong.first ?? 0)")
            for start in 0..<16 {
                for count in 0..<40 {
                    var row = Array(all[1000..<1080])
                    let m = Array(by[3000..<3080])
                    row.withUnsafeMutableBufferPointer { r in
                        m.withUnsafeBufferPointer { PixelMath.mul(r.baseAddress! + start, by: $0.baseAddress! + start, count: count, avx2: avx2) }
                    }
                    let expected = (0..<80).map { i in
                        i >= start && i < start + count ? UInt8(PixelMath.mul(UInt32(all[1000 + i]), UInt32(m[i]))) : all[1000 + i]
                    }
                    #expect(row == expected, "avx2 \(avx2), start \(start), count \(count)")
                }
            }
        }
    }

    /// A picture's alpha into a clip mask: every start and length up to three registers of
    /// random pixels gives each pixel's top byte on both loops, the bytes past the row untouched.
    @Test func alphaBytesAreEachPixelsTopByte() {
        var rng = SplitMix64(seed: 0xA1FA)
        let pixels = (0..<120).map { _ in Self.pixel(&rng) }
        for avx2 in [false, true] where !avx2 || Kernels.hasAVX2 {
            for start in 0..<8 {
                for count in 0..<100 {
                    var out = [UInt8](repeating: 0x5A, count: 120)
                    pixels.withUnsafeBufferPointer { p in
                        out.withUnsafeMutableBufferPointer { PixelMath.alphas(of: p.baseAddress! + start, count: count, into: $0.baseAddress! + start, avx2: avx2) }
                    }
                    let expected = (0..<120).map { i in i >= start && i < start + count ? UInt8(pixels[i] >> 24) : 0x5A }
                    #expect(out == expected, "avx2 \(avx2), start \(start), count \(count)")
                }
            }
        }
    }
}

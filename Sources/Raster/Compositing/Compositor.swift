// Compositor: the coverage sink that paints into a Bitmap. Coverage, global alpha and the clip
// mask multiply into one 8-bit coverage per pixel; the shader supplies source pixels; the blend
// mode combines them with the destination. Spans of constant coverage with a solid colour (the
// inside of a shape) take a fast path that needs no source row and no per-pixel coverage.

import CLinux

/// Paints rasterizer output into bitmap memory.
struct Compositor: CoverageSink {
    let pixels: UnsafeMutablePointer<UInt32>
    let stride: Int
    let shader: Shader
    /// Global alpha, 0...255.
    let alpha: UInt32
    let mode: BlendMode
    /// The clip mask (full target size, `maskStride` bytes per row), if any.
    let mask: UnsafeMutablePointer<UInt8>?
    let maskStride: Int
    /// Scratch rows at least as wide as the target.
    let sourceScratch: UnsafeMutablePointer<UInt32>
    let coverageScratch: UnsafeMutablePointer<UInt8>
    /// Whether the AVX2 loops may run (asked once per compositor, not per run).
    var usesAVX2 = Kernels.hasAVX2

    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
        let c = PixelMath.mul(UInt32(coverage), alpha)
        guard c != 0 else { return }
        let dst = pixels + y * stride + x
        if let mask {
            let m = mask + y * maskStride + x
            // Under full coverage the mask row is the coverage: no copy.
            if c == 255 { blend(dst, x: x, y: y, count: count, coverage: m); return }
            for i in 0..<count { coverageScratch[i] = UInt8(PixelMath.mul(UInt32(m[i]), c)) }
            blend(dst, x: x, y: y, count: count, coverage: coverageScratch)
            return
        }
        if case let .solid(s) = shader {
            Kernels.solidSpan(dst, count: count, source: s, coverage: c, mode: mode)
        } else {
            let src = shader.row(x: x, y: y, count: count, scratch: sourceScratch)
            Kernels.constantCoverage(dst, source: src, count: count, coverage: c, mode: mode)
        }
    }

    /// A solid colour by source-over, no mask, no global alpha, on a CPU with AVX2: the
    /// rasterizer blends the edge cells as it sweeps them.
    var solidOverTarget: (pixels: UnsafeMutablePointer<UInt32>, stride: Int, color: UInt32)? {
        guard usesAVX2, mask == nil, alpha == 255, mode == .normal, case let .solid(s) = shader else { return nil }
        return (pixels, stride, s)
    }

    /// Inlined for a solid colour drawn by source-over with no mask or global alpha (a stroke's
    /// edge cells, a few pixels a call): the rest of the compositor stays out of line.
    @inline(__always)
    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let count = coverage.count
        if mask == nil, alpha == 255, case let .solid(s) = shader, mode == .normal, x + (count + 7) & ~7 <= stride {
            // The row has room for whole groups of eight, and the rasterizer pads its coverage.
            Kernels.solidCoverageInGroups(pixels + y * stride + x, count: count, source: s, coverage: coverage.baseAddress!,
                                          avx2: usesAVX2)
            return
        }
        generalCells(y: y, x: x, coverage: coverage)
    }

    private mutating func generalCells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let count = coverage.count
        let cov = coverageScratch
        if let mask {
            let m = mask + y * maskStride + x
            for i in 0..<count { cov[i] = UInt8(PixelMath.mul(PixelMath.mul(UInt32(coverage[i]), alpha), UInt32(m[i]))) }
        } else if alpha == 255 {
            // The rasterizer's row is the coverage: composited from where it lies, no copy.
            let dst = pixels + y * stride + x
            if case let .solid(s) = shader, mode == .normal, x + (count + 7) & ~7 <= stride {
                // The row has room for whole groups of eight, and the rasterizer pads its coverage.
                Kernels.solidCoverageInGroups(dst, count: count, source: s, coverage: coverage.baseAddress!, avx2: usesAVX2)
                return
            }
            blend(dst, x: x, y: y, count: count, coverage: UnsafeMutablePointer(mutating: coverage.baseAddress!))
            return
        } else {
            for i in 0..<count { cov[i] = UInt8(PixelMath.mul(UInt32(coverage[i]), alpha)) }
        }
        blend(pixels + y * stride + x, x: x, y: y, count: count, coverage: cov)
    }

    @inline(__always)
    private func blend(_ dst: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: UnsafeMutablePointer<UInt8>) {
        if case let .solid(s) = shader {
            Kernels.solidCoverage(dst, count: count, source: s, coverage: coverage, mode: mode)
        } else {
            let src = shader.row(x: x, y: y, count: count, scratch: sourceScratch)
            Kernels.variableCoverage(dst, source: src, count: count, coverage: coverage, mode: mode)
        }
    }
}

/// The pixel loops, one per combination of source kind and coverage kind. Source-over, the
/// common mode, runs eight pixels at a time (PixelMath+SIMD) with a scalar tail, and leaves
/// the destination untouched where the source (or the coverage) is all zero; copy and clear
/// stay scalar. Measured at 1920x1080, drawing a full-frame image over an opaque background
/// (median per frame, scalar → vector): translucent image 8.1 → 1.0 ms, opaque image at global
/// alpha 0.7 2.5 → 2.0 ms, opaque image 0.50 → 0.46 ms.
enum Kernels {
    /// A solid colour under one coverage `c` (0...255).
    @inline(__always)
    static func solidSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage c: UInt32, mode: BlendMode) {
        switch mode {
        case .normal:
            let sc = PixelMath.scale(s, c)
            if sc >> 24 == 255 { PixelMath.fill(dst, sc, count: count); return }
            if sc == 0 { return }
            let inv = 255 - (sc >> 24)
            var i = 0
            let sc8 = Pixels8(repeating: sc), inv8 = Pixels8(repeating: inv)
            while i + 8 <= count {
                PixelMath.store8(sc8 &+ PixelMath.scale8(PixelMath.load8(dst + i), inv8), dst + i)
                i += 8
            }
            let rest = count - i
            if rest >= 3 {
                // The tail through the vector lanes too (the same formula, so the same pixels):
                // short spans, such as the rows of small translucent squares, are mostly tail.
                var tail = Pixels8(repeating: 0)
                for k in 0..<rest { tail[k] = dst[i + k] }
                tail = sc8 &+ PixelMath.scale8(tail, inv8)
                for k in 0..<rest { dst[i + k] = tail[k] }
                return
            }
            while i < count { dst[i] = sc &+ PixelMath.scale(dst[i], inv); i += 1 }
        case .copy:
            if c == 255 { dst.update(repeating: s, count: count); return }
            let sc = PixelMath.scale(s, c), inv = 255 - c
            for i in 0..<count { dst[i] = sc &+ PixelMath.scale(dst[i], inv) }
        case .clear:
            if c == 255 { dst.update(repeating: 0, count: count); return }
            let inv = 255 - c
            for i in 0..<count { dst[i] = PixelMath.scale(dst[i], inv) }
        }
    }

    /// A solid colour under per-pixel coverage.
    @inline(__always)
    static func solidCoverage(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage: UnsafeMutablePointer<UInt8>, mode: BlendMode) {
        switch mode {
        case .normal:
            var i = 0
            let s8 = Pixels8(repeating: s)
            while i + 8 <= count {
                let word = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
                if word != 0 {
                    let c8 = PixelMath.load8(UnsafePointer(coverage + i))
                    PixelMath.store8(PixelMath.over8(PixelMath.scale8(s8, c8), PixelMath.load8(dst + i)), dst + i)
                }
                i += 8
            }
            let rest = count - i
            if rest >= 3 {
                // The tail through the vector lanes (the same formula, so the same pixels): the
                // rasterizer's edge cells come in runs of a few pixels, mostly tail.
                var d8 = Pixels8(repeating: 0), c8 = Pixels8(repeating: 0)
                for k in 0..<rest { d8[k] = dst[i + k]; c8[k] = UInt32(coverage[i + k]) }
                d8 = PixelMath.over8(PixelMath.scale8(s8, c8), d8)
                for k in 0..<rest { dst[i + k] = d8[k] }
                return
            }
            while i < count {
                let c = UInt32(coverage[i])
                if c != 0 { dst[i] = PixelMath.over(PixelMath.scale(s, c), dst[i]) }
                i += 1
            }
        case .copy:
            for i in 0..<count { dst[i] = PixelMath.lerp(s, dst[i], UInt32(coverage[i])) }
        case .clear:
            for i in 0..<count { dst[i] = PixelMath.scale(dst[i], 255 - UInt32(coverage[i])) }
        }
    }

    /// ``solidCoverage(_:count:source:coverage:mode:)`` in `.normal` mode of the opaque colour `s`
    /// onto pixels that all hold the opaque `background`, without reading them: the same
    /// formulas, so the same pixels (at coverage 255 the colour itself, at 0 the background).
    @inline(__always)
    static func solidOverBackground(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, background: UInt32,
                                    coverage: UnsafePointer<UInt8>) {
        var i = 0
        let s8 = Pixels8(repeating: s), b8 = Pixels8(repeating: background)
        while i + 8 <= count {
            let word = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
            if word == ~0 {
                PixelMath.store8(s8, dst + i)
            } else if word == 0 {
                PixelMath.store8(b8, dst + i)
            } else {
                PixelMath.store8(PixelMath.over8(PixelMath.scale8(s8, PixelMath.load8(coverage + i)), b8), dst + i)
            }
            i += 8
        }
        while i < count {
            let c = UInt32(coverage[i])
            dst[i] = c == 0 ? background : PixelMath.over(PixelMath.scale(s, c), background)
            i += 1
        }
    }

    /// Whether this CPU runs the AVX2 kernels in CLinux.
    static let hasAVX2: Bool = {
        #if arch(x86_64)
        CLinux_has_avx2() != 0
        #else
        false
        #endif
    }()

    /// ``solidCoverageInGroups(_:count:source:coverage:)`` on AVX2 when `avx2` (the same pixels,
    /// eight to one register and about half the instructions: a stroke's edge cells).
    @inline(__always)
    static func solidCoverageInGroups(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage: UnsafePointer<UInt8>,
                                      avx2: Bool) {
        #if arch(x86_64)
        if avx2 { CLinux_solid_over_groups_avx2(dst, count, s, coverage); return }
        #endif
        solidCoverageInGroups(dst, count: count, source: s, coverage: coverage)
    }

    /// Source-over of a solid colour under per-pixel coverage, eight pixels at a time including the
    /// last, partial group: its lanes past `count` get coverage 0, under which source-over gives
    /// the destination back exactly, so those pixels are stored unchanged. The rasterizer's edge
    /// cells come in runs of a few pixels; one group costs less than filling lanes one by one.
    /// `dst` and `coverage` must be readable (and `dst` writable) up to `count` rounded up to 8,
    /// and no other thread may write those extra pixels meanwhile.
    @inline(__always)
    static func solidCoverageInGroups(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage: UnsafePointer<UInt8>) {
        let s8 = Pixels8(repeating: s)
        var i = 0
        while i + 8 <= count {
            let word = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
            if word != 0 {
                let c8 = PixelMath.load8(coverage + i)
                PixelMath.store8(PixelMath.over8(PixelMath.scale8(s8, c8), PixelMath.load8(dst + i)), dst + i)
            }
            i += 8
        }
        let rest = count - i
        guard rest > 0 else { return }
        if rest <= 4 {
            // A third of the rays' stroke runs: half the vector work of a group of eight.
            let p = UnsafeMutableRawPointer(dst + i)
            var c4 = PixelMath.load4(coverage + i)
            c4.replace(with: 0, where: Pixels4(0, 1, 2, 3) .>= Pixels4(repeating: UInt32(rest)))
            let d4 = p.loadUnaligned(as: Pixels4.self)
            p.storeBytes(of: PixelMath.over4(PixelMath.scale4(Pixels4(repeating: s), c4), d4), as: Pixels4.self)
            return
        }
        let lanes = Pixels8(0, 1, 2, 3, 4, 5, 6, 7)
        var c8 = PixelMath.load8(coverage + i)
        c8.replace(with: 0, where: lanes .>= Pixels8(repeating: UInt32(rest)))
        PixelMath.store8(PixelMath.over8(PixelMath.scale8(s8, c8), PixelMath.load8(dst + i)), dst + i)
    }

    /// Source pixels under one coverage `c`.
    @inline(__always)
    static func constantCoverage(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, count: Int, coverage c: UInt32, mode: BlendMode) {
        switch mode {
        case .normal:
            var i = 0
            if c == 255 {
                while i + 8 <= count {
                    copyOrOver8(dst + i, source + i)
                    i += 8
                }
                while i < count {
                    if source[i] != 0 { dst[i] = PixelMath.over(source[i], dst[i]) }
                    i += 1
                }
            } else {
                let c8 = Pixels8(repeating: c)
                while i + 8 <= count {
                    let v = PixelMath.load8(source + i)
                    if !PixelMath.allClear(v) {
                        PixelMath.store8(PixelMath.over8(PixelMath.scale8(v, c8), PixelMath.load8(dst + i)), dst + i)
                    }
                    i += 8
                }
                while i < count {
                    if source[i] != 0 { dst[i] = PixelMath.over(PixelMath.scale(source[i], c), dst[i]) }
                    i += 1
                }
            }
        case .copy:
            if c == 255 { dst.update(from: source, count: count); return }
            for i in 0..<count { dst[i] = PixelMath.lerp(source[i], dst[i], c) }
        case .clear:
            solidSpan(dst, count: count, source: 0, coverage: c, mode: .clear)
        }
    }

    /// Source pixels under per-pixel coverage.
    ///
    /// Masks are mostly 0 (outside the shape) or 255 (inside), so source-over looks at eight
    /// coverage bytes at a time: all zero skips them, all 255 needs no scaling of the source.
    @inline(__always)
    static func variableCoverage(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, count: Int, coverage: UnsafeMutablePointer<UInt8>, mode: BlendMode) {
        switch mode {
        case .normal:
            var i = 0
            while i + 8 <= count {
                let word = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
                if word == ~0 {
                    copyOrOver8(dst + i, source + i)
                } else if word != 0 {
                    let v = PixelMath.load8(source + i)
                    if !PixelMath.allClear(v) {
                        let s = PixelMath.scale8(v, PixelMath.load8(UnsafePointer(coverage + i)))
                        PixelMath.store8(PixelMath.over8(s, PixelMath.load8(dst + i)), dst + i)
                    }
                }
                i += 8
            }
            while i < count {
                let c = UInt32(coverage[i])
                if c != 0, source[i] != 0 { dst[i] = PixelMath.over(PixelMath.scale(source[i], c), dst[i]) }
                i += 1
            }
        case .copy:
            for i in 0..<count { dst[i] = PixelMath.lerp(source[i], dst[i], UInt32(coverage[i])) }
        case .clear:
            for i in 0..<count { dst[i] = PixelMath.scale(dst[i], 255 - UInt32(coverage[i])) }
        }
    }

    /// Source-over of eight source pixels under full coverage: stored as they are when all are
    /// opaque (the common case for images), skipped when all are transparent (the margins of
    /// glyphs, icons and sprites), blended otherwise.
    @inline(__always)
    static func copyOrOver8(_ dst: UnsafeMutablePointer<UInt32>, _ source: UnsafePointer<UInt32>) {
        let v = PixelMath.load8(source)
        if PixelMath.allOpaque(v) {
            PixelMath.store8(v, dst)
        } else if !PixelMath.allClear(v) {
            PixelMath.store8(PixelMath.over8(v, PixelMath.load8(dst)), dst)
        }
    }
}

/// The per-pixel definitions the kernels must match: one pixel at a time, no shortcuts.
/// The differential tests compare every kernel against these.
enum ReferenceKernels {
    static func blend(_ s: UInt32, _ d: UInt32, coverage c: UInt32, mode: BlendMode) -> UInt32 {
        switch mode {
        case .normal: return PixelMath.over(PixelMath.scale(s, c), d)
        case .copy: return PixelMath.lerp(s, d, c)
        case .clear: return PixelMath.scale(d, 255 - c)
        }
    }
}

// GraphicsContext+PendingFill: an opaque background written together with the fill drawn over it.
//
// A layer's opaque background fills its whole rectangle, and the shape drawn over it next covers
// much of that rectangle again: rays cover half the frame with opaque interior spans. Written
// one after the other, the background's pixels under those spans are stored and then stored
// again, and by the time the shape's edge cells are blended, the background written over a
// whole frame has left the cache, so every blend reads its destination from memory. Held back,
// the background is written row by row just ahead of the shape's coverage: not at all under
// opaque spans, and right before the edge cells that blend over it. The pixels are the same as
// drawing the two one after the other.

extension GraphicsContext {
    /// An opaque rectangle fill not yet written (``defersOpaqueFills``).
    struct PendingFill {
        /// Device pixels, inside the clip bounds in force when it was drawn.
        var rect: IntRect
        /// The opaque premultiplied colour.
        var pixel: UInt32
        /// The number of saved states when it was drawn; restoring below it writes the fill.
        var depth: Int
    }

    /// Holds back an opaque fill of the pixel rectangle `rect` (already clipped), when the
    /// context defers such fills and the state allows it; false means draw it now.
    func deferOpaqueFill(_ rect: IntRect, pixel: UInt32) -> Bool {
        guard defersOpaqueFills, !stack.isEmpty, pixel >> 24 == 255, compositingAlpha == 255,
              state.clipMask == nil, state.rectClip?.isRasterized ?? true, state.blendMode == .normal, !rect.isEmpty else { return false }
        // A fill hidden under the new one never shows: drop it instead of writing it.
        if let old = pendingFill, !(rect.contains(old.rect)) { writePendingFill(old.rect) }
        pendingFill = PendingFill(rect: rect, pixel: pixel, depth: stack.count)
        return true
    }

    /// Writes the held-back fill, if any, so the bitmap holds everything drawn so far.
    @inline(__always)
    func flushPendingFill() {
        if let p = pendingFill { writePendingFill(p.rect) }
    }

    /// Writes the pending fill within `region` and forgets it.
    private func writePendingFill(_ region: IntRect) {
        guard let p = pendingFill else { return }
        pendingFill = nil
        write(region.intersection(p.rect), p.pixel)
    }

    /// Stores `pixel` over the pixel rectangle `r` (inside the bitmap).
    private func write(_ r: IntRect, _ pixel: UInt32) {
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { PixelMath.fill(bitmap.pixels + y * bitmap.stride + r.x, pixel, count: r.width) }
    }

    /// A compositor for `shader` that writes the pending fill just ahead of the coverage, when
    /// the pending fill holds the whole clip; `nil` (the pending fill written) otherwise.
    func fusedCompositor(shader: Shader) -> BackgroundFusingSink? {
        guard let p = pendingFill else { return nil }
        let clip = state.clipBounds
        guard !clip.isEmpty, p.rect.contains(clip) else { flushPendingFill(); return nil }
        // What lies outside the clip is not drawn over: written now, in up to four strips.
        let r = p.rect
        write(IntRect(x: r.x, y: r.y, width: r.width, height: clip.y - r.y), p.pixel)
        write(IntRect(x: r.x, y: clip.maxY, width: r.width, height: r.maxY - clip.maxY), p.pixel)
        write(IntRect(x: r.x, y: clip.y, width: clip.x - r.x, height: clip.height), p.pixel)
        write(IntRect(x: clip.maxX, y: clip.y, width: r.maxX - clip.maxX, height: clip.height), p.pixel)
        pendingFill = nil
        let inner = compositor(shader: shader)
        var opaque = false, solid: UInt32?, maskedOpaque: UInt32?
        if case let .solid(s) = shader, inner.mask == nil, inner.mode == .normal {
            opaque = s >> 24 == 255 && inner.alpha == 255
            solid = s
            fusedBlends.reset(count: 256, to: 0)
        } else if case let .solid(s) = shader, inner.mode == .normal, s >> 24 == 255, inner.alpha == 255 {
            maskedOpaque = s
        }
        return BackgroundFusingSink(inner: inner, rect: clip, pixel: p.pixel, opaqueAtFullCoverage: opaque,
                                    solid: solid, blends: fusedBlends.base, maskedOpaque: maskedOpaque)
    }
}

extension IntRect {
    /// Whether every pixel of `other` is in this rectangle (an empty `other` is).
    func contains(_ other: IntRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }
}

/// Writes an opaque background over `rect`, row by row and left to right, just ahead of the
/// coverage it passes on to `inner`: under a span the source replaces outright it writes nothing.
/// The rasterizer emits rows top to bottom and each row's pieces left to right without overlap,
/// which is what lets a cursor track how far the background has been written.
struct BackgroundFusingSink: CoverageSink {
    var inner: Compositor
    let rect: IntRect
    let pixel: UInt32
    /// Whether a full-coverage span replaces the destination (solid opaque source-over, no mask,
    /// no global alpha), so the background under it need not be written.
    let opaqueAtFullCoverage: Bool
    /// The source colour, when it is solid and blends by source-over with no mask: then each
    /// edge cell is the colour at the cell's coverage over the background, one of at most 256
    /// pixels, looked up in `blends` (0 until first needed: a blend over an opaque background
    /// is never 0) instead of writing the background and blending over it.
    let solid: UInt32?
    let blends: UnsafeMutablePointer<UInt32>
    /// The source colour, when it is solid and opaque and blends by source-over through a clip
    /// mask (a layer's background inside its own rounded clip): a full-coverage span is then the
    /// colour over the background at the mask's coverage, worked out without writing the
    /// background first and reading it back.
    let maskedOpaque: UInt32?
    private var cursorY: Int
    private var cursorX: Int

    init(inner: Compositor, rect: IntRect, pixel: UInt32, opaqueAtFullCoverage: Bool,
         solid: UInt32?, blends: UnsafeMutablePointer<UInt32>, maskedOpaque: UInt32? = nil) {
        self.inner = inner
        self.maskedOpaque = maskedOpaque
        self.rect = rect
        self.pixel = pixel
        self.opaqueAtFullCoverage = opaqueAtFullCoverage
        self.solid = solid
        self.blends = blends
        cursorY = rect.y
        cursorX = rect.x
        if let solid, inner.usesAVX2 {
            // The rasterizer's AVX2 sweep looks every cell up: all 256 made now (a few thousand
            // instructions a shape).
            for c in 0..<256 { blends[c] = Self.blend(solid, coverage: c, alpha: inner.alpha, over: pixel) }
        }
    }

    /// The solid source at coverage `c` (and global alpha) over the background: what the
    /// compositor's cells would compute (the same formula).
    @inline(__always)
    private static func blend(_ s: UInt32, coverage c: Int, alpha: UInt32, over pixel: UInt32) -> UInt32 {
        let cc = alpha == 255 ? UInt32(c) : PixelMath.mul(UInt32(c), alpha)
        return PixelMath.over(PixelMath.scale(s, cc), pixel)
    }

    /// Every pixel of the rectangle is `blends` at its coverage: the source at that coverage over
    /// the background, outright where it is opaque, and the background where it is 0 (a span's
    /// blend and the cells' lookup compute the same). So the rasterizer may write a row's pixels
    /// from the table itself, after the background left of them.
    mutating func lookupRow(y: Int, from x0: Int, to x1: Int) -> (pixels: UnsafeMutablePointer<UInt32>, table: UnsafePointer<UInt32>)? {
        guard solid != nil, inner.usesAVX2, x0 >= rect.x, x1 <= rect.maxX, y >= rect.y, y < rect.maxY else { return nil }
        advance(y: y, x: x0)
        cursorX = x1
        return (inner.pixels + y * inner.stride, UnsafePointer(blends))
    }

    /// ``lookupRow(y:from:to:)`` for a band of whole rows of the rectangle (narrower rows would
    /// leave the background either side of each to write).
    mutating func lookupRows(_ rows: Range<Int>, from x0: Int, to x1: Int)
        -> (pixels: UnsafeMutablePointer<UInt32>, stride: Int, table: UnsafePointer<UInt32>)? {
        guard solid != nil, inner.usesAVX2, !rows.isEmpty, x0 == rect.x, x1 == rect.maxX,
              rows.lowerBound >= rect.y, rows.upperBound <= rect.maxY else { return nil }
        advance(y: rows.lowerBound, x: x0)
        cursorY = rows.upperBound - 1
        cursorX = x1
        return (inner.pixels + rows.lowerBound * inner.stride, inner.stride, UnsafePointer(blends))
    }

    /// Writes the background up to column `x` of row `y` (rows above it to their ends).
    @inline(__always)
    private mutating func advance(y: Int, x: Int) {
        while cursorY < y {
            background(row: cursorY, from: cursorX, to: rect.maxX)
            cursorY += 1
            cursorX = rect.x
        }
        background(row: y, from: cursorX, to: x)
    }

    @inline(__always)
    private func background(row y: Int, from x0: Int, to x1: Int) {
        guard x1 > x0 else { return }
        PixelMath.fill(inner.pixels + y * inner.stride + x0, pixel, count: x1 - x0)
    }

    // Inlined, like cells(y:x:coverage:): the fill's rows are pieces of a few pixels each, and
    // a call per piece spilled and reloaded the sweep's registers.
    @inline(__always)
    mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
        advance(y: y, x: x)
        if opaqueAtFullCoverage && coverage == 255, let s = solid {
            // The source replaces the pixels: stored straight, as the compositor would store it.
            PixelMath.fill(inner.pixels + y * inner.stride + x, s, count: count)
        } else if coverage == 255, let s = maskedOpaque, let mask = inner.mask {
            Kernels.solidOverBackground(inner.pixels + y * inner.stride + x, count: count, source: s, background: pixel,
                                        coverage: mask + y * inner.maskStride + x)
        } else {
            background(row: y, from: x, to: x + count)
            inner.span(y: y, x: x, count: count, coverage: coverage)
        }
        cursorX = x + count
    }

    @inline(__always)
    mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        guard let s = solid else {
            advance(y: y, x: x + coverage.count)
            inner.cells(y: y, x: x, coverage: coverage)
            cursorX = x + coverage.count
            return
        }
        advance(y: y, x: x)
        let dst = inner.pixels + y * inner.stride + x
        let alpha = inner.alpha
        for i in 0..<coverage.count {
            let c = Int(coverage[i])
            var p = blends[c]
            if p == 0 {
                p = Self.blend(s, coverage: c, alpha: alpha, over: pixel)
                blends[c] = p
            }
            dst[i] = p
        }
        cursorX = x + coverage.count
    }

    mutating func rowsDone(before y: Int) {
        advance(y: min(y, rect.maxY), x: rect.x)
    }

    /// Writes the background over the rest of the rectangle.
    mutating func finish() {
        advance(y: rect.maxY, x: rect.x)
    }
}

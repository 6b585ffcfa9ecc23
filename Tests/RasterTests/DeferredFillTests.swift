@testable import Raster
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An opaque background held back by `defersOpaqueFills` and written with the fill drawn over it
/// gives exactly the pixels of drawing the two one after the other.
@Suite struct DeferredFillTests {
    static let width = 61, height = 47

    static func context(deferring: Bool, seed: UInt64) throws -> GraphicsContext {
        let bitmap = try Bitmap(width: width, height: height)
        var rng = SplitMix64(seed: seed)
        for i in 0..<(width * height) { bitmap.pixels[i] = KernelDifferentialTests.pixel(&rng) }
        let context = GraphicsContext(bitmap: bitmap)
        context.defersOpaqueFills = deferring
        return context
    }

    static func differences(_ a: Bitmap, _ b: Bitmap) -> Int {
        var n = 0
        for i in 0..<(width * height) where a.pixels[i] != b.pixels[i] { n += 1 }
        return n
    }

    /// A background, then a rotated star over part of it, then its stroke: the held-back
    /// background is written with the star's fill, not before it.
    @Test func backgroundUnderAShapeIsWrittenWithIt() throws {
        var star = Path()
        for k in 0..<10 {
            let r = k % 2 == 0 ? 40.0 : 15.0, a = Double(k) * .pi / 5 + 0.3
            let p = Point(x: 30 + r * cos(a), y: 24 + r * sin(a))
            if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        var results: [Bitmap] = []
        for deferring in [false, true] {
            let context = try Self.context(deferring: deferring, seed: 7)
            context.saveGState()
            context.clip(to: Rect(x: 3, y: 2, width: 50, height: 40))
            context.setFillColor(Color(rgb: 0x24507A))
            context.fill(Rect(x: 0, y: 0, width: 61, height: 47))
            #expect((context.pendingFill != nil) == deferring)
            context.saveGState()
            context.clip(to: Rect(x: 5, y: 4, width: 44, height: 30))
            context.setFillColor(Color(rgb: 0x3B7FBF))
            context.fill(star)
            #expect(context.pendingFill == nil)
            context.setStrokeColor(Color(rgb: 0x8CC4F2))
            context.setLineWidth(2)
            context.stroke(star)
            context.restoreGState()
            context.restoreGState()
            results.append(context.bitmap)
        }
        #expect(Self.differences(results[0], results[1]) == 0)
    }

    /// A held-back fill reaches the bitmap when the state it was drawn in is restored, or on flush.
    @Test func restoreAndFlushWriteTheHeldBackFill() throws {
        let context = try Self.context(deferring: true, seed: 8)
        let pixel = Color(rgb: 0x112233).premultipliedPixel
        context.saveGState()
        context.setFillColor(Color(rgb: 0x112233))
        context.fill(Rect(x: 2, y: 2, width: 10, height: 10))
        #expect(context.bitmap.pixels[5 * Self.width + 5] != pixel)
        context.saveGState()
        context.restoreGState()
        #expect(context.pendingFill != nil)     // an inner restore keeps it
        context.restoreGState()
        #expect(context.bitmap.pixels[5 * Self.width + 5] == pixel)
        context.saveGState()
        context.setFillColor(Color(rgb: 0x112233))
        context.fill(Rect(x: 20, y: 20, width: 5, height: 5))
        context.flush()
        #expect(context.bitmap.pixels[22 * Self.width + 22] == pixel)
        context.restoreGState()
    }

    /// Seeded random drawing, with and without holding fills back: every operation that reads or
    /// writes pixels (fills of all kinds, strokes, clips to shapes, alpha, blend modes, shadings,
    /// compositing) must see the same bitmap.
    @Test(arguments: [UInt64(0x51), 0x52, 0x53, 0x54, 0x55, 0x56])
    func randomDrawingIsTheSame(seed: UInt64) throws {
        let a = try Self.context(deferring: false, seed: seed)
        let b = try Self.context(deferring: true, seed: seed)
        Self.drawRandomly(a, b, seed: seed)
    }

    /// The AVX2 loops (a row's sweep blended or looked up as it is summed) against the portable
    /// Swift ones, in the same random drawing, held-back backgrounds and fills with strokes
    /// included: the same pixels.
    @Test(.enabled(if: Kernels.hasAVX2), arguments: [UInt64(0x61), 0x62, 0x63, 0x64, 0x65, 0x66])
    func avx2LoopsGiveThePixelsOfTheSwiftOnes(seed: UInt64) throws {
        for deferring in [false, true] {
            let a = try Self.context(deferring: deferring, seed: seed)
            a.usesAVX2Kernels = false
            let b = try Self.context(deferring: deferring, seed: seed)
            #expect(b.usesAVX2Kernels)
            Self.drawRandomly(a, b, seed: seed, checksHeldFills: deferring)
        }
    }

    /// 300 seeded random operations drawn into both contexts (either may hold fills back), whose
    /// bitmaps must agree after every flush.
    static func drawRandomly(_ a: GraphicsContext, _ b: GraphicsContext, seed: UInt64, checksHeldFills: Bool = true) {
        var rng = SplitMix64(seed: seed &* 31)
        func unit() -> Double { Double(rng.next() % 10_000) / 10_000 }
        func coordinate(_ side: Int, aligned: Bool) -> Double {
            let v = unit() * Double(side + 20) - 10
            return aligned ? v.rounded() : v
        }
        var held = 0, fused = 0
        for step in 0..<300 {
            // Weighted so that the clip does not shrink to nothing and states come and go.
            let op = [0, 2, 2, 2, 2, 3, 3, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13, 14][Int(rng.next() % 19)]
            let aligned = rng.next() % 3 != 0
            let x0 = coordinate(Self.width, aligned: aligned), y0 = coordinate(Self.height, aligned: aligned)
            let x1 = coordinate(Self.width, aligned: aligned), y1 = coordinate(Self.height, aligned: aligned)
            let rect = Rect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
            var triangle = Path()
            triangle.move(to: Point(x: x0, y: y0))
            triangle.addLine(to: Point(x: x1, y: y0 + 7))
            triangle.addLine(to: Point(x: (x0 + x1) / 2, y: y1))
            triangle.closeSubpath()
            let opaque = Color(rgb: UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF)
            let alpha = step % 2 == 0 ? 1 : unit()
            let color = rng.next() % 3 == 0 ? Color(red: unit(), green: unit(), blue: unit(), alpha: unit()) : opaque
            let wasHeld = b.pendingFill != nil
            for c in [a, b] {
                switch op {
                case 0: c.saveGState()
                case 2: c.restoreGState()
                case 3, 4:
                    c.setFillColor(opaque)
                    c.fill(rect)
                case 5:
                    // A layer's background: a new state, opaque, drawn whole.
                    c.saveGState()
                    c.setAlpha(1)
                    c.setBlendMode(.normal)
                    c.setFillColor(opaque)
                    c.fill(rect)
                    if step % 3 != 0 { c.clip(to: rect) }   // masksToBounds: what follows lies inside it
                case 6, 7:
                    c.setFillColor(color)
                    c.fill(triangle, rule: aligned ? .winding : .evenOdd)
                case 8:
                    c.setStrokeColor(color)
                    c.setLineWidth(1 + Double(step % 4))
                    c.stroke(triangle)
                case 9 where !c.stack.isEmpty: c.clip(to: rect.insetBy(dx: -20, dy: -20))
                case 10 where !c.stack.isEmpty:
                    c.beginPath()
                    c.addPath(triangle)
                    c.clip()
                case 9, 10: break
                case 14:
                    // A shape layer's fill and stroke (the rays), over a held-back background when
                    // one is pending.
                    c.setFillColor(color)
                    c.setStrokeColor(opaque)
                    c.setLineWidth(2)
                    c.setLineJoin(.round)
                    c.fillAndStroke(triangle)
                case 11: c.setAlpha(alpha)
                case 12: c.setBlendMode(step % 3 == 0 ? .copy : .normal)
                default:
                    c.setFillPaint(.linearGradient(Gradient(from: color, to: opaque), start: Point(x: x0, y: y0), end: Point(x: x1, y: y1)))
                    c.fill(triangle)
                }
            }
            if wasHeld, b.pendingFill == nil, (6...8).contains(op) || op == 13 || op == 14 { fused += 1 }
            if b.pendingFill != nil { held += 1 }
            // Between restores the deferring context may lag; after a flush both must agree.
            if step % 20 == 19 {
                a.flush()
                b.flush()
                #expect(Self.differences(a.bitmap, b.bitmap) == 0, "seed \(seed), step \(step)")
            }
        }
        while !a.stack.isEmpty { a.restoreGState() }
        while !b.stack.isEmpty { b.restoreGState() }
        #expect(Self.differences(a.bitmap, b.bitmap) == 0, "seed \(seed)")
        if checksHeldFills { #expect(held > 0 && fused > 0, "seed \(seed): \(held) fills held back, \(fused) drawn over") }
    }
}

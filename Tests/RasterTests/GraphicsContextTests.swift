import Foundation
@testable import Raster
import RasterTestSupport
import Testing

@Suite struct GraphicsContextTests {
    static func context(_ w: Int = 40, _ h: Int = 30, background: UInt32 = 0) throws -> GraphicsContext {
        let b = try Bitmap(width: w, height: h)
        b.clear(to: background)
        return GraphicsContext(bitmap: b)
    }

    @Test func pixelMathRoundsExactly() {
        for x in 0...255 as ClosedRange<UInt32> {
            for a in stride(from: 0 as UInt32, through: 255, by: 3) {
                let exact = UInt32((Double(x * a) / 255).rounded())
                #expect(PixelMath.mul(x, a) == exact)
            }
        }
        #expect(PixelMath.scale(0xFF80_40FF, 128) == 0x8040_2080)
        #expect(PixelMath.over(0x8080_0000, 0xFF00_00FF) == 0xFF80_007F)
    }

    @Test func opaqueRectangleFillsExactPixels() throws {
        let ctx = try Self.context()
        ctx.setFillColor(.red)
        ctx.fill(Rect(x: 5, y: 6, width: 10, height: 4))
        #expect(ctx.bitmap[5, 6] == 0xFFFF_0000 && ctx.bitmap[14, 9] == 0xFFFF_0000)
        #expect(ctx.bitmap[4, 6] == 0 && ctx.bitmap[15, 9] == 0 && ctx.bitmap[5, 10] == 0)
    }

    @Test func translucentSourceOverAndGlobalAlpha() throws {
        let ctx = try Self.context(background: 0xFF00_00FF)
        ctx.setFillColor(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        ctx.fill(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(ctx.bitmap[3, 3] == 0xFF80_007F)
        ctx.setFillColor(.white)
        ctx.setAlpha(0.5)
        ctx.fill(Rect(x: 20, y: 0, width: 10, height: 10))
        #expect(ctx.bitmap[25, 5] == 0xFF80_80FF)
    }

    @Test func copyAndClearBlendModes() throws {
        let ctx = try Self.context(background: 0xFF00_FF00)
        ctx.setBlendMode(.copy)
        ctx.setFillColor(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        ctx.fill(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(ctx.bitmap[5, 5] == 0x8080_0000)
        ctx.setBlendMode(.normal)
        ctx.clear(Rect(x: 20, y: 0, width: 5, height: 5))
        #expect(ctx.bitmap[22, 2] == 0 && ctx.bitmap[25, 2] == 0xFF00_FF00)
        // Clearing ignores the global alpha (as CGContextClearRect).
        ctx.setAlpha(0.3)
        ctx.clear(Rect(x: 20, y: 5, width: 2, height: 2))
        #expect(ctx.bitmap[20, 5] == 0)
        ctx.setAlpha(1)
        // Clearing half a pixel halves it.
        ctx.clear(Rect(x: 30, y: 0, width: 0.5, height: 1))
        #expect(ctx.bitmap[30, 0] == 0x7F00_7F00)  // coverage 128 of 255 leaves 127
    }

    @Test func saveAndRestoreTheState() throws {
        let ctx = try Self.context()
        ctx.saveGState()
        ctx.translateBy(x: 10, y: 5)
        ctx.setFillColor(.green)
        ctx.clip(to: Rect(x: 0, y: 0, width: 4, height: 4))
        ctx.fill(Rect(x: -100, y: -100, width: 1000, height: 1000))
        ctx.restoreGState()
        #expect(ctx.ctm == .identity)
        #expect(ctx.bitmap[10, 5] == 0xFF00_FF00 && ctx.bitmap[13, 8] == 0xFF00_FF00)
        #expect(ctx.bitmap[14, 8] == 0 && ctx.bitmap[9, 5] == 0)
        ctx.fill(Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(ctx.bitmap[0, 0] == 0xFF00_0000)
    }

    /// Random paths under random clips: pixels outside the clip rectangle are never written, and
    /// inside only with valid premultiplied values.
    @Test func randomPathsNeverWriteOutsideTheClip() throws {
        var rng = SplitMix64(seed: 99)
        let sentinel: UInt32 = 0x1234_5678
        for _ in 0..<150 {
            let ctx = try Self.context(37, 29, background: sentinel)
            let clip = IntRect(x: Int.random(in: -5...20, using: &rng), y: Int.random(in: -5...20, using: &rng),
                               width: Int.random(in: 0...30, using: &rng), height: Int.random(in: 0...30, using: &rng))
            ctx.clip(to: Rect(x: Double(clip.x), y: Double(clip.y), width: Double(clip.width), height: Double(clip.height)))
            ctx.setFillColor(Color(red: 0.2, green: 0.9, blue: 0.4, alpha: Double.random(in: 0...1, using: &rng)))
            ctx.rotate(by: Double.random(in: -3...3, using: &rng))
            let scale = [1.0, 50, 1e7].randomElement(using: &rng)!
            ctx.move(to: Point(x: Double.random(in: -scale...scale, using: &rng), y: Double.random(in: -scale...scale, using: &rng)))
            for _ in 0..<6 {
                ctx.addCurve(to: Point(x: Double.random(in: -scale...scale, using: &rng), y: Double.random(in: -scale...scale, using: &rng)),
                             control1: Point(x: Double.random(in: -scale...scale, using: &rng), y: 0),
                             control2: Point(x: 0, y: Double.random(in: -scale...scale, using: &rng)))
            }
            ctx.fillPath(using: Bool.random(using: &rng) ? .winding : .evenOdd)
            for y in 0..<29 {
                for x in 0..<37 {
                    let p = ctx.bitmap[x, y]
                    let inside = x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
                    if !inside { #expect(p == sentinel, "pixel \(x),\(y) outside \(clip) was written") }
                }
            }
        }
    }

    @Test func clipPathLimitsDrawing() throws {
        let ctx = try Self.context(40, 40)
        ctx.addEllipse(in: Rect(x: 10, y: 10, width: 20, height: 20))
        ctx.clip()
        ctx.setFillColor(.blue)
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 40))
        #expect(ctx.bitmap[20, 20] == 0xFF00_00FF)
        #expect(ctx.bitmap[11, 11] == 0 && ctx.bitmap[5, 20] == 0)
        // The edge is anti-aliased, not cut: some pixel on it is partly covered.
        #expect((10..<20).contains { x in let a = ctx.bitmap[x, 20] >> 24; return a > 0 && a < 255 })
    }

    @Test func clipToBitmapMaskMultipliesByItsAlpha() throws {
        let mask = try Bitmap(width: 2, height: 1)
        mask[0, 0] = 0xFF00_0000
        mask[1, 0] = 0x4000_0000
        let ctx = try Self.context(20, 10)
        ctx.clip(toMask: mask, in: Rect(x: 0, y: 0, width: 20, height: 10))
        ctx.setFillColor(.white)
        ctx.fill(Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(ctx.bitmap[1, 5] == 0xFFFF_FFFF)
        #expect(ctx.bitmap[18, 5] == 0x4040_4040)
    }

    @Test func drawImageFastPathMatchesTheSampledPath() throws {
        let image = try Bitmap(width: 9, height: 7)
        for y in 0..<7 { for x in 0..<9 { image[x, y] = PNGCodec.premultiply(UInt32(x * 28) << 24 | UInt32(y * 36) << 16 | 0x8040) } }
        let fast = try Self.context(30, 20, background: 0xFF10_2030)
        fast.draw(image, in: Rect(x: 4, y: 3, width: 9, height: 7))
        let sampled = try Self.context(30, 20, background: 0xFF10_2030)
        sampled.setFillPaint(.image(image, transform: Transform(a: 1, b: 0, c: 0, d: 1, tx: 4, ty: 3)))
        sampled.fill(Rect(x: 4, y: 3, width: 9, height: 7).insetBy(dx: 0, dy: 0))
        let general = try Self.context(30, 20, background: 0xFF10_2030)
        general.setFillPaint(.image(image, transform: Transform(a: 1 + 1e-12, b: 0, c: 0, d: 1, tx: 4, ty: 3)))
        general.fill(Path(elements: [.move(to: Point(x: 4, y: 3)), .line(to: Point(x: 13, y: 3)), .line(to: Point(x: 13, y: 10)), .line(to: Point(x: 4, y: 10)), .closeSubpath]))
        #expect(fast.bitmap.hasSamePixels(as: sampled.bitmap))
        #expect(fast.bitmap.hasSamePixels(as: general.bitmap))
        #expect(fast.bitmap[4, 3] == PixelMath.over(image[0, 0], 0xFF10_2030))
    }

    /// A transform undone by concatenating its inverse is the identity only up to rounding; images
    /// drawn under it still land exactly on pixels (no resampling blur).
    @Test func nearlyIdentityTransformStillDrawsImagesExactly() throws {
        let image = try Bitmap(width: 5, height: 4)
        for y in 0..<4 { for x in 0..<5 { image[x, y] = 0xFF00_0000 | UInt32(x * 50) << 16 | UInt32(y * 60) } }
        let ctx = try Self.context(20, 20)
        ctx.rotate(by: 0.3)
        ctx.scaleBy(x: 1.7, y: 0.9)
        ctx.concatenate(try #require(ctx.ctm.inverted()))
        #expect(ctx.ctm != .identity)
        ctx.draw(image, in: Rect(x: 3, y: 2, width: 5, height: 4))
        for y in 0..<4 { for x in 0..<5 { #expect(ctx.bitmap[x + 3, y + 2] == image[x, y]) } }
        #expect(ctx.bitmap[2, 2] == 0 && ctx.bitmap[8, 5] == 0)
    }

    @Test func gradientsPadTheirEnds() throws {
        let ctx = try Self.context(100, 10)
        ctx.setFillPaint(.linearGradient(Gradient(from: .black, to: .white), start: Point(x: 10, y: 0), end: Point(x: 90, y: 0)))
        ctx.fill(Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(ctx.bitmap[2, 5] == 0xFF00_0000 && ctx.bitmap[97, 5] == 0xFFFF_FFFF)
        let mid = ctx.bitmap[50, 5] & 0xFF
        #expect(mid >= 126 && mid <= 130)
        let radial = try Self.context(40, 40)
        radial.setFillPaint(.radialGradient(Gradient(from: .white, to: .black), center: Point(x: 20, y: 20), radius: 15))
        radial.fill(Rect(x: 0, y: 0, width: 40, height: 40))
        #expect(radial.bitmap[20, 20] & 0xFF > 235 && radial.bitmap[1, 1] == 0xFF00_0000)
    }

    @Test func ctmAppliesToPathsAndImages() throws {
        let ctx = try Self.context(40, 40)
        ctx.translateBy(x: 20, y: 20)
        ctx.scaleBy(x: 2, y: 2)
        ctx.setFillColor(.white)
        ctx.fill(Rect(x: -2, y: -2, width: 4, height: 4))
        #expect(ctx.bitmap[16, 16] == 0xFFFF_FFFF && ctx.bitmap[23, 23] == 0xFFFF_FFFF)
        #expect(ctx.bitmap[15, 16] == 0 && ctx.bitmap[24, 23] == 0)
    }

    /// A stroked horizontal line of width w covers about w × its length.
    @Test func strokedLineCoversWidthTimesLength() throws {
        let ctx = try Self.context(60, 20)
        ctx.setStrokeColor(.white)
        ctx.setLineWidth(3)
        ctx.move(to: Point(x: 10, y: 10.3))
        ctx.addLine(to: Point(x: 50, y: 10.3))
        ctx.strokePath()
        var sum = 0.0
        for y in 0..<20 { for x in 0..<60 { sum += Double(ctx.bitmap[x, y] >> 24) / 255 } }
        #expect(abs(sum - 120) < 0.5, "\(sum)")
    }

    @Test func drawThroughAlphaMaskEqualsClipToMask() throws {
        let image = try Bitmap(width: 30, height: 20)
        image.clear(to: 0xFFCC_8844)
        let mask = try AlphaMask(width: 30, height: 20)
        var shape = Path()
        shape.addEllipse(in: Rect(x: 3.5, y: 2.25, width: 20, height: 15))
        mask.fill(shape)
        let a = try Self.context(30, 20, background: 0xFF00_0000)
        a.draw(image, through: mask)
        let b = try Self.context(30, 20, background: 0xFF00_0000)
        b.setFillPaint(.image(image, transform: .identity))
        b.fill(shape)
        var diff = 0
        for y in 0..<20 { for x in 0..<30 { diff = max(diff, channelDifference(a.bitmap[x, y], b.bitmap[x, y])) } }
        #expect(diff <= 1)
    }
}

@Suite struct GraphicsContextStrokeTests {
    @Test func strokeStartAndEndDrawPartOfThePath() throws {
        let bitmap = try Bitmap(width: 60, height: 20)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.setStrokeColor(.white)
        ctx.setLineWidth(2)
        var line = Path()
        line.move(to: Point(x: 10, y: 10))
        line.addLine(to: Point(x: 50, y: 10))
        ctx.stroke(line, from: 0.25, to: 0.5)
        #expect(bitmap[25, 9] == 0xFFFF_FFFF && bitmap[29, 10] == 0xFFFF_FFFF)
        #expect(bitmap[15, 9] == 0 && bitmap[35, 9] == 0)
    }

    /// Under a scaling transform the line width scales too, as in Core Graphics.
    @Test func lineWidthScalesWithTheTransform() throws {
        let bitmap = try Bitmap(width: 40, height: 40)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.scaleBy(x: 4, y: 4)
        ctx.setStrokeColor(.white)
        ctx.setLineWidth(1)
        ctx.move(to: Point(x: 1, y: 5))
        ctx.addLine(to: Point(x: 9, y: 5))
        ctx.strokePath()
        #expect(bitmap[20, 18] == 0xFFFF_FFFF && bitmap[20, 21] == 0xFFFF_FFFF)
        #expect(bitmap[20, 17] == 0 && bitmap[20, 22] == 0)
    }
}

@Suite struct BitmapViewTests {
    @Test func drawingIntoAViewDrawsIntoItsRegionOnly() throws {
        let bitmap = try Bitmap(width: 20, height: 10)
        let view = try #require(bitmap.view(of: IntRect(x: 5, y: 2, width: 6, height: 4)))
        #expect(view.width == 6 && view.height == 4 && view.stride == 20)
        let ctx = GraphicsContext(bitmap: view)
        ctx.setFillColor(.red)
        ctx.fill(Rect(x: -100, y: -100, width: 1000, height: 1000))
        #expect(bitmap[5, 2] == 0xFFFF_0000 && bitmap[10, 5] == 0xFFFF_0000)
        #expect(bitmap[4, 2] == 0 && bitmap[11, 5] == 0 && bitmap[5, 1] == 0 && bitmap[5, 6] == 0)
        #expect(bitmap.view(of: IntRect(x: 30, y: 0, width: 5, height: 5)) == nil)
    }
}

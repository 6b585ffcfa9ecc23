@testable import Raster
import Testing

/// The analytic fill of axis-aligned rectangles against the general rasterizer, and against the
/// exact area of each pixel.
@Suite struct RectFillTests {
    /// Largest per-channel difference between two bitmaps of the same size.
    static func maximumDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for shift in stride(from: 0, to: 32, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }

    static func random(_ rng: inout SplitMix64, in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(rng.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound)
    }

    /// Random fractional rectangles under random scales (including flips), translations, alphas,
    /// paints and clips: the analytic path must match the rasterizer within 1/255.
    @Test func matchesTheRasterizer() throws {
        var rng = SplitMix64(seed: 0xA11E_5EED)
        let analytic = try Bitmap(width: 48, height: 40), general = try Bitmap(width: 48, height: 40)
        let image = try Bitmap(width: 7, height: 5)
        for y in 0..<5 { for x in 0..<7 { image[x, y] = 0xFF00_0000 | UInt32(x * 36) << 16 | UInt32(y * 50) } }
        for round in 0..<300 {
            let background = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            analytic.clear(to: background)
            general.clear(to: background)
            let sx = Self.random(&rng, in: 0.3...2.5) * (rng.next() % 4 == 0 ? -1 : 1)
            let sy = Self.random(&rng, in: 0.3...2.5) * (rng.next() % 4 == 0 ? -1 : 1)
            let ctm = Transform(a: sx, b: 0, c: 0, d: sy, tx: Self.random(&rng, in: -10...60), ty: Self.random(&rng, in: -10...50))
            let rect = Rect(x: Self.random(&rng, in: -20...30), y: Self.random(&rng, in: -20...30),
                            width: Self.random(&rng, in: -12...25), height: Self.random(&rng, in: -12...25))
            let color = Color(red: Self.random(&rng, in: 0...1), green: 0.4, blue: Self.random(&rng, in: 0...1),
                              alpha: Self.random(&rng, in: 0...1))
            let alpha = round % 3 == 0 ? 1 : Self.random(&rng, in: 0...1)
            let clip = Rect(x: Self.random(&rng, in: 0...20), y: Self.random(&rng, in: 0...20),
                            width: Self.random(&rng, in: 5...40), height: Self.random(&rng, in: 5...40))
            let kind = round % 4
            for (bitmap, useAnalytic) in [(analytic, true), (general, false)] {
                let context = GraphicsContext(bitmap: bitmap)
                if kind == 2 { context.clip(to: clip) }            // a fractional clip: a clip mask
                context.concatenate(ctm)
                context.setAlpha(alpha)
                context.setFillColor(color)
                let paint: Paint = kind == 3 ? .image(image, transform: Transform(a: 2.1, b: 0, c: 0, d: 1.7, tx: 1, ty: 2)) : .solid(color)
                if kind == 3 { context.setFillPaint(paint) }
                if useAnalytic {
                    #expect(context.fillAxisAlignedRect(rect, paint: paint))
                } else {
                    var path = Path()
                    path.addRect(rect)
                    context.fill(path)
                }
            }
            let difference = Self.maximumDifference(analytic, general)
            #expect(difference <= 1, "round \(round): \(rect) under \(ctm), difference \(difference)")
        }
    }

    /// Each pixel of a fractional rectangle gets 255 times its exact covered area.
    @Test func coverageIsTheExactArea() throws {
        let bitmap = try Bitmap(width: 24, height: 16)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.white)
        let rect = Rect(x: 3.3, y: 2.75, width: 11.45, height: 0.6)   // one row: a thin strip
        context.fill(rect)
        let tall = Rect(x: 17.6, y: 4.2, width: 0.3, height: 9.5)      // one column
        context.fill(tall)
        let box = Rect(x: 5.125, y: 6.5, width: 7.5, height: 5.25)
        context.fill(box)
        for y in 0..<16 {
            for x in 0..<24 {
                func area(_ r: Rect) -> Double {
                    let w = max(0, min(Double(x + 1), r.maxX) - max(Double(x), r.minX))
                    let h = max(0, min(Double(y + 1), r.maxY) - max(Double(y), r.minY))
                    return w * h
                }
                let exact = (area(rect) + area(tall) + area(box)) * 255
                let alpha = Double(bitmap[x, y] >> 24)
                #expect(abs(alpha - exact) <= 1, "pixel \(x),\(y): \(alpha) vs \(exact)")
            }
        }
        #expect(bitmap[5, 8] >> 24 == 223)      // 0.875 of the column
        #expect(bitmap[12, 11] >> 24 == 120)    // 0.625 × 0.75 × 255 = 119.5
    }

    /// Rotation and shear are not axis-aligned: the analytic path declines them.
    @Test func declinesRotatedTransforms() throws {
        let context = GraphicsContext(bitmap: try Bitmap(width: 8, height: 8))
        context.rotate(by: 0.3)
        #expect(!context.fillAxisAlignedRect(Rect(x: 1, y: 1, width: 3, height: 3), paint: .solid(.black)))
        let huge = GraphicsContext(bitmap: try Bitmap(width: 8, height: 8))
        #expect(!huge.fillAxisAlignedRect(Rect(x: 0, y: 0, width: 1e12, height: 3), paint: .solid(.black)))
        #expect(!huge.fillAxisAlignedRect(Rect(x: .nan, y: 0, width: 2, height: 3), paint: .solid(.black)))
    }
}

/// The analytic stroke of axis-aligned rectangles (layer borders) against the stroker and
/// rasterizer, and against the exact area of the frame in each pixel.
@Suite struct RectStrokeTests {
    @Test func matchesTheStroker() throws {
        var rng = SplitMix64(seed: 0xB0DE_5EED)
        let analytic = try Bitmap(width: 48, height: 40), general = try Bitmap(width: 48, height: 40)
        var worst = 0
        for round in 0..<300 {
            let background = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            analytic.clear(to: background)
            general.clear(to: background)
            let sx = RectFillTests.random(&rng, in: 0.4...2.2) * (rng.next() % 4 == 0 ? -1 : 1)
            let sy = RectFillTests.random(&rng, in: 0.4...2.2) * (rng.next() % 4 == 0 ? -1 : 1)
            let ctm = Transform(a: sx, b: 0, c: 0, d: sy, tx: RectFillTests.random(&rng, in: -5...50), ty: RectFillTests.random(&rng, in: -5...40))
            let rect = Rect(x: RectFillTests.random(&rng, in: -15...25), y: RectFillTests.random(&rng, in: -15...25),
                            width: RectFillTests.random(&rng, in: -20...25), height: RectFillTests.random(&rng, in: -20...25))
            let width = RectFillTests.random(&rng, in: 0.2...6)
            let color = Color(red: RectFillTests.random(&rng, in: 0...1), green: 0.7, blue: 0.2,
                              alpha: RectFillTests.random(&rng, in: 0.2...1))
            let clip = Rect(x: RectFillTests.random(&rng, in: 0...20), y: RectFillTests.random(&rng, in: 0...20),
                            width: RectFillTests.random(&rng, in: 5...40), height: RectFillTests.random(&rng, in: 5...40))
            for (bitmap, useAnalytic) in [(analytic, true), (general, false)] {
                let context = GraphicsContext(bitmap: bitmap)
                if round % 3 == 0 { context.clip(to: clip) }
                context.concatenate(ctm)
                context.setAlpha(round % 2 == 0 ? 1 : 0.6)
                context.setStrokeColor(color)
                context.setLineWidth(width)
                var path = Path()
                path.addRect(rect)
                if useAnalytic {
                    if !context.strokeAxisAlignedRect(rect) { context.stroke(path) }
                } else {
                    context.stroke(path)
                }
            }
            let difference = RectFillTests.maximumDifference(analytic, general)
            worst = max(worst, difference)
            #expect(difference <= 1, "round \(round): \(rect) width \(width) under \(ctm), difference \(difference)")
        }
        #expect(worst <= 1)
    }

    @Test func coverageIsTheFramesExactArea() throws {
        let bitmap = try Bitmap(width: 24, height: 20)
        let context = GraphicsContext(bitmap: bitmap)
        context.setStrokeColor(.white)
        context.setLineWidth(1.5)
        let rect = Rect(x: 3.3, y: 2.6, width: 14.2, height: 12.7)
        #expect(context.strokeAxisAlignedRect(rect))
        func area(_ r: Rect, _ x: Int, _ y: Int) -> Double {
            max(0, min(Double(x + 1), r.maxX) - max(Double(x), r.minX)) * max(0, min(Double(y + 1), r.maxY) - max(Double(y), r.minY))
        }
        for y in 0..<20 {
            for x in 0..<24 {
                let exact = (area(rect.insetBy(dx: -0.75, dy: -0.75), x, y) - area(rect.insetBy(dx: 0.75, dy: 0.75), x, y)) * 255
                #expect(abs(Double(bitmap[x, y] >> 24) - exact) <= 1, "pixel \(x),\(y)")
            }
        }
        #expect(bitmap[10, 8] == 0)                      // inside the frame: untouched
    }

    @Test func declinesWhatIsNotAFrame() throws {
        let context = GraphicsContext(bitmap: try Bitmap(width: 16, height: 16))
        context.setLineWidth(2)
        context.setLineJoin(.round)
        #expect(!context.strokeAxisAlignedRect(Rect(x: 2, y: 2, width: 8, height: 8)))
        context.setLineJoin(.miter)
        context.setLineDash(phase: 0, lengths: [2, 1])
        #expect(!context.strokeAxisAlignedRect(Rect(x: 2, y: 2, width: 8, height: 8)))
        context.setLineDash(phase: 0, lengths: [])
        #expect(!context.strokeAxisAlignedRect(Rect(x: 2, y: 2, width: 1.5, height: 8)))   // inner edge would cross
        context.rotate(by: 0.2)
        #expect(!context.strokeAxisAlignedRect(Rect(x: 2, y: 2, width: 8, height: 8)))
    }
}

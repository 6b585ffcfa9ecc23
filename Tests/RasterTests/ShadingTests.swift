import Foundation
@testable import Raster
import RasterTestSupport
import Testing

/// Dithered gradients: exact stops and ends, the spec's location at every pixel, no bands.
@Suite struct ShadingTests {
    /// The premultiplied channels of a pixel (a, r, g, b).
    static func channels(_ p: UInt32) -> [Int] {
        [Int(p >> 24), Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF)]
    }

    /// Through a mask with holes (a ring, and a half-covered band), every pixel is the unmasked
    /// shading's pixel scaled by the mask's coverage, bit for bit: the mask's empty runs are
    /// skipped with the same evaluator arithmetic as the pixels drawn.
    @Test(arguments: [0, 1, 2])
    func shadingThroughAMaskIsTheSamePixelsScaled(kind: Int) throws {
        let geometry: Shading.Geometry = [.axial(start: Point(x: 3.3, y: 7.1), end: Point(x: 117.9, y: 80.2)),
                                          .radial(center: Point(x: 61.4, y: 44.7), radius: 53.3),
                                          .conic(center: Point(x: 58.9, y: 46.2), angle: 0.7)][kind]
        let shading = Shading(Gradient(stops: [(0, .red), (0.4, Color(red: 0.2, green: 0.8, blue: 0.3)), (1, .blue)]), geometry: geometry)
        func draw(through mask: AlphaMask?) throws -> Bitmap {
            let bitmap = try Bitmap(width: 120, height: 90)
            let context = GraphicsContext(bitmap: bitmap)
            context.rotate(by: 0.3)          // the evaluator's steps are not whole numbers
            if let mask { context.clip(toMask: mask) }
            context.drawShading(shading)
            return bitmap
        }
        let mask = try AlphaMask(width: 120, height: 90)
        var ring = Path()
        ring.addEllipse(in: Rect(x: 10, y: 5, width: 90, height: 80))
        ring.addEllipse(in: Rect(x: 30, y: 25, width: 50, height: 40))
        mask.fill(ring, rule: .evenOdd)
        mask.fill(IntRect(x: 104, y: 0, width: 9, height: 90), with: 128)
        let plain = try draw(through: nil), masked = try draw(through: mask)
        var covered = 0
        for y in 0..<90 {
            for x in 0..<120 {
                let c = PixelMath.mul(255, UInt32(mask[x, y]))
                let expected = c == 0 ? 0 : PixelMath.over(PixelMath.scale(plain[x, y], c), 0)
                if masked[x, y] != expected { Issue.record("(\(x), \(y)): \(String(masked[x, y], radix: 16)) vs \(String(expected, radix: 16))"); return }
                if c != 0 { covered += 1 }
            }
        }
        #expect(covered > 2000 && covered < 120 * 90 / 2)
    }

    @Test func axialEndsAndStopsAreExactOnEveryRow() throws {
        // The axis runs from pixel 0's centre to pixel 256's: pixel i sits at location i/256.
        let bitmap = try Bitmap(width: 257, height: 16)
        let ctx = GraphicsContext(bitmap: bitmap)
        let stops: [(Double, Color)] = [(0, Color(red: 0.9, green: 0.2, blue: 0.1)), (0.25, Color(red: 0.3, green: 0.7, blue: 0.6, alpha: 0.8)), (1, Color(red: 0.1, green: 0.1, blue: 0.8))]
        ctx.drawShading(Shading(Gradient(stops: stops), geometry: .axial(start: Point(x: 0.5, y: 0), end: Point(x: 256.5, y: 0))))
        for y in 0..<16 {
            #expect(bitmap[0, y] == stops[0].1.premultipliedPixel)
            #expect(bitmap[64, y] == stops[1].1.premultipliedPixel)
            #expect(bitmap[256, y] == stops[2].1.premultipliedPixel)
        }
    }

    @Test func everyPixelIsWithinOneStepOfTheSpecColour() throws {
        // Axial, radial and conic against the location formula evaluated at each pixel centre.
        let gradient = Gradient(stops: [(0, .red), (0.5, Color(red: 0.2, green: 0.8, blue: 0.3)), (1, .blue)])
        let geometries: [(Shading.Geometry, (Double, Double) -> Double)] = [
            (.axial(start: Point(x: 10, y: 5), end: Point(x: 50, y: 40)), { x, y in
                let vx = 40.0, vy = 35.0
                return ((x - 10) * vx + (y - 5) * vy) / (vx * vx + vy * vy)
            }),
            (.radial(center: Point(x: 32, y: 30), radius: 25), { x, y in
                ((x - 32) * (x - 32) + (y - 30) * (y - 30)).squareRoot() / 25
            }),
            (.conic(center: Point(x: 30.2, y: 31.7), angle: 0.4), { x, y in
                var t = (atan2(y - 31.7, x - 30.2) - 0.4) / (2 * .pi)
                t -= t.rounded(.down)
                return t
            }),
        ]
        for (geometry, location) in geometries {
            let bitmap = try Bitmap(width: 64, height: 64)
            GraphicsContext(bitmap: bitmap).drawShading(Shading(gradient, geometry: geometry))
            var worst = 0
            for y in 0..<64 {
                for x in 0..<64 {
                    let t = min(1, max(0, location(Double(x) + 0.5, Double(y) + 0.5)))
                    // A conic sweep is discontinuous at its seam: skip the pixels next to it.
                    if case .conic = geometry, t < 0.01 || t > 0.99 { continue }
                    let c = gradient.color(at: t)
                    let expected = [c.alpha * 255, c.red * 255, c.green * 255, c.blue * 255]
                    let got = Self.channels(bitmap[x, y])
                    // One 8-bit step for the dither, plus the ramp's 1/1023 quantisation of t.
                    for k in 0..<4 { worst = max(worst, Int((abs(Double(got[k]) - expected[k])).rounded(.up))) }
                }
            }
            #expect(worst <= 2, "\(geometry): worst channel error \(worst)")
        }
    }

    @Test func ditherRemovesBandsFromASlowGradient() throws {
        // Five grey levels over 1024 pixels: rounded, each is a flat band 256 pixels wide. The
        // dither makes each 8×8 tile's mean follow the exact ramp to within a fraction of a step.
        let bitmap = try Bitmap(width: 1024, height: 8)
        let start = Color(white: 100 / 255), end = Color(white: 104 / 255)
        let geometry = Shading.Geometry.axial(start: Point(x: 0.5, y: 0), end: Point(x: 1023.5, y: 0))
        GraphicsContext(bitmap: bitmap).drawShading(Shading(Gradient(from: start, to: end), geometry: geometry))
        let plain = try Bitmap(width: 1024, height: 8)
        GraphicsContext(bitmap: plain).drawShading(Shading(Gradient(from: start, to: end), geometry: geometry, isDithered: false))
        func worstTileError(_ b: Bitmap) -> Double {
            var worst = 0.0
            for tile in 0..<128 {
                var sum = 0.0, exact = 0.0
                for y in 0..<8 {
                    for x in tile * 8..<tile * 8 + 8 {
                        sum += Double(b[x, y] & 0xFF)
                        exact += 100 + 4 * Double(x) / 1023
                    }
                }
                worst = max(worst, abs(sum - exact) / 64)
            }
            return worst
        }
        #expect(worstTileError(bitmap) < 0.1)
        #expect(worstTileError(plain) > 0.4)
    }

    @Test func clipAlphaAndTranslucentStopsBlendOver() throws {
        let bitmap = try Bitmap(width: 32, height: 8)
        bitmap.clear(to: Color.white.premultipliedPixel)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.clip(to: Rect(x: 8, y: 0, width: 16, height: 8))
        ctx.setAlpha(0.5)
        ctx.drawShading(Shading(Gradient(from: .black, to: .black), geometry: .axial(start: .zero, end: Point(x: 32, y: 0))))
        #expect(bitmap[4, 4] == Color.white.premultipliedPixel)
        #expect(bitmap[16, 4] == Color(white: 127 / 255).premultipliedPixel)   // 255 · (1 − 128/255)
        #expect(bitmap[28, 4] == Color.white.premultipliedPixel)
    }

    @Test func galleryMatchesGolden() throws {
        let bitmap = try Bitmap(width: 240, height: 80)
        let ctx = GraphicsContext(bitmap: bitmap)
        let rainbow = Gradient(stops: [(0, .red), (0.33, Color(red: 1, green: 0.9, blue: 0)), (0.66, Color(red: 0, green: 0.7, blue: 1)), (1, .red)])
        ctx.saveGState()
        ctx.clip(to: Rect(x: 0, y: 0, width: 80, height: 80))
        ctx.drawShading(Shading(Gradient(from: Color(rgb: 0x1E3C72), to: Color(rgb: 0x2A5298)), geometry: .axial(start: Point(x: 0, y: 0), end: Point(x: 80, y: 80))))
        ctx.restoreGState()
        ctx.saveGState()
        ctx.clip(to: Rect(x: 80, y: 0, width: 80, height: 80))
        ctx.drawShading(Shading(Gradient(stops: [(0, .white), (0.6, Color(rgb: 0xFF8800)), (1, Color(rgb: 0x330000))]), geometry: .radial(center: Point(x: 110, y: 30), radius: 45)))
        ctx.restoreGState()
        ctx.saveGState()
        ctx.addEllipse(in: Rect(x: 164, y: 4, width: 72, height: 72))
        ctx.clip()
        ctx.drawShading(Shading(rainbow, geometry: .conic(center: Point(x: 200, y: 40), angle: -.pi / 2)))
        ctx.restoreGState()
        assertMatchesGolden(bitmap, named: "shading-gallery", in: Bundle.module, tolerance: GoldenTolerance.default)
    }

    /// The axial and conic loops on AVX2 (four pixels to a register) give the portable loops'
    /// pixels bit for bit: a conic centre on a pixel centre (atan2 at the origin), turned and
    /// sheared transforms, translucent stops, rows of every length and start column, whole and
    /// through a clip.
    @Test func axialAndConicOnAVX2AreThePortableLoopsPixels() throws {
        let stops = Gradient(stops: [(0, Color(rgb: 0xFF5E62)), (0.3, Color(red: 0.2, green: 0.9, blue: 0.4, alpha: 0.5)),
                                     (0.7, Color(rgb: 0x3C7BE8)), (1, Color(rgb: 0xFF5E62))])
        let transforms = [Transform.identity, Transform(rotationAngle: 0.61).translatedBy(x: 13, y: -4),
                          Transform(a: 1.3, b: 0.2, c: -0.4, d: 0.9, tx: 7.25, ty: 3.5)]
        for (k, transform) in transforms.enumerated() {
            for center in [Point(x: 40.5, y: 30.5), Point(x: 41.37, y: 29.81)] {
                let geometries: [Shading.Geometry] = [.conic(center: center, angle: Double(k) - 1.3),
                                                      .axial(start: center, end: Point(x: 70.2 - Double(k), y: 51.9))]
                for geometry in geometries {
                    var bitmaps: [Bitmap] = []
                    for avx2 in [false, true] {
                        let bitmap = try Bitmap(width: 83, height: 61)
                        bitmap.fill(bitmap.bounds, with: 0xFF20_3040)
                        let ctx = GraphicsContext(bitmap: bitmap)
                        ctx.usesAVX2Kernels = avx2
                        ctx.concatenate(transform)
                        ctx.drawShading(Shading(stops, geometry: geometry))
                        ctx.clip(to: Rect(x: 3.5, y: 2, width: 51, height: 40.3))
                        ctx.drawShading(Shading(stops, geometry: .conic(center: center, angle: 2.1)))
                        ctx.drawShading(Shading(stops, geometry: .axial(start: Point(x: 9, y: 50), end: center)))
                        bitmaps.append(bitmap)
                    }
                    var differing = 0
                    for y in 0..<61 { for x in 0..<83 where bitmaps[0][x, y] != bitmaps[1][x, y] { differing += 1 } }
                    #expect(differing == 0, "transform \(k), \(geometry)")
                }
            }
        }
    }
}

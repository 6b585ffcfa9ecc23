import Foundation
import Raster
import RasterTestSupport
import Testing

/// The shadow blur (three box blurs) and the W3C blend functions, against their definitions.
@Suite struct BlurAndBlendTests {
    @Test func threeBoxesApproximateTheGaussiansVariance() {
        for sigma in [1, 2.5, 4, 10, 33] {   // below about 1 pixel, boxes of width 1 (no blur) are closest
            let widths = AlphaBlur.boxWidths(sigma: sigma)
            #expect(widths.count == 3 && widths.allSatisfy { $0 % 2 == 1 })
            // A box of width w has variance (w² − 1)/12; variances of successive blurs add.
            let variance = widths.reduce(0.0) { $0 + (Double($1 * $1) - 1) / 12 }
            #expect(abs(variance.squareRoot() - sigma) / sigma < 0.25, "sigma \(sigma): \(widths)")
        }
    }

    @Test func blurPreservesTotalAlphaAndHalvesAStraightEdge() throws {
        let bitmap = try Bitmap(width: 120, height: 120)
        bitmap.fill(IntRect(x: 30, y: 30, width: 60, height: 60), with: 0xFF00_0000)
        bitmap.fill(IntRect(x: 10, y: 100, width: 5, height: 5), with: 0x8000_0000)
        let blur = AlphaBlur()
        blur.blur(alphaOf: bitmap, in: bitmap.bounds, sigma: 4)
        let source = 3600.0 + 25 * 128 / 255
        #expect(abs(blur.totalAlpha - source) / source < 1e-4)
        #expect(blur.bounds.width == 120 + 2 * blur.reach)
        // Across a long straight edge the Gaussian gives one half at the edge itself.
        let atEdge = (blur.alpha(x: 29, y: 60) + blur.alpha(x: 30, y: 60)) / 2
        #expect(abs(atEdge - 0.5) < 0.02)
        #expect(blur.alpha(x: 60, y: 60) > 0.999)
        #expect(blur.alpha(x: 30 - blur.reach - 1, y: 60) == 0)
        // Blurring again at the same size reuses the plane and gives the same result.
        blur.blur(alphaOf: bitmap, in: bitmap.bounds, sigma: 4)
        #expect(abs(blur.totalAlpha - source) / source < 1e-4)
    }

    // The spec's formulas, written out independently of the implementation.
    static func specB(_ mode: BlendFunction, _ cb: [Double], _ cs: [Double]) -> [Double] {
        func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
        func clip(_ c: [Double]) -> [Double] {
            let l = lum(c), n = c.min()!, x = c.max()!
            var c = c
            if n < 0 { c = c.map { l + ($0 - l) * l / (l - n) } }
            if x > 1 { c = c.map { l + ($0 - l) * (1 - l) / (x - l) } }
            return c
        }
        func setLum(_ c: [Double], _ l: Double) -> [Double] { clip(c.map { $0 + l - lum(c) }) }
        func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }
        func setSat(_ c: [Double], _ s: Double) -> [Double] {
            let idx = [0, 1, 2].sorted { c[$0] < c[$1] }
            var out = [0.0, 0, 0]
            if c[idx[2]] > c[idx[0]] {
                out[idx[1]] = (c[idx[1]] - c[idx[0]]) * s / (c[idx[2]] - c[idx[0]])
                out[idx[2]] = s
            }
            return out
        }
        func hard(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1) }
        func sep(_ f: (Double, Double) -> Double) -> [Double] { (0..<3).map { f(cb[$0], cs[$0]) } }
        switch mode {
        case .normal: return cs
        case .multiply: return sep { $0 * $1 }
        case .screen: return sep { $0 + $1 - $0 * $1 }
        case .overlay: return sep { hard($1, $0) }
        case .darken: return sep { min($0, $1) }
        case .lighten: return sep { max($0, $1) }
        case .colorDodge: return sep { b, s in b == 0 ? 0 : (s == 1 ? 1 : min(1, b / (1 - s))) }
        case .colorBurn: return sep { b, s in b == 1 ? 1 : (s == 0 ? 0 : 1 - min(1, (1 - b) / s)) }
        case .hardLight: return sep(hard)
        case .softLight: return sep { b, s in
            s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * ((b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()) - b) }
        case .difference: return sep { abs($0 - $1) }
        case .exclusion: return sep { $0 + $1 - 2 * $0 * $1 }
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        case .luminosity: return setLum(cb, lum(cs))
        }
    }

    @Test func everyModeMatchesTheSpecPerPixel() {
        let levels: [Double] = [0, 0.2, 0.5, 0.8, 1]
        let alphas: [Double] = [1, 0.6]
        var worst = 0
        for mode in BlendFunction.allCases {
            for sa in alphas { for ba in alphas {
                for r in levels { for g in [0.1, 0.7] { for b in [0.3, 0.9] {
                    let cs = [r, g, b], cb = [1 - g, r, 0.5]
                    let s = Color(red: cs[0], green: cs[1], blue: cs[2], alpha: sa).premultipliedPixel
                    let d = Color(red: cb[0], green: cb[1], blue: cb[2], alpha: ba).premultipliedPixel
                    // The spec's inputs are what the 8-bit pixels hold.
                    let sA = Double(s >> 24) / 255, bA = Double(d >> 24) / 255
                    func un(_ p: UInt32, _ a: Double) -> [Double] { [16, 8, 0].map { min(1, Double((p >> UInt32($0)) & 0xFF) / 255 / a) } }
                    let us = un(s, sA), ub = un(d, bA)
                    let blended = Self.specB(mode, ub, us)
                    let ao = sA + bA - sA * bA
                    let expected = [ao] + (0..<3).map { us[$0] * sA * (1 - bA) + ub[$0] * bA * (1 - sA) + sA * bA * blended[$0] }
                    let got = mode.composite(s, over: d)
                    let channels = [got >> 24, (got >> 16) & 0xFF, (got >> 8) & 0xFF, got & 0xFF].map { Double($0) / 255 }
                    for k in 0..<4 { worst = max(worst, Int((abs(channels[k] - expected[k]) * 255).rounded())) }
                } } }
            } }
        }
        #expect(worst <= 1)
    }

    @Test func blendStripAndShadowMatchGolden() throws {
        let bitmap = try Bitmap(width: 256, height: 72)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.drawShading(Shading(Gradient(stops: [(0, Color(rgb: 0x204080)), (0.5, Color(rgb: 0xE0C040)), (1, Color(rgb: 0x802040))]),
                                geometry: .axial(start: .zero, end: Point(x: 256, y: 0))))
        let layer = try Bitmap(width: 256, height: 72)
        let lctx = GraphicsContext(bitmap: layer)
        for (i, _) in BlendFunction.allCases.enumerated() {
            lctx.setFillColor(Color(red: Double(i % 4) / 3, green: 0.5, blue: Double(i / 4) / 3, alpha: 0.9))
            lctx.fill(Path(ellipseIn: Rect(x: Double(i) * 16 + 1, y: 4, width: 14, height: 28)))
        }
        for (i, mode) in BlendFunction.allCases.enumerated() {
            ctx.composite(layer, region: IntRect(x: i * 16, y: 0, width: 16, height: 36), alpha: 1, blend: mode)
        }
        let shape = try Bitmap(width: 256, height: 72)
        GraphicsContext(bitmap: shape).fill(Rect(x: 40, y: 44, width: 176, height: 16))
        let blur = AlphaBlur()
        blur.blur(alphaOf: shape, in: IntRect(x: 40, y: 44, width: 176, height: 16), sigma: 3)
        ctx.drawShadow(blur, color: Color(white: 0, alpha: 0.6), dx: 3, dy: 4)
        ctx.setFillColor(.white)
        ctx.fill(Rect(x: 40, y: 44, width: 176, height: 16))
        assertMatchesGolden(bitmap, named: "blend-and-shadow", in: Bundle.module, tolerance: GoldenTolerance.default)
    }

    /// A shadow drawn around hidden pixels, then an opaque rectangle over them, is the shadow
    /// drawn whole with the rectangle over it, pixel for pixel (and through a clip mask, where
    /// the hidden pixels are drawn after all).
    @Test func shadowAroundHiddenPixelsUnderAnOpaqueFillIsTheWholeShadow() throws {
        let shape = try Bitmap(width: 120, height: 90)
        GraphicsContext(bitmap: shape).fill(Rect(x: 30, y: 20, width: 60, height: 45))
        let blur = AlphaBlur()
        blur.blur(alphaOf: shape, in: IntRect(x: 30, y: 20, width: 60, height: 45), sigma: 4.5)
        for masked in [false, true] {
            var frames: [Bitmap] = []
            for hidden in [IntRect.zero, IntRect(x: 32, y: 22, width: 56, height: 41)] {
                let bitmap = try Bitmap(width: 120, height: 90)
                bitmap.fill(bitmap.bounds, with: 0xFFEC_EFF3)
                let ctx = GraphicsContext(bitmap: bitmap)
                if masked { ctx.clip(to: Rect(x: 10.5, y: 5.25, width: 90, height: 70)) }
                ctx.drawShadow(blur, color: Color(white: 0, alpha: 0.4), dx: -3, dy: 5, hidden: hidden)
                ctx.setFillColor(.white)
                ctx.fill(Rect(x: 30, y: 20, width: 60, height: 45))
                frames.append(bitmap)
            }
            var differing = 0
            for y in 0..<90 { for x in 0..<120 where frames[0][x, y] != frames[1][x, y] { differing += 1 } }
            #expect(differing == 0, "masked \(masked)")
        }
    }
}

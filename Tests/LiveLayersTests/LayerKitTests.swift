import Foundation
import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport

extension RuntimeSuites {
@MainActor
@Suite struct LayerKitTests {
    init() { freshRuntime() }

    func host(_ width: Double, _ height: Double) -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = .white
        keptRoots.append(root)
        return root
    }

    func square(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    func render(_ root: Layer, _ width: Int, _ height: Int) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        LayerRenderer().render(root, at: 0, into: bitmap)
        return bitmap
    }

    @Test func zPositionOrdersSiblingsStably() throws {
        freshRuntime()
        let r = host(32, 32)
        let a = square(Rect(x: 4, y: 4, width: 20, height: 20), .red)
        let b = square(Rect(x: 8, y: 8, width: 20, height: 20), .blue)
        let c = square(Rect(x: 12, y: 12, width: 16, height: 16), .green)
        a.zPosition = 1
        r.addSublayer(a); r.addSublayer(b); r.addSublayer(c)
        let bitmap = try render(r, 32, 32)
        #expect(bitmap[14, 14] == Color.red.premultipliedPixel)     // a (z 1) over b and c (z 0)
        #expect(bitmap[26, 26] == Color.green.premultipliedPixel)   // c after b at equal z
        #expect(bitmap[6, 26] == Color.white.premultipliedPixel)
    }

    @Test func sublayerTransformTurnsSublayersAboutTheAnchor() throws {
        freshRuntime()
        let r = host(40, 40)
        let parent = Layer()
        parent.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        parent.sublayerTransform = Transform(rotationAngle: .pi / 2)
        parent.addSublayer(square(Rect(x: 24, y: 16, width: 12, height: 8), .red))  // right of centre
        r.addSublayer(parent)
        let bitmap = try render(r, 40, 40)
        // A quarter turn clockwise about (20, 20) takes it below the centre.
        #expect(bitmap[20, 30] == Color.red.premultipliedPixel)
        #expect(bitmap[30, 20] == Color.white.premultipliedPixel)
    }

    @Test func maskedCornersRoundOnlyTheChosenCorners() throws {
        freshRuntime()
        let r = host(40, 40)
        let card = square(Rect(x: 0, y: 0, width: 40, height: 40), .black)
        card.cornerRadius = 16
        card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        r.addSublayer(card)
        let bitmap = try render(r, 40, 40)
        #expect(bitmap[0, 0] == Color.white.premultipliedPixel && bitmap[39, 39] == Color.white.premultipliedPixel)
        #expect(bitmap[39, 0] == Color.black.premultipliedPixel && bitmap[0, 39] == Color.black.premultipliedPixel)
    }

    static func quadrants() throws -> Bitmap {
        // 8×8: red, green / blue, yellow quadrants of 4×4.
        let image = try Bitmap(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 {
            image[x, y] = [Color.red, .green, .blue, Color(red: 1, green: 1, blue: 0)][(y / 4) * 2 + x / 4].premultipliedPixel
        } }
        return image
    }

    @Test func contentsRectShowsPartOfTheImageAndContentsCenterStretchesOnlyTheMiddle() throws {
        freshRuntime()
        let r = host(64, 32)
        let cropped = Layer()
        cropped.frame = Rect(x: 0, y: 0, width: 16, height: 16)
        cropped.contents = try Self.quadrants()
        cropped.contentsRect = Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)     // the yellow quadrant
        let sliced = Layer()
        sliced.frame = Rect(x: 24, y: 0, width: 40, height: 32)
        let frame = try Bitmap(width: 8, height: 8)
        frame.clear(to: Color.black.premultipliedPixel)
        frame.fill(IntRect(x: 2, y: 2, width: 4, height: 4), with: Color.red.premultipliedPixel)
        sliced.contents = frame
        sliced.contentsCenter = Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        r.addSublayer(cropped)
        r.addSublayer(sliced)
        let bitmap = try render(r, 64, 32)
        #expect(bitmap[1, 1] == Color(red: 1, green: 1, blue: 0).premultipliedPixel)
        #expect(bitmap[14, 14] == Color(red: 1, green: 1, blue: 0).premultipliedPixel)
        // The two-pixel black border keeps its width; the red middle fills the rest.
        #expect(bitmap[24, 16] == Color.black.premultipliedPixel && bitmap[25, 16] == Color.black.premultipliedPixel)
        #expect(bitmap[27, 16] == Color.red.premultipliedPixel && bitmap[60, 16] == Color.red.premultipliedPixel)
        #expect(bitmap[63, 16] == Color.black.premultipliedPixel && bitmap[44, 31] == Color.black.premultipliedPixel)
        #expect(bitmap[44, 29] == Color.red.premultipliedPixel)
    }

    @Test func invertedLuminanceAndNestedMasks() throws {
        freshRuntime()
        func masked(_ mode: MaskMode, nested: Bool = false) throws -> Bitmap {
            let r = host(32, 16)
            let content = square(Rect(x: 0, y: 0, width: 32, height: 16), .blue)
            content.maskMode = mode
            let mask = square(Rect(x: 0, y: 0, width: 16, height: 16), mode == .luminance || mode == .invertedLuminance ? .white : .black)
            mask.addSublayer(square(Rect(x: 16, y: 0, width: 16, height: 16), Color(white: 0.5, alpha: mode == .alpha ? 0.5 : 1)))
            if nested {
                // The mask's own mask keeps only its top half.
                mask.mask = square(Rect(x: 0, y: 0, width: 32, height: 8), .black)
            }
            content.mask = mask
            r.addSublayer(content)
            return try render(r, 32, 16)
        }
        let blue = Color.blue.premultipliedPixel, white = Color.white.premultipliedPixel
        let alpha = try masked(.alpha)
        #expect(alpha[4, 4] == blue)
        #expect(alpha[20, 4] == BlendFunction.normal.composite(Color.blue.withAlpha(0.5).premultipliedPixel, over: white))
        let inverted = try masked(.invertedAlpha)
        #expect(inverted[4, 4] == white)
        let luminance = try masked(.luminance)
        #expect(luminance[4, 4] == blue)
        // Grey 0.5 (128) has luminance 128: about half.
        #expect(channelDifference(luminance[20, 4], BlendFunction.normal.composite(Color.blue.withAlpha(128 / 255).premultipliedPixel, over: white)) <= 1)
        let invertedLuminance = try masked(.invertedLuminance)
        #expect(invertedLuminance[4, 4] == white)
        let nested = try masked(.alpha, nested: true)
        #expect(nested[4, 4] == blue && nested[4, 12] == white)
    }

    @Test func kitMatchesGolden() throws {
        freshRuntime()
        let r = host(160, 64)
        let tab = square(Rect(x: 8, y: 8, width: 60, height: 48), Color(rgb: 0x3366CC))
        tab.cornerRadius = 14
        tab.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        tab.borderWidth = 3
        tab.borderColor = Color(rgb: 0x112244)
        let nine = Layer()
        nine.frame = Rect(x: 80, y: 8, width: 72, height: 48)
        nine.contents = try Self.quadrants()
        nine.contentsCenter = Rect(x: 0.375, y: 0.375, width: 0.25, height: 0.25)
        nine.zPosition = -1
        let ring = Layer()
        ring.frame = Rect(x: 100, y: 20, width: 30, height: 30)
        ring.backgroundColor = Color(rgb: 0xFFAA00)
        let hole = square(Rect(x: 8, y: 8, width: 14, height: 14), .black)
        hole.cornerRadius = 7
        ring.mask = hole
        ring.maskMode = .invertedAlpha
        r.addSublayer(ring)
        r.addSublayer(tab)
        r.addSublayer(nine)
        let bitmap = try render(r, 160, 64)
        assertMatchesGolden(bitmap, named: "layer-kit", in: Bundle.module, tolerance: GoldenTolerance.default)
    }
}
}

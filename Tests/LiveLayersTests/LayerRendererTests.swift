import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport
import Foundation

extension RuntimeSuites {
@MainActor
@Suite struct LayerRendererTests {
    init() { freshRuntime() }

    func root(_ width: Double = 64, _ height: Double = 64) -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = .white
        return root
    }

    func square(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    @Test func firstFrameIsFullThenIdleFramesDrawNothing() throws {
        freshRuntime()
        let r = root()
        r.addSublayer(square(Rect(x: 8, y: 8, width: 16, height: 16), .red))
        let bitmap = try Bitmap(width: 64, height: 64)
        let renderer = LayerRenderer()
        #expect(renderer.render(r, at: 0, into: bitmap) == [bitmap.bounds])
        #expect(bitmap[10, 10] == Color.red.premultipliedPixel)
        #expect(bitmap[40, 40] == Color.white.premultipliedPixel)
        #expect(renderer.render(r, at: 1, into: bitmap).isEmpty)
        #expect(renderer.nextFrameTime == .infinity)
    }

    @Test func damageCoversOldAndNewBoundsOfAMovedLayer() throws {
        freshRuntime()
        let r = root()
        let s = square(Rect(x: 8, y: 8, width: 8, height: 8), .red)
        r.addSublayer(s)
        let bitmap = try Bitmap(width: 64, height: 64)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        Transaction.begin()
        Transaction.disableActions = true
        s.position = Point(x: 44, y: 44)
        Transaction.commit()
        let damage = renderer.render(r, at: 0.1, into: bitmap)
        #expect(damage.count == 2)
        #expect(damage.contains { $0.intersection(IntRect(x: 8, y: 8, width: 8, height: 8)) == IntRect(x: 8, y: 8, width: 8, height: 8) })
        #expect(damage.contains { $0.intersection(IntRect(x: 40, y: 40, width: 8, height: 8)) == IntRect(x: 40, y: 40, width: 8, height: 8) })
        #expect(damage.allSatisfy { $0.area < 200 })
        #expect(bitmap[10, 10] == Color.white.premultipliedPixel)
        #expect(bitmap[44, 44] == Color.red.premultipliedPixel)
    }

    @Test func damagedFramesMatchFullRedraws() throws {
        freshRuntime()
        // Animate several layers; every damage-tracked frame must equal a full redraw.
        let r = root(96, 96)
        let a = square(Rect(x: 4, y: 4, width: 20, height: 20), .red)
        let b = square(Rect(x: 50, y: 10, width: 30, height: 16), .blue)
        b.cornerRadius = 6
        b.borderWidth = 2
        b.borderColor = .black
        r.addSublayer(a)
        r.addSublayer(b)
        let tracked = try Bitmap(width: 96, height: 96)
        let full = try Bitmap(width: 96, height: 96)
        let damaged = LayerRenderer()
        let everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        damaged.render(r, at: 0, into: tracked)
        let move = BasicAnimation(keyPath: "position")
        move.toValue = Point(x: 60, y: 70)
        move.duration = 1
        a.add(move, forKey: "move")
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = 1.0
        spin.duration = 0.5
        b.add(spin, forKey: "spin")
        for i in 1...12 {
            let t = Double(i) / 10
            damaged.render(r, at: t, into: tracked)
            everything.render(r, at: t, into: full)
            // Exact: the rasterizer's cells and sums do not depend on the damage rectangle's columns.
            let diff = difference(tracked, full, tolerance: 0)
            #expect(diff?.differingPixels == 0, "frame \(i)")
        }
    }

    /// A subtree under a hidden layer, or one at zero opacity, draws nothing and is not
    /// prepared (Lottie's layers outside their in and out points): what it drew is cleared when it
    /// goes, it is drawn where it is now when it comes back (its layers moved meanwhile), and every
    /// damage-tracked frame equals a full redraw. Without group opacity a layer going to zero
    /// opacity does not damage its old picture as a group would: the skipped layers' own
    /// rectangles must be.
    @Test func subtreesThatDrawNothingAreSkippedAndComeBackWhereTheyAre() throws {
        freshRuntime()
        let r = root(96, 96)
        let parent = Layer()
        parent.anchorPoint = .zero
        let a = square(Rect(x: 4, y: 4, width: 20, height: 20), .red)
        let b = square(Rect(x: 50, y: 10, width: 30, height: 16), .blue)
        let inner = square(Rect(x: 2, y: 2, width: 6, height: 6), .green)
        b.addSublayer(inner)
        parent.addSublayer(a)
        parent.addSublayer(b)
        r.addSublayer(parent)
        let steps: [(String, () -> Void)] = [
            ("shown", {}),
            ("hidden", { parent.isHidden = true }),
            ("moved while hidden", { a.position = Point(x: 60, y: 70); inner.backgroundColor = .black }),
            ("shown again", { parent.isHidden = false }),
            ("zero opacity, no group opacity", { parent.allowsGroupOpacity = false; parent.opacity = 0 }),
            ("moved at zero opacity", { b.position = Point(x: 30, y: 60) }),
            ("opaque again", { parent.opacity = 1 }),
            ("zero opacity, group opacity", { parent.allowsGroupOpacity = true; parent.opacity = 0 }),
            ("half", { parent.opacity = 0.5 }),
            ("a hidden leaf", { a.isHidden = true }),
        ]
        try expectDamagedFramesMatchFullRedraws(of: r, through: steps)
    }

    /// A mask's sublayers under a hidden layer or one at zero opacity are not prepared, and
    /// their signatures are left out of the mask's: hiding, moving and showing them again must
    /// still redraw what the mask covers.
    @Test(arguments: [MaskMode.alpha, .luminance, .invertedAlpha])
    func aMaskSubtreeHiddenMovedAndShownAgainRedrawsWhatItMasks(mode: MaskMode) throws {
        freshRuntime()
        let r = root(96, 96)
        let content = square(Rect(x: 0, y: 0, width: 90, height: 90), .red)
        content.addSublayer(square(Rect(x: 10, y: 40, width: 30, height: 30), .blue))
        let mask = Layer()
        mask.frame = content.bounds
        let container = Layer()    // zero bounds, as a Lottie precomposition's
        container.anchorPoint = .zero
        let a = square(Rect(x: 4, y: 4, width: 30, height: 20), .black)
        let b = square(Rect(x: 40, y: 30, width: 30, height: 40), Color(white: 0, alpha: 0.5))
        container.addSublayer(a)
        container.addSublayer(b)
        mask.addSublayer(container)
        content.mask = mask
        content.maskMode = mode
        r.addSublayer(content)
        let steps: [(String, () -> Void)] = [
            ("shown", {}),
            ("hidden", { container.isHidden = true }),
            ("moved while hidden", { a.position = Point(x: 60, y: 70); b.opacity = 0.25 }),
            ("shown again", { container.isHidden = false }),
            ("zero opacity", { container.opacity = 0 }),
            ("moved at zero opacity", { b.position = Point(x: 30, y: 60) }),
            ("opaque again", { container.opacity = 1 }),
            ("a hidden leaf", { a.isHidden = true }),
            ("recoloured", { b.backgroundColor = .white }),
            ("hidden again", { container.isHidden = true }),
            ("shown once more", { container.isHidden = false }),
        ]
        try expectDamagedFramesMatchFullRedraws(of: r, through: steps, label: "\(mode) ")
    }

    /// Applies each step without actions and renders a frame after it, damage-tracked and whole:
    /// every frame must match to the bit.
    private func expectDamagedFramesMatchFullRedraws(of r: Layer, through steps: [(String, () -> Void)],
                                                     label: String = "") throws {
        let tracked = try Bitmap(width: Int(r.bounds.width), height: Int(r.bounds.height))
        let full = try Bitmap(width: tracked.width, height: tracked.height)
        let damaged = LayerRenderer()
        let everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        for (i, (name, change)) in steps.enumerated() {
            Transaction.begin()
            Transaction.disableActions = true
            change()
            Transaction.commit()
            let t = Double(i) / 10
            damaged.render(r, at: t, into: tracked)
            everything.render(r, at: t, into: full)
            let diff = difference(tracked, full, tolerance: 0)
            #expect(diff?.differingPixels == 0, "\(label)\(name): \(diff?.differingPixels ?? -1) pixels differ")
        }
    }

    @Test func pixelsTheRootDoesNotCoverOpaquelyAreCleared() throws {
        freshRuntime()
        // The root's opaque background replaces clearing only where it covers whole pixels.
        let r = Layer()
        r.frame = Rect(x: 0.5, y: 0, width: 40, height: 64)
        r.backgroundColor = .white
        let s = square(Rect(x: 10, y: 10, width: 8, height: 8), .red)
        r.addSublayer(s)
        let bitmap = try Bitmap(width: 64, height: 64)
        bitmap.clear(to: Color.green.premultipliedPixel)
        let renderer = LayerRenderer()
        renderer.clearColor = .blue
        renderer.render(r, at: 0, into: bitmap)
        #expect(bitmap[50, 30] == Color.blue.premultipliedPixel)
        #expect(bitmap[20, 30] == Color.white.premultipliedPixel)
        // Half white over blue, never over the green that was there before the frame.
        // (coverage 128: 0x80808080 + 127/255 of 0xFF0000FF).
        #expect(bitmap[0, 30] == 0xFF80_80FF)
        #expect(bitmap[40, 30] == bitmap[0, 30])
        Transaction.begin()
        Transaction.disableActions = true
        s.position = Point(x: 30.5, y: 40)
        Transaction.commit()
        renderer.render(r, at: 0.1, into: bitmap)
        #expect(bitmap[11, 11] == Color.white.premultipliedPixel)
    }

    @Test func removingALayerDamagesWhereItWas() throws {
        freshRuntime()
        let r = root()
        let s = square(Rect(x: 30, y: 30, width: 10, height: 10), .green)
        r.addSublayer(s)
        let bitmap = try Bitmap(width: 64, height: 64)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        s.removeFromSuperlayer()
        let damage = renderer.render(r, at: 0.1, into: bitmap)
        #expect(!damage.isEmpty)
        #expect(bitmap[35, 35] == Color.white.premultipliedPixel)
    }

    @Test func opacityMasksToBoundsAndContentsGravity() throws {
        freshRuntime()
        let r = root()
        let parent = square(Rect(x: 0, y: 0, width: 32, height: 32), .clear)
        parent.masksToBounds = true
        parent.opacity = 0.5
        let child = square(Rect(x: 16, y: 16, width: 32, height: 32), .black)
        parent.addSublayer(child)
        r.addSublayer(parent)
        let image = try Bitmap(width: 4, height: 2)
        image.fill(image.bounds, with: Color.red.premultipliedPixel)
        let picture = Layer()
        picture.frame = Rect(x: 40, y: 40, width: 16, height: 16)
        picture.contents = image
        picture.contentsGravity = .resizeAspect
        r.addSublayer(picture)
        let bitmap = try Bitmap(width: 64, height: 64)
        LayerRenderer().render(r, at: 0, into: bitmap)
        #expect(channelDifference(bitmap[20, 20], Color(white: 0.5).premultipliedPixel) <= 1)   // half-black over white
        #expect(bitmap[40, 20] == Color.white.premultipliedPixel)                 // clipped by the parent
        #expect(bitmap[47, 47] == Color.red.premultipliedPixel)                   // aspect-fit band: y 44..52
        #expect(bitmap[47, 41] == Color.white.premultipliedPixel)
    }

    @Test func shapeLayerPathAnimatesBetweenSameShapes() throws {
        freshRuntime()
        let r = root()
        let shape = ShapeLayer()
        var small = Path(), big = Path()
        small.addRect(Rect(x: 4, y: 4, width: 8, height: 8))
        big.addRect(Rect(x: 4, y: 4, width: 48, height: 48))
        shape.path = small
        shape.fillColor = .blue
        r.addSublayer(shape)
        let morph = BasicAnimation(keyPath: "path")
        morph.fromValue = small
        morph.toValue = big
        morph.duration = 1
        shape.add(morph, forKey: "morph")
        let bitmap = try Bitmap(width: 64, height: 64)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        renderer.render(r, at: 0.5, into: bitmap)
        #expect(bitmap[20, 20] == Color.blue.premultipliedPixel)                   // 4...32 at half-way
        #expect(bitmap[40, 40] == Color.white.premultipliedPixel)
        let shown = try #require(shape.presentation())
        #expect(shown.path?.boundingBox == Rect(x: 4, y: 4, width: 28, height: 28))
        #expect(shape.path == small)
    }

    @Test func sceneGolden() throws {
        freshRuntime()
        let r = root(120, 80)
        let card = square(Rect(x: 10, y: 10, width: 60, height: 40), Color(rgb: 0x3366CC))
        card.cornerRadius = 10
        card.borderWidth = 3
        card.borderColor = Color(rgb: 0x112244)
        card.transform = Transform(rotationAngle: 0.2)
        let shape = ShapeLayer()
        var star = Path()
        for i in 0..<10 {
            let angle = Double(i) * .pi / 5 - .pi / 2
            let radius = i % 2 == 0 ? 22.0 : 9.0
            let p = Point(x: 90 + radius * cos(angle), y: 45 + radius * sin(angle))
            if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        shape.path = star
        shape.fillColor = Color(rgb: 0xFFCC00)
        shape.strokeColor = Color(rgb: 0x884400)
        shape.lineWidth = 2
        shape.lineJoin = .round
        r.addSublayer(card)
        r.addSublayer(shape)
        let bitmap = try Bitmap(width: 120, height: 80)
        LayerRenderer().render(r, at: 0, into: bitmap)
        assertMatchesGolden(bitmap, named: "layer-scene", in: Bundle.module, tolerance: 2)
        #expect(bitmap[40, 30] == Color(rgb: 0x3366CC).premultipliedPixel)
        #expect(bitmap[90, 45] == Color(rgb: 0xFFCC00).premultipliedPixel)
    }
}
}

extension RuntimeSuites.LayerRendererTests {
    @Test func shapeLayerStrokeEndAndDashes() throws {
        freshRuntime()
        let r = root(100, 20)
        let line = ShapeLayer()
        var path = Path()
        path.move(to: Point(x: 0, y: 10))
        path.addLine(to: Point(x: 100, y: 10))
        line.path = path
        line.fillColor = nil
        line.strokeColor = .black
        line.lineWidth = 4
        line.strokeEnd = 0.5
        r.addSublayer(line)
        let bitmap = try Bitmap(width: 100, height: 20)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        #expect(bitmap[25, 10] == Color.black.premultipliedPixel)
        #expect(bitmap[75, 10] == Color.white.premultipliedPixel)
        line.strokeEnd = 1
        line.lineDashPattern = [10, 10]
        renderer.render(r, at: 1, into: bitmap)                  // implicit animations finished
        renderer.render(r, at: 2, into: bitmap)
        #expect(bitmap[5, 10] == Color.black.premultipliedPixel)
        #expect(bitmap[15, 10] == Color.white.premultipliedPixel)
        #expect(bitmap[85, 10] == Color.black.premultipliedPixel)      // dash 80...90
        #expect(bitmap[95, 10] == Color.white.premultipliedPixel)      // gap 90...100
    }

    @Test func maskAlphaMultipliesTheLayerAndNestedMasksAreIgnored() throws {
        freshRuntime()
        let r = root(40, 40)
        let red = square(Rect(x: 0, y: 0, width: 40, height: 40), .red)
        let mask = square(Rect(x: 0, y: 0, width: 20, height: 40), Color(white: 0, alpha: 0.5))
        let inner = Layer()
        inner.frame = mask.bounds
        inner.mask = square(Rect(x: 0, y: 0, width: 1, height: 1), .black)   // a mask inside a mask
        mask.addSublayer(inner)
        red.mask = mask
        r.addSublayer(red)
        let bitmap = try Bitmap(width: 40, height: 40)
        LayerRenderer().render(r, at: 0, into: bitmap)
        let half = Color(red: 1, green: 0.5, blue: 0.5)                          // half red over white
        #expect(channelDifference(bitmap[10, 20], half.premultipliedPixel) <= 1)
        #expect(bitmap[30, 20] == Color.white.premultipliedPixel)
    }
}

extension RuntimeSuites.LayerRendererTests {
    @Test func reorderingSiblingsRepaintsWhereTheyOverlap() throws {
        freshRuntime()
        let r = root(40, 40)
        let red = square(Rect(x: 0, y: 0, width: 30, height: 30), .red)
        let blue = square(Rect(x: 10, y: 10, width: 30, height: 30), .blue)
        r.addSublayer(red)
        r.addSublayer(blue)
        let bitmap = try Bitmap(width: 40, height: 40)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        #expect(bitmap[20, 20] == Color.blue.premultipliedPixel)
        r.insertSublayer(red, above: blue)
        #expect(!renderer.render(r, at: 0.1, into: bitmap).isEmpty)
        #expect(bitmap[20, 20] == Color.red.premultipliedPixel)
    }
}

import Foundation
import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport

extension RuntimeSuites {
/// Groups (opacity below 1 over sublayers, compositingFilter) keep their offscreen picture from
/// frame to frame: a frame that changes nothing in the subtree composites it as it is.
@MainActor
@Suite struct GroupPictureTests {
    init() { freshRuntime() }

    func square(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    /// The frame at `time` drawn by a renderer that has never drawn before (no kept pictures).
    func fresh(_ root: Layer, at time: Double, width: Int, height: Int) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        LayerRenderer().render(root, at: time, into: bitmap)
        return bitmap
    }

    func withoutActions(_ changes: () -> Void) {
        Transaction.perform(disableActions: true, changes: changes)
    }

    @Test func anUnchangedGroupIsCompositedWithoutRedrawingAndChangesRedrawOnlyTheirDamage() throws {
        let root = square(Rect(x: 0, y: 0, width: 96, height: 96), .white)
        keptRoots.append(root)
        let group = Layer()
        group.frame = Rect(x: 13, y: 9, width: 60, height: 60)
        group.opacity = 0.5
        let red = square(Rect(x: 0, y: 0, width: 36, height: 36), .red)
        let blue = square(Rect(x: 20, y: 20, width: 36, height: 36), .blue)
        group.addSublayer(red)
        group.addSublayer(blue)
        let blend = square(Rect(x: 50, y: 50, width: 40, height: 40), Color(red: 0.9, green: 0.5, blue: 0.2, alpha: 0.8))
        blend.compositingFilter = .multiply
        blend.addSublayer(square(Rect(x: 10, y: 10, width: 20, height: 20), .green))
        let mover = square(Rect(x: 0, y: 40, width: 14, height: 14), .black)
        root.addSublayer(group)
        root.addSublayer(blend)
        root.addSublayer(mover)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 96, height: 96)
        var time = 0.0
        func step(_ changes: () -> Void = {}) throws {
            time += 1.0 / 60
            withoutActions(changes)
            renderer.render(root, at: time, into: frame)
            #expect(frame.hasSamePixels(as: try fresh(root, at: time, width: 96, height: 96)), "t = \(time)")
        }
        try step()
        #expect(renderer.effects.pixelsRedrawn > 0)
        // Another layer crossing both groups damages them, but nothing in them changed.
        for i in 1...8 {
            try step { mover.position = Point(x: 7 + Double(i) * 9, y: 47 + Double(i) * 3) }
            #expect(renderer.effects.pixelsRedrawn == 0, "frame \(i)")
        }
        // The group's opacity and the blend mode apply when the picture is composited.
        try step { group.opacity = 0.3; blend.compositingFilter = .screen }
        #expect(renderer.effects.pixelsRedrawn == 0)
        // A change inside redraws the picture where it changed, not all of it.
        try step { blue.backgroundColor = .green }
        #expect(renderer.effects.pixelsRedrawn > 0 && renderer.effects.pixelsRedrawn < 60 * 60)
        try step { red.position = Point(x: 20, y: 22) }
        #expect(renderer.effects.pixelsRedrawn > 0)
        // A sublayer removed changes the picture too.
        try step { blue.removeFromSuperlayer() }
        #expect(renderer.effects.pixelsRedrawn > 0)
        try step { mover.position = Point(x: 30, y: 30) }
        #expect(renderer.effects.pixelsRedrawn == 0)
        // Moving the group itself redraws its picture at its new place.
        try step { group.position = Point(x: 48, y: 44) }
        #expect(renderer.effects.pixelsRedrawn > 0)
    }

    @Test func animatedGroupOpacityCompositesTheKeptPicture() throws {
        let root = square(Rect(x: 0, y: 0, width: 64, height: 64), .white)
        keptRoots.append(root)
        let group = Layer()
        group.frame = Rect(x: 5, y: 7, width: 50, height: 50)
        group.opacity = 0.6
        group.addSublayer(square(Rect(x: 0, y: 0, width: 30, height: 30), .red))
        group.addSublayer(square(Rect(x: 15, y: 15, width: 30, height: 30), .blue))
        root.addSublayer(group)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 64, height: 64)
        renderer.render(root, at: 0, into: frame)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.9
        fade.toValue = 0.1
        fade.duration = 1
        group.add(fade, forKey: "fade")
        for i in 1...6 {
            let t = Double(i) * 0.15
            renderer.render(root, at: t, into: frame)
            #expect(renderer.effects.pixelsRedrawn == 0, "frame \(i)")
            #expect(frame.hasSamePixels(as: try fresh(root, at: t, width: 64, height: 64)), "frame \(i)")
        }
    }

    /// Inside a picture whose origin is not the frame's, masks (drawn into pixels, tracked as
    /// coverage, luminance), shadows, clips and nested groups land where they do in the frame.
    @Test func picturesDrawMasksShadowsAndNestedGroupsInPlace() throws {
        func scene(filter: BlendFunction?) -> (Layer, WedgeLayer) {
            let root = square(Rect(x: 0, y: 0, width: 120, height: 100), Color(white: 0.85))
            keptRoots.append(root)
            let group = Layer()
            group.frame = Rect(x: 17, y: 11, width: 96, height: 84)
            group.compositingFilter = filter
            // A mask with a sublayer, drawn into pixels.
            let masked = square(Rect(x: 0, y: 0, width: 40, height: 40), .red)
            let mask = square(Rect(x: 0, y: 0, width: 20, height: 40), .black)
            mask.addSublayer(square(Rect(x: 20, y: 10, width: 20, height: 20), Color(white: 0, alpha: 0.5)))
            masked.mask = mask
            group.addSublayer(masked)
            // A mask of recorded fills at a whole-pixel offset: tracked coverage in the frame.
            let wedged = square(Rect(x: 44, y: 0, width: 40, height: 40), .blue)
            let wedge = WedgeLayer()
            wedge.frame = Rect(x: 0, y: 0, width: 40, height: 40)
            wedge.sweep = 2
            wedged.mask = wedge
            group.addSublayer(wedged)
            // A luminance mask.
            let lit = square(Rect(x: 0, y: 44, width: 30, height: 30), .green)
            let luma = square(Rect(x: 0, y: 0, width: 30, height: 30), Color(white: 0.4))
            lit.mask = luma
            lit.maskMode = .luminance
            group.addSublayer(lit)
            // A shadow cast by content, under a rounded clip's sibling.
            let card = square(Rect(x: 36, y: 46, width: 24, height: 20), .white)
            card.shadowOpacity = 0.8
            card.shadowRadius = 3
            card.shadowOffset = Size(width: 3, height: 4)
            group.addSublayer(card)
            let rounded = square(Rect(x: 66, y: 46, width: 26, height: 26), Color(red: 1, green: 0.85, blue: 0.1))
            rounded.cornerRadius = 8
            rounded.masksToBounds = true
            rounded.addSublayer(square(Rect(x: 10, y: 10, width: 30, height: 30), Color(red: 0.5, green: 0.1, blue: 0.6)))
            group.addSublayer(rounded)
            // A nested group.
            let inner = Layer()
            inner.frame = Rect(x: 60, y: 20, width: 30, height: 24)
            inner.opacity = 0.7
            inner.addSublayer(square(Rect(x: 0, y: 0, width: 20, height: 20), .red))
            inner.addSublayer(square(Rect(x: 10, y: 4, width: 20, height: 20), .green))
            group.addSublayer(inner)
            root.addSublayer(group)
            return (root, wedge)
        }
        // A compositing filter of .normal at full opacity draws what no group would, to rounding.
        // (Each frame's reference comes from a new renderer; the wedge's drawing is redisplayed
        // for it because its sweep changes every frame.)
        let (plain, plainWedge) = scene(filter: nil)
        let (grouped, wedge) = scene(filter: .normal)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 120, height: 100)
        for i in 0...4 {
            let t = Double(i) / 60
            if i > 0 { withoutActions { wedge.sweep = 2 + Double(i) * 0.7; plainWedge.sweep = wedge.sweep } }
            renderer.render(grouped, at: t, into: frame)
            let expected = try fresh(plain, at: t, width: 120, height: 100)
            let diff = try #require(difference(frame, expected, tolerance: 2))
            #expect(diff.differingPixels == 0, "frame \(i): \(diff)")
        }
    }

    /// A mask drawn into pixels (here one with a sublayer, inverted) is kept the same way.
    @Test func anUnchangedMaskIsNotRedrawn() throws {
        let root = square(Rect(x: 0, y: 0, width: 80, height: 80), .white)
        keptRoots.append(root)
        let masked = square(Rect(x: 10, y: 10, width: 50, height: 50), .blue)
        masked.addSublayer(square(Rect(x: 30, y: 30, width: 30, height: 30), .red))
        let mask = square(Rect(x: 0, y: 0, width: 25, height: 50), .black)
        let notch = square(Rect(x: 25, y: 10, width: 20, height: 20), Color(white: 0, alpha: 0.6))
        mask.addSublayer(notch)
        masked.mask = mask
        masked.maskMode = .invertedAlpha
        let mover = square(Rect(x: 0, y: 0, width: 12, height: 12), .green)
        root.addSublayer(masked)
        root.addSublayer(mover)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 80, height: 80)
        var time = 0.0
        func step(_ changes: () -> Void = {}) throws {
            time += 1.0 / 60
            withoutActions(changes)
            renderer.render(root, at: time, into: frame)
            #expect(frame.hasSamePixels(as: try fresh(root, at: time, width: 80, height: 80)), "t = \(time)")
        }
        try step()
        #expect(renderer.effects.pixelsRedrawn > 0)
        for i in 1...6 {
            try step { mover.position = Point(x: 6 + Double(i) * 10, y: 6 + Double(i) * 9) }
            #expect(renderer.effects.pixelsRedrawn == 0, "frame \(i)")
        }
        // A change in the mask's subtree redraws the mask where the frame is damaged.
        try step { notch.position = Point(x: 30, y: 40) }
        #expect(renderer.effects.pixelsRedrawn > 0)
        // A new mode changes the masked sublayers' pixels too, also outside the layer's bounds.
        try step { masked.maskMode = .luminance }
        #expect(renderer.effects.pixelsRedrawn > 0)
        try step { mover.position = Point(x: 40, y: 70) }
        #expect(renderer.effects.pixelsRedrawn == 0)
    }

    /// A masked layer that grows and shrinks again and again (a looping animation's) keeps its
    /// mask's picture once it has grown to its largest: the picture shrank at a quarter of its
    /// size and was made anew on the way up, every time round (Lottie's rlottie-a_mountain
    /// allocated 44-73 times a frame for it). It still shrinks after `shrinkDelay` redraws too large.
    @Test func aMaskThatShrinksAndGrowsAgainKeepsItsPicture() throws {
        let root = square(Rect(x: 0, y: 0, width: 128, height: 128), .white)
        keptRoots.append(root)
        let masked = square(Rect(x: 4, y: 4, width: 120, height: 120), .blue)
        masked.addSublayer(square(Rect(x: 10, y: 10, width: 30, height: 30), .red))
        let mask = square(Rect(x: 0, y: 0, width: 60, height: 120), .black)
        mask.addSublayer(square(Rect(x: 60, y: 20, width: 30, height: 30), Color(white: 0, alpha: 0.6)))
        masked.mask = mask
        masked.maskMode = .invertedAlpha
        root.addSublayer(masked)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 128, height: 128)
        var time = 0.0
        func step(side: Double) throws {
            time += 1.0 / 60
            withoutActions { masked.bounds = Rect(x: 0, y: 0, width: side, height: side) }
            renderer.render(root, at: time, into: frame)
            #expect(frame.hasSamePixels(as: try fresh(root, at: time, width: 128, height: 128)), "t = \(time)")
        }
        var sides: [Double] = []
        for i in 0..<20 { sides.append(120 - 6 * Double(i)) }
        for i in 0..<20 { sides.append(6 + 6 * Double(i)) }
        for side in sides { try step(side: side) }
        let picture = try #require(mask.record(in: renderer).maskPicture)
        for round in 1...3 {
            for side in sides {
                try step(side: side)
                #expect(mask.record(in: renderer).maskPicture === picture, "round \(round), side \(side)")
            }
        }
        // Small and changing for longer than the delay, it gives the memory back.
        for i in 0...OffscreenPicture.shrinkDelay { try step(side: i % 2 == 0 ? 8 : 10) }
        #expect(mask.record(in: renderer).maskPicture !== picture)
    }

    /// A mask whose owner turns from wide to tall and back (a glyph drawn stroke by stroke, in
    /// lottie-ios-TypeFace-K) keeps one picture once it has held both: outgrown in one side, the
    /// bitmap keeps the other side's size instead of trading a wide bitmap for a tall one.
    @Test func aMaskThatTurnsFromWideToTallKeepsItsPicture() throws {
        let root = square(Rect(x: 0, y: 0, width: 128, height: 128), .white)
        keptRoots.append(root)
        let masked = square(Rect(x: 4, y: 4, width: 110, height: 30), .blue)
        masked.addSublayer(square(Rect(x: 5, y: 5, width: 20, height: 20), .red))
        let mask = square(Rect(x: 0, y: 0, width: 60, height: 60), .black)
        masked.mask = mask
        root.addSublayer(masked)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 128, height: 128)
        var time = 0.0
        func step(wide: Bool) throws {
            time += 1.0 / 60
            withoutActions { masked.bounds = Rect(x: 0, y: 0, width: wide ? 110 : 30, height: wide ? 30 : 110) }
            renderer.render(root, at: time, into: frame)
            #expect(frame.hasSamePixels(as: try fresh(root, at: time, width: 128, height: 128)), "t = \(time)")
        }
        try step(wide: true)
        try step(wide: false)
        let picture = try #require(mask.record(in: renderer).maskPicture)
        for round in 1...4 {
            try step(wide: round % 2 == 1)
            #expect(mask.record(in: renderer).maskPicture === picture, "round \(round)")
        }
    }

    /// A group sliding out over the frame's edge and back keeps one picture: the part inside
    /// the frame shrinks and grows, the bitmap stays (no allocation per frame).
    @Test func aGroupSlidingOverTheFramesEdgeKeepsItsPicture() throws {
        let root = square(Rect(x: 0, y: 0, width: 64, height: 64), .white)
        keptRoots.append(root)
        let group = Layer()
        group.frame = Rect(x: 10, y: 10, width: 40, height: 40)
        group.opacity = 0.5
        group.addSublayer(square(Rect(x: 0, y: 0, width: 30, height: 30), .red))
        group.addSublayer(square(Rect(x: 10, y: 10, width: 30, height: 30), .blue))
        root.addSublayer(group)
        let renderer = LayerRenderer()
        let frame = try Bitmap(width: 64, height: 64)
        renderer.render(root, at: 0, into: frame)
        let picture = try #require(group.record(in: renderer).picture)
        for i in 1...16 {
            let x = 30 + 7 * Double(i <= 8 ? i : 16 - i)
            let t = Double(i) / 60
            withoutActions { group.position = Point(x: x, y: 30) }
            renderer.render(root, at: t, into: frame)
            #expect(group.record(in: renderer).picture === picture, "frame \(i), x \(x)")
            #expect(frame.hasSamePixels(as: try fresh(root, at: t, width: 64, height: 64)), "frame \(i)")
        }
    }

    /// Core Animation's opacity is a `Float`: a `Double` within half its step of 1 (1 - 1e-9,
    /// float noise in an animated value) is 1 there. A layer at that opacity over sublayers is not
    /// a group, keeps no picture, and draws the pixels of opacity 1 (a group composited at the
    /// same 8-bit alpha rounds translucent sublayers differently), also as a replicator's instance.
    @Test func anOpacityShortOfOneByFloatNoiseDrawsAsOpaque() throws {
        func scene(opacity: Double, replicated: Bool) -> (root: Layer, layer: Layer) {
            let root = square(Rect(x: 0, y: 0, width: 48, height: 48), Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 1))
            let layer = Layer()
            layer.frame = Rect(x: 4, y: 4, width: 40, height: 40)
            layer.opacity = opacity
            layer.addSublayer(square(Rect(x: 0, y: 0, width: 28, height: 28), Color(red: 0.1, green: 0.3, blue: 0.1, alpha: 0.35)))
            layer.addSublayer(square(Rect(x: 12, y: 12, width: 28, height: 28), Color(red: 0.1, green: 0.1, blue: 0.4, alpha: 0.35)))
            if replicated {
                let replicator = ReplicatorLayer()
                replicator.frame = root.bounds
                replicator.instanceCount = 1
                replicator.addSublayer(layer)
                root.addSublayer(replicator)
            } else {
                root.addSublayer(layer)
            }
            keptRoots.append(root)
            return (root, layer)
        }
        for replicated in [false, true] {
            let opaque = scene(opacity: 1, replicated: replicated)
            let noisy = scene(opacity: 1 - 1e-9, replicated: replicated)
            let renderer = LayerRenderer()
            let frame = try Bitmap(width: 48, height: 48)
            renderer.render(noisy.root, at: 0, into: frame)
            if !replicated {
                #expect(!noisy.layer.record(in: renderer).isGroup)
                #expect(noisy.layer.record(in: renderer).picture == nil)
            }
            #expect(frame.hasSamePixels(as: try fresh(opaque.root, at: 0, width: 48, height: 48)), "replicated \(replicated)")
        }
    }
}
}

import Foundation
import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport

extension RuntimeSuites {
@MainActor
@Suite struct ReplicatorLayerTests {
    init() { freshRuntime() }

    /// The classic activity indicator: twelve dots turned 30° apart about the centre.
    func spinner(count: Int = 12, delay: Double = 0) -> (root: Layer, replicator: ReplicatorLayer, dot: Layer) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 64, height: 64)
        keptRoots.append(root)
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 0, y: 0, width: 64, height: 64)
        replicator.instanceCount = count
        replicator.instanceTransform = Transform(rotationAngle: 2 * .pi / Double(count))
        replicator.instanceDelay = delay
        let dot = Layer()
        dot.frame = Rect(x: 29, y: 4, width: 6, height: 6)
        dot.backgroundColor = .black
        replicator.addSublayer(dot)
        root.addSublayer(replicator)
        return (root, replicator, dot)
    }

    @Test func instancesSitAtTheRotatedPositions() throws {
        freshRuntime()
        let (root, _, _) = spinner()
        let bitmap = try Bitmap(width: 64, height: 64)
        LayerRenderer().render(root, at: 0, into: bitmap)
        for i in 0..<12 {
            let a = Double(i) * .pi / 6
            // The dot's centre (32, 7) turned by a about (32, 32).
            let x = 32 - 25 * sin(-a), y = 32 - 25 * cos(-a)
            #expect(bitmap[Int(x), Int(y)] == Color.black.premultipliedPixel, "instance \(i) at (\(x), \(y))")
        }
        #expect(bitmap[32, 32] == 0)
        #expect(bitmap[32, 20] == 0)
    }

    @Test func delaysShiftEachInstancesAnimation() throws {
        freshRuntime()
        let (root, replicator, dot) = spinner(count: 3, delay: 0.25)
        replicator.instanceTransform = Transform(translationX: 0, y: 16)
        LayerClock.advance(to: 0)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        fade.timingFunction = .linear
        fade.beginTime = 0
        // Kept after instance 0 finishes, so the delayed instances can finish too.
        fade.isRemovedOnCompletion = false
        fade.fillMode = .forwards
        dot.add(fade, forKey: "fade")
        let bitmap = try Bitmap(width: 64, height: 64)
        let renderer = LayerRenderer()
        renderer.render(root, at: 0.5, into: bitmap)
        // Instance i runs 0.25·i seconds late: opacity 0.5, 0.75, and 1 (not started yet).
        #expect(bitmap[32, 7] >> 24 == 128)
        #expect(bitmap[32, 23] >> 24 == 191)
        #expect(bitmap[32, 39] >> 24 == 255)
        // Instance 0 has finished at 1.1; the later ones still animate and are still redrawn.
        let damage = renderer.render(root, at: 1.1, into: bitmap)
        #expect(damage.contains { !$0.intersection(IntRect(x: 29, y: 36, width: 6, height: 6)).isEmpty })
        #expect(bitmap[32, 23] >> 24 == 38)
        #expect(bitmap[32, 39] >> 24 == 102)
    }

    @Test func instanceColorAndOffsetsTintEachCopy() throws {
        freshRuntime()
        let (root, replicator, dot) = spinner(count: 3)
        replicator.instanceTransform = Transform(translationX: 0, y: 16)
        dot.backgroundColor = .white
        replicator.instanceColor = Color(red: 1, green: 0.5, blue: 1)
        replicator.instanceRedOffset = -0.5
        replicator.instanceAlphaOffset = -0.25
        let bitmap = try Bitmap(width: 64, height: 64)
        LayerRenderer().render(root, at: 0, into: bitmap)
        #expect(bitmap[32, 7] == Color(red: 1, green: 0.5, blue: 1).premultipliedPixel)
        #expect(bitmap[32, 23] == Color(red: 0.5, green: 0.5, blue: 1, alpha: 0.75).premultipliedPixel)
        #expect(bitmap[32, 39] == Color(red: 0, green: 0.5, blue: 1, alpha: 0.5).premultipliedPixel)
        #expect(replicator.instanceTint(at: 5).red == 0)
    }

    @Test func idleFramesDrawNothingAndDamagedFramesMatchFullRedraws() throws {
        freshRuntime()
        let (root, replicator, dot) = spinner(delay: 1.0 / 12)
        root.backgroundColor = .white
        LayerClock.advance(to: 0)
        let tracked = try Bitmap(width: 64, height: 64), full = try Bitmap(width: 64, height: 64)
        let damaged = LayerRenderer(), everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        damaged.render(root, at: 0, into: tracked)
        #expect(damaged.render(root, at: 0.1, into: tracked).isEmpty)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.1
        fade.duration = 1
        fade.repeatCount = .infinity
        dot.add(fade, forKey: "fade")
        let turn = BasicAnimation(keyPath: "instanceTransform")
        turn.toValue = Transform(rotationAngle: .pi / 4)
        turn.duration = 2
        replicator.add(turn, forKey: "turn")
        for frame in 1...20 {
            let t = 0.1 + Double(frame) * 0.07
            damaged.render(root, at: t, into: tracked)
            everything.render(root, at: t, into: full)
            #expect(tracked.hasSamePixels(as: full), "frame \(frame)")
        }
    }

    @Test func spinnerMatchesGolden() throws {
        freshRuntime()
        let (root, replicator, dot) = spinner(delay: 1.0 / 12)
        root.backgroundColor = Color(white: 0.95)
        dot.cornerRadius = 3
        dot.backgroundColor = Color(rgb: 0x3366CC)
        replicator.instanceGreenOffset = -0.05
        LayerClock.advance(to: 0)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.1
        fade.duration = 1
        fade.repeatCount = .infinity
        dot.add(fade, forKey: "fade")
        let bitmap = try Bitmap(width: 64, height: 64)
        LayerRenderer().render(root, at: 0.5, into: bitmap)
        assertMatchesGolden(bitmap, named: "replicator-spinner", in: Bundle.module, tolerance: GoldenTolerance.default)
    }

    /// Each instance is masked by its own copy of the mask, at the instance's place and time.
    @Test func masksApplyToEveryInstanceAtItsTransformAndDelay() throws {
        freshRuntime()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 64, height: 24)
        root.backgroundColor = .white
        keptRoots.append(root)
        let replicator = ReplicatorLayer()
        replicator.frame = root.bounds
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform(translationX: 20, y: 0)
        replicator.instanceDelay = 0.25
        let bar = Layer()
        bar.frame = Rect(x: 2, y: 4, width: 16, height: 16)
        bar.backgroundColor = .red
        let mask = Layer()
        mask.frame = Rect(x: 0, y: 0, width: 8, height: 16)    // the bar's left half
        mask.backgroundColor = .black
        bar.mask = mask
        replicator.addSublayer(bar)
        root.addSublayer(replicator)
        LayerClock.advance(to: 0)
        let bitmap = try Bitmap(width: 64, height: 24)
        let renderer = LayerRenderer()
        renderer.render(root, at: 0, into: bitmap)
        for i in 0..<3 {
            let x = 2 + 20 * i
            #expect(bitmap[x + 4, 12] == Color.red.premultipliedPixel, "instance \(i), left half")
            #expect(bitmap[x + 12, 12] == Color.white.premultipliedPixel, "instance \(i), right half")
        }
        // The mask fades; instance i sees it i × 0.25 s late.
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        fade.timingFunction = .linear
        fade.beginTime = 0
        fade.isRemovedOnCompletion = false
        fade.fillMode = .both
        mask.add(fade, forKey: "fade")
        let full = try Bitmap(width: 64, height: 24)
        let everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        for t in [0.5, 0.6, 0.75] {
            renderer.render(root, at: t, into: bitmap)
            everything.render(root, at: t, into: full)
            #expect(bitmap.hasSamePixels(as: full), "t = \(t)")
        }
        for i in 0..<3 {
            let alpha = 1 - max(0, min(1, 0.75 - 0.25 * Double(i)))
            let expected = BlendFunction.normal.composite(Color.red.withAlpha(alpha).premultipliedPixel, over: Color.white.premultipliedPixel)
            #expect(channelDifference(bitmap[2 + 20 * i + 4, 12], expected) <= 2, "instance \(i)")
            #expect(bitmap[2 + 20 * i + 12, 12] == Color.white.premultipliedPixel, "instance \(i), right half")
        }
    }
}
}

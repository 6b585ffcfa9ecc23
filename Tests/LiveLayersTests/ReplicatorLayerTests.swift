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
}
}

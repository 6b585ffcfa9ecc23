import Testing
@testable import live_player
@testable import LiveLayers
import Raster

/// Frames drawn as two bands on two threads are the frames drawn on one, pixel for pixel.
@MainActor
@Suite(.serialized) struct BandedDrawingTests {
    /// Each scene, animating, drawn by two renderers of its one tree: one on one thread, one
    /// splitting every frame (whatever the damage's size and the CPU count) at the row that halves
    /// the damage. Tolerance 0, every frame; and the split renderer did split.
    @Test(arguments: [SceneKind.arrow, .rays, .orbit, .line, .pk, .fillmodes, .gallery])
    func bandedFramesEqualSingleThreadedFrames(kind: SceneKind) throws {
        LayerRuntime.shared.reset()
        let size = (width: 320, height: 240)
        // Two scenes (their frames are deterministic), so each renderer redraws its own content.
        let setup = SceneSetup(size: Size(width: Double(size.width), height: Double(size.height)), image: nil)
        let scene = makeScene(kind, setup: setup), twin = makeScene(kind, setup: setup)
        Transaction.flush()
        let single = LayerRenderer(), banded = LayerRenderer()
        single.drawsInParallel = false
        banded.bands.isForced = true
        single.clearColor = scene.clearColor
        banded.clearColor = twin.clearColor
        let a = try Bitmap(width: size.width, height: size.height), b = try Bitmap(width: size.width, height: size.height)
        LayerClock.advance(to: 0)
        scene.go()
        twin.go()
        var splitFrames = 0
        for frame in 0..<90 {
            let t = Double(frame) / 60
            scene.frameDelivered(at: t)
            twin.frameDelivered(at: t)
            let damageA = single.render(scene.root, at: t, into: a)
            let damageB = banded.render(twin.root, at: t, into: b)
            if banded.bands.worker != nil, banded.bands.isFrameSafe, !damageB.isEmpty { splitFrames += 1 }
            #expect(damageA == damageB, "\(kind) frame \(frame)")
            let same = a.hasSamePixels(as: b)
            #expect(same, "\(kind) frame \(frame): banded pixels differ")
            if !same { break }
        }
        if kind != .gallery { #expect(splitFrames > 0, "\(kind) never drew in two bands") }
    }
}

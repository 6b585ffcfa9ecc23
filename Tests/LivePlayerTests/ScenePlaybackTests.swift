import Testing
@testable import live_player
@testable import LiveLayers
import Raster

/// Scenes driven in-process on virtual time, the way the windowed player drives them.
@MainActor
@Suite(.serialized) struct ScenePlaybackTests {
    init() { LayerRuntime.shared.reset() }

    @Test(arguments: [0.0, 0.0182])
    func goAfterTheFirstFrameSweepsTheArrow(goTime: Double) throws {
        LayerRuntime.shared.reset()
        let scene = ArrowScene(setup: SceneSetup(size: Size(width: 200, height: 200), image: nil))
        Transaction.flush()
        let renderer = LayerRenderer()
        let bitmap = try Bitmap(width: 200, height: 200)
        renderer.render(scene.root, at: 0, into: bitmap)
        LayerClock.advance(to: goTime)
        scene.go()
        var t = goTime
        for _ in 0..<30 {
            t += 1.0 / 60
            renderer.render(scene.root, at: t, into: bitmap)
        }
        try? bitmap.writePNG(to: "/tmp/ptest/go-\(goTime).png")
        // A point on the band at a fifth of a turn: covered by the image, not the background.
        #expect(bitmap[185, 72] != 0xFF20_2020)
    }
}

import DisplayClock
import Testing
@testable import live_player
@testable import LiveLayers
import Raster

/// A window that presents through Present hands out a ring of three frame buffers in turn, each
/// brought up to the newest frame before it is drawn again. With the overlay hidden the pipeline
/// used to render straight into each: the renderer took every buffer for a new target, redrew the
/// whole frame and made a new context for it (46 allocations a frame in `arrow`, against 2 with
/// the overlay shown). Now the damage alone is drawn and copied, with the same pixels.
@MainActor
@Suite(.serialized) struct RingTargetTests {
    func pipeline(width: Int, height: Int) throws -> FramePipeline {
        let link = DisplayLink(refreshRate: 60, clock: VirtualClock(now: 0), start: 0)
        return try FramePipeline(kind: .orbit, setup: SceneSetup(size: Size(width: Double(width), height: Double(height)), image: nil),
                                 link: link, overlay: nil, logCapacity: 16)
    }

    @Test func framesIntoARingOfTargetsRedrawOnlyTheDamage() throws {
        // In the body: a suite's init and its test can be separated by another suite's test.
        LayerRuntime.shared.reset()
        let width = 400, height = 300
        let ring = try (0..<3).map { _ in try Bitmap(width: width, height: height) }
        let player = try pipeline(width: width, height: height)
        // The same scene drawn into its own bitmap, frame after frame: the pixels to match.
        let reference = try pipeline(width: width, height: height)
        player.scene.go()
        reference.scene.go()
        var newest: Bitmap?
        var fullFrames = 0
        for frame in 1...30 {
            let time = Double(frame) / 60
            let target = ring[frame % ring.count]
            // What the presenter does on acquire: the buffer catches up with the newest frame.
            if let newest {
                newest.withUnsafeMutablePixels { source in target.withUnsafeMutablePixels { _ = $0.update(fromContentsOf: source) } }
            }
            player.produceFrame(mediaTime: time, into: target)
            player.finishFrame(blit: 0)
            reference.produceFrame(mediaTime: time, into: reference.sceneBitmap)
            reference.finishFrame(blit: 0)
            if frame > 3, player.targetDamage.contains(target.bounds) { fullFrames += 1 }
            newest = target
            #expect(target.withUnsafeMutablePixels { Array($0) } == reference.sceneBitmap.withUnsafeMutablePixels { Array($0) },
                    "frame \(frame) differs from the scene drawn into one bitmap")
        }
        #expect(fullFrames == 0, "\(fullFrames) of 27 warm frames redrew the whole target")
    }
}

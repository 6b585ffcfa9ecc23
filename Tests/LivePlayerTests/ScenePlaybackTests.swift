import Foundation
import Testing
@testable import live_player
@testable import LiveLayers
import Raster

/// Scenes driven in-process on virtual time, the way the windowed player drives them.
@MainActor
@Suite(.serialized) struct ScenePlaybackTests {
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
        // Written where a failure can be looked at while the test runs, and removed after.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-player-playback-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try bitmap.writePNG(to: folder.appendingPathComponent("go-\(goTime).png").path)
        // A point on the band at a fifth of a turn: covered by the image, not the background.
        #expect(bitmap[185, 72] != 0xFF20_2020)
    }
}

/// Go pressed again while a cycle runs replaces it: the replaced cycle's completion (its
/// animations stopped unfinished) neither counts as a completed cycle, which would make
/// `--autoplay` go again and replace the new one, nor shows the hint.
@MainActor
@Suite(.serialized) struct GoAgainTests {
    @Test(arguments: [SceneKind.arrow, .pk, .fillmodes, .orbit, .gallery])
    func goWhileRunningCompletesOneCycle(kind: SceneKind) {
        LayerRuntime.shared.reset()
        let scene = makeScene(kind, setup: SceneSetup(size: Size(width: 160, height: 120), image: nil))
        var completed: [Double] = []
        scene.onCycleComplete = { completed.append(LayerClock.currentTime) }
        LayerClock.advance(to: 0)
        scene.go()
        LayerClock.advance(to: 0.5)
        scene.go()
        for frame in 1...(20 * 60) { LayerClock.advance(to: 0.5 + Double(frame) / 60) }
        #expect(completed.count == 1, "\(kind) completed cycles at \(completed)")
        #expect((completed.first ?? 0) > 0.5 + 1.0 / 60, "\(kind) completed cycles at \(completed)")
    }
}

/// `--autoplay` keeps every scene moving: each completed cycle starts the next, for as long as
/// the player runs (pk's go ends where a second go does nothing, so it plays back between goes).
@MainActor
@Suite(.serialized) struct AutoplayCycleTests {
    @Test(arguments: [SceneKind.arrow, .pk, .fillmodes, .orbit, .gallery])
    func autoplayCompletesCycleAfterCycle(kind: SceneKind) throws {
        LayerRuntime.shared.reset()
        let scene = makeScene(kind, setup: SceneSetup(size: Size(width: 160, height: 120), image: nil))
        Transaction.flush()
        var completed = 0
        scene.onCycleComplete = { completed += 1; scene.autoplayNext() }
        let renderer = LayerRenderer()
        let bitmap = try Bitmap(width: 160, height: 120)
        LayerClock.advance(to: 0)
        scene.go()
        // Frames change in every stretch of the run, the last one included.
        var changedFrames = 0
        let previous = try Bitmap(width: 160, height: 120)
        var hasPrevious = false
        for frame in 1...(40 * 60) {
            let t = Double(frame) / 60
            LayerClock.advance(to: t)
            guard frame > 36 * 60 else { continue }
            renderer.render(scene.root, at: t, into: bitmap)
            if hasPrevious, !bitmap.hasSamePixels(as: previous) { changedFrames += 1 }
            previous.copy(from: bitmap, toX: 0, y: 0)
            hasPrevious = true
        }
        #expect(completed >= 4, "\(kind) completed \(completed) cycles in 40 s")
        #expect(changedFrames > 0, "\(kind) stood still over the last 4 s of autoplay")
    }
}

import DisplayClock
import Raster
import Testing
@testable import live_player

/// The overlay names the scene and size it is drawn over, even in the one frame a paused player
/// draws after a resize or Tab (its text is otherwise refreshed four times a second).
@MainActor @Suite struct FPSOverlayTests {
    /// The overlay's first text line, as drawn over a `width`×`height` frame of `scene`.
    func firstLine(of overlay: FPSOverlay, scene: SceneKind, width: Int, height: Int, link: DisplayLink) throws -> Bitmap {
        let target = try Bitmap(width: width, height: height)
        overlay.draw(into: target, in: overlay.frame(in: target.bounds), scene: scene, link: link)
        return try #require(target.cropped(to: IntRect(x: 8, y: 8, width: FPSOverlay.size.width, height: 17)))
    }

    @Test func aNewSizeOrSceneRebuildsTheTextAtOnce() throws {
        let link = DisplayLink(refreshRate: 60)
        let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
        _ = try firstLine(of: overlay, scene: .pk, width: 400, height: 240, link: link)
        let resized = try firstLine(of: overlay, scene: .pk, width: 480, height: 300, link: link)
        let fresh = try firstLine(of: FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60)), scene: .pk, width: 480, height: 300, link: link)
        #expect(resized.hasSamePixels(as: fresh), "the overlay still names the old size")
        let switched = try firstLine(of: overlay, scene: .fillmodes, width: 480, height: 300, link: link)
        let freshSwitched = try firstLine(of: FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60)), scene: .fillmodes, width: 480, height: 300, link: link)
        #expect(switched.hasSamePixels(as: freshSwitched), "the overlay still names the old scene")
    }

    /// The play scene's frame line changes with the frame, at once (a paused step draws one frame).
    @Test func thePlaySceneShowsItsFrameAtOnce() throws {
        let link = DisplayLink(refreshRate: 60)
        let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
        func frameLine(_ playback: PlaybackStatus?, of overlay: FPSOverlay) throws -> Bitmap {
            let target = try Bitmap(width: 400, height: 240)
            overlay.draw(into: target, in: overlay.frame(in: target.bounds), scene: .play, playback: playback, link: link)
            // Text line 8 (from 0): 6 + 11 x 8 + 58 pixels below the overlay top.
            return try #require(target.cropped(to: IntRect(x: 8, y: 8 + 6 + 88 + 58, width: FPSOverlay.size.width, height: 11)))
        }
        let third = PlaybackStatus(frame: 3, frameCount: 60, direction: .paused, isLooping: true)
        let fourth = PlaybackStatus(frame: 4, frameCount: 60, direction: .paused, isLooping: true)
        _ = try frameLine(third, of: overlay)
        let stepped = try frameLine(fourth, of: overlay)
        let fresh = try frameLine(fourth, of: FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60)))
        #expect(stepped.hasSamePixels(as: fresh), "the overlay still shows the old frame")
        let other = try frameLine(third, of: FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60)))
        #expect(!stepped.hasSamePixels(as: other), "the frame line does not show the frame number")
        let keysLine = try frameLine(nil, of: FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60)))
        #expect(!keysLine.hasSamePixels(as: other), "scenes without a timeline show their keys there")
    }
}

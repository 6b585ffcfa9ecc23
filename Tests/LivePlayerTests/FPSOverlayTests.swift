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

    /// The overlay's glyphs are rendered when it is made, not in its first frame: opening the
    /// font and rendering them made the first windowed frame 8-19 ms long, and the next one late.
    @Test func theFirstDrawRendersNoGlyph() throws {
        let face = try #require(Typeface.named("DejaVu Sans Mono"), "the README installs fonts-dejavu-core")
        face.removeCachedImages()
        let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
        let prepared = face.cachedImageCount(size: 10)
        _ = try firstLine(of: overlay, scene: .arrow, width: 640, height: 480, link: DisplayLink(refreshRate: 60))
        #expect(prepared >= 94 * 4)
        #expect(face.cachedImageCount(size: 10) == prepared, "the first draw rendered glyphs")
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

    /// Present can stop in the middle of a run (another client ends the connection its events
    /// come on); the first line then says so in the next frame. It kept saying "MIT-SHM Present".
    @Test func aNewTransportIsShownAtOnce() throws {
        let link = DisplayLink(refreshRate: 60)
        let overlay = FPSOverlay(transportLabel: "MIT-SHM Present", frameRate: .fixed(60))
        overlay.currentTime = { 0 }   // no refresh of the text between the frames
        let presenting = try firstLine(of: overlay, scene: .arrow, width: 640, height: 480, link: link)
        overlay.transportLabel = "MIT-SHM"
        let blitting = try firstLine(of: overlay, scene: .arrow, width: 640, height: 480, link: link)
        let fresh = try firstLine(of: FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60)), scene: .arrow, width: 640, height: 480, link: link)
        #expect(!blitting.hasSamePixels(as: presenting))
        #expect(blitting.hasSamePixels(as: fresh), "the overlay still says Present")
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

    /// When the display link pauses, the FPS line says `idle` at once, in the one frame drawn to
    /// show it (the last second's rate stayed on screen while nothing was drawn), and says the
    /// rate again when frames come back; the compact form too.
    @Test func thePausedLinkIsShownIdleAtOnce() throws {
        let link = DisplayLink(refreshRate: 60)
        for size in [(400, 240), (200, 120)] {
            func fpsLine(_ overlay: FPSOverlay) throws -> Bitmap {
                let target = try Bitmap(width: size.0, height: size.1)
                overlay.draw(into: target, in: overlay.frame(in: target.bounds), scene: .arrow, link: link)
                // The full form's second line (6 + 11 pixels below its top), or the compact form's only one.
                let y = FPSOverlay.isCompact(in: target.bounds) ? 8 + 6 : 8 + 6 + 11
                return try #require(target.cropped(to: IntRect(x: 8, y: y, width: FPSOverlay.compactSize.width, height: 11)))
            }
            let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
            overlay.currentTime = { 0 }   // no refresh by the clock between the draws
            let running = try fpsLine(overlay)
            overlay.isLinkIdle = true
            let idle = try fpsLine(overlay)
            let freshIdle = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
            freshIdle.isLinkIdle = true
            #expect(idle.hasSamePixels(as: try fpsLine(freshIdle)), "the overlay did not say idle at once (\(size))")
            #expect(!idle.hasSamePixels(as: running), "idle reads like a rate (\(size))")
            overlay.isLinkIdle = false
            #expect(try fpsLine(overlay).hasSamePixels(as: running), "the rate did not come back (\(size))")
        }
    }

    /// The pipeline asks for the frame that says idle only when an overlay is shown and does not
    /// say so already, and until that frame is drawn (the host asks again when events come in
    /// before it draws, and once took the second answer for the frame drawn).
    @Test func onlyAShownOverlayGetsAFrameToSayIdle() throws {
        let link = DisplayLink(refreshRate: 60)
        let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
        let pipeline = try FramePipeline(kind: .arrow, setup: SceneSetup(size: Size(width: 400, height: 240)),
                                         link: link, overlay: overlay, logCapacity: 8)
        let target = try Bitmap(width: 400, height: 240)
        pipeline.produceFrame(mediaTime: 0, into: target)
        #expect(pipeline.linkWillPause(true))
        #expect(pipeline.linkWillPause(true), "asked again before the frame, and got no frame")
        pipeline.produceFrame(mediaTime: 0, into: target)
        #expect(!pipeline.linkWillPause(true), "a second frame for the same idle")
        #expect(!pipeline.linkWillPause(false), "frames coming back need no extra one")
        pipeline.produceFrame(mediaTime: 0.1, into: target)
        pipeline.isOverlayVisible = false
        #expect(!pipeline.linkWillPause(true), "a hidden overlay got a frame")
        pipeline.isOverlayVisible = true
        #expect(pipeline.linkWillPause(true))
    }

    /// Frames whose damage misses the overlay redraw and send only its graph, and show what
    /// drawing the whole overlay over the scene shows; the overlay never dims itself.
    @Test func framesThatMissTheOverlayRedrawOnlyItsGraph() throws {
        let link = DisplayLink(refreshRate: 60)
        let scene = try Bitmap(width: 400, height: 240)
        for y in 0..<240 { for x in 0..<400 { scene[x, y] = 0xFF00_0040 | UInt32(x % 256) << 16 | UInt32(y) << 8 } }
        let target = try Bitmap(width: 400, height: 240)
        target.copy(from: scene, toX: 0, y: 0)
        let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
        overlay.currentTime = { 0 }   // no text refresh between the calls
        let rect = overlay.frame(in: target.bounds)
        #expect(overlay.draw(into: target, in: rect, under: scene, sceneChanged: true, scene: .arrow, link: link) == rect)
        let whole = try #require(target.cropped(to: rect))
        // The graph: below the eight text lines, 240 by 52 pixels.
        let graph = IntRect(x: rect.x + 6, y: rect.y + 96, width: 240, height: 52)
        for _ in 0..<3 {
            #expect(overlay.draw(into: target, in: rect, under: scene, sceneChanged: false, scene: .arrow, link: link) == graph)
            #expect(try #require(target.cropped(to: rect)).hasSamePixels(as: whole))
        }
        // The scene under it changed: all of it again, from the scene's pixels (dimmed once).
        #expect(overlay.draw(into: target, in: rect, under: scene, sceneChanged: true, scene: .arrow, link: link) == rect)
        #expect(try #require(target.cropped(to: rect)).hasSamePixels(as: whole))
        // Each pixel of the overlay's rim (outside the text and graph) is the scene's, dimmed once.
        let p = scene[rect.maxX - 2, rect.maxY - 2]
        #expect(target[rect.maxX - 2, rect.maxY - 2] == 0xFF00_0000 | (p >> 2) & 0x3F_3F3F)
    }

    /// A frame too small for the whole overlay (a 200x200 Lottie's window) gets the compact form,
    /// whole and inset like the full one, and nothing is drawn outside it; a frame with room for
    /// the whole overlay and its inset keeps it.
    @Test func aSmallFrameGetsTheCompactOverlayWhole() throws {
        let link = DisplayLink(refreshRate: 60)
        let overlay = FPSOverlay(transportLabel: "MIT-SHM", frameRate: .fixed(60))
        let small = IntRect(x: 0, y: 0, width: 200, height: 200)
        let rect = overlay.frame(in: small)
        #expect(rect == IntRect(x: 8, y: 8, width: FPSOverlay.compactSize.width, height: FPSOverlay.compactSize.height))
        #expect(rect.maxX + 8 <= small.maxX && rect.maxY + 8 <= small.maxY)
        #expect(overlay.frame(in: IntRect(x: 0, y: 0, width: 352, height: 212)) == IntRect(x: 8, y: 8, width: 336, height: 196))
        #expect(overlay.frame(in: IntRect(x: 0, y: 0, width: 351, height: 600)).width == FPSOverlay.compactSize.width)

        let target = try Bitmap(width: 200, height: 200)
        target.fill(target.bounds, with: 0xFF80_8080)
        #expect(overlay.draw(into: target, in: rect, scene: .play, link: link) == rect)
        var brightInLine = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let p = target[x, y]
                if (rect.x..<rect.maxX).contains(x), (rect.y..<rect.maxY).contains(y) {
                    if y < rect.y + 17, p & 0xFF > 0xC0 { brightInLine += 1 }
                } else {
                    #expect(p == 0xFF80_8080, "the overlay drew at (\(x), \(y)), outside its rectangle")
                }
            }
        }
        #expect(brightInLine > 50, "no text on the compact overlay's line")
    }
}

// PlayWindowTests: `live-player play FILE.json` in a window on Xvfb, driven by real keys.

import Foundation
import Raster
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport

private let server = WindowHarness.Server()

/// The play scene's transport through real key presses: space pauses, Right and Left step one
/// frame, Home and End go to the ends, l stops looping, g and r play from the frame shown.
/// The frame shown is read from the window's pixels (analytic: a square one frame wide per
/// frame) and from the player's key trace; waits are bounded polls, never timings.
@Suite(.serialized) struct PlayWindowTests {
    let harness: WindowHarness
    init() throws { harness = try WindowHarness(server) }

    /// 200x50 at 10 fps, 20 frames: a red 10x10 square whose left edge is at 10 x frame (its
    /// centre moves linearly from x 5 at frame 0 to 205 at frame 20).
    static let json = """
    {"v":"5.7.0","fr":10,"ip":0,"op":20,"w":200,"h":50,"layers":[{"ty":4,"nm":"square","ind":1,"ip":0,"op":20,"st":0,
     "ks":{"p":{"a":1,"k":[{"t":0,"s":[5,25],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":20,"s":[205,25]}]}},
     "shapes":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[10,10]},"r":{"a":0,"k":0}},
               {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}
    """

    /// The frame the window shows: the square's left edge over 10, or `nil` when it is not
    /// whole (between frames, or no window image).
    static func shownFrame(_ client: X11TestClient, _ window: UInt) -> Int? {
        guard let image = client.image(ofWindow: window), image.width == 200 else { return nil }
        guard let left = (0..<200).first(where: { image[$0, 25] == 0xFFFF_0000 }) else { return nil }
        return left % 10 == 0 && (left + 9 >= 200 || image[left + 9, 25] == 0xFFFF_0000) ? left / 10 : nil
    }

    /// Where the square's left edge is (its first mostly red pixel on the middle row), whole
    /// frame or not: for seeing that it moves.
    static func squareLeft(_ client: X11TestClient, _ window: UInt) -> Int? {
        guard let image = client.image(ofWindow: window), image.width == 200 else { return nil }
        return (0..<200).first { x in
            let p = image[x, 25]
            return (p >> 16) & 0xFF >= 0x80 && (p >> 8) & 0xFF < 0x40
        }
    }

    @Test func transportKeysMoveTheFrameShown() throws {
        let file = PlayerProcess.temporaryPath("square.json")
        try Data(Self.json.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (player, client, window) = try harness.launch(["play", file, "--size", "200x50", "--no-overlay"], title: "live-player: play")
        defer { player.kill(SIGKILL) }
        func traced() -> [String] {
            player.standardError.split(separator: "\n").filter { $0.hasPrefix("live-player:   shows ") }.map { String($0.dropFirst("live-player:   shows ".count)) }
        }
        /// Sends `key` and waits for the player to trace what it shows.
        func press(_ key: Key) -> String? {
            let before = traced().count
            client.send(key, toWindow: window)
            client.sync()
            guard PlayerProcess.eventually(timeout: 30, { traced().count > before }) else { return nil }
            return traced().last
        }
        func shows(_ frame: Int) -> Bool {
            // Bounded hang guard: the frame must arrive, and stay (sampled twice).
            PlayerProcess.eventually(timeout: 30) { Self.shownFrame(client, window) == frame && Self.shownFrame(client, window) == frame }
        }

        // It plays looping: the square moves by itself.
        var seen = Set<Int>()
        #expect(PlayerProcess.eventually(timeout: 30) { if let x = Self.squareLeft(client, window) { seen.insert(x) }; return seen.count >= 3 },
                "the animation does not play; stderr: \(player.standardError)")

        let paused = try #require(press(.space))
        #expect(paused.hasSuffix("paused looping"), "\(paused)")
        let frame = try #require(Int(paused.split(separator: " ")[1]))
        // Paused on a whole frame only after a step; Right then moves exactly one frame.
        let stepped = try #require(press(.rightArrow))
        let next = (frame + 1) % 20
        #expect(stepped == "frame \(next) / 20 paused looping")
        #expect(shows(next), "Right did not show frame \(next); shows \(String(describing: Self.shownFrame(client, window)))")
        #expect(press(.rightArrow) == "frame \((next + 1) % 20) / 20 paused looping")
        #expect(shows((next + 1) % 20))
        #expect(press(.leftArrow) == "frame \(next) / 20 paused looping")
        #expect(shows(next))

        #expect(press(.home) == "frame 0 / 20 paused looping")
        #expect(shows(0))
        #expect(press(.leftArrow) == "frame 19 / 20 paused looping", "Left at the first frame wraps while looping")
        #expect(shows(19))
        #expect(press(.end) == "frame 19 / 20 paused looping")
        #expect(press(.l) == "frame 19 / 20 paused once")
        #expect(press(.rightArrow) == "frame 19 / 20 paused once", "Right at the last frame stays there when not looping")
        #expect(press(.home) == "frame 0 / 20 paused once")
        // On screen before g: a poll must not take the last frame still shown for g's arrival there.
        #expect(shows(0))

        // g plays forward to the last frame and stops there (not looping), through the frames
        // between: in slow motion (s: a tenth of the speed, 20 s) so that a loaded machine's
        // polls still see it move.
        client.send(.s, toWindow: window)
        client.send(.g, toWindow: window)
        var forward = Set<Int>()
        #expect(PlayerProcess.eventually(timeout: 60) { if let x = Self.squareLeft(client, window) { forward.insert(x) }; return forward.contains(190) })
        #expect(forward.count >= 3, "g jumped instead of playing: \(forward.sorted())")
        #expect(shows(19))
        // r plays backward from there to the first frame (at full speed again).
        client.send(.s, toWindow: window)
        client.send(.r, toWindow: window)
        #expect(shows(0), "r did not play back to the first frame")
        // space resumes in the last direction (backward): at the first frame, not looping, it stays.
        #expect(press(.space)?.hasPrefix("frame 0 / 20") == true)

        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("play 200x50 window"))
    }

    /// A key that changes what a playing animation shows (l here) leaves the frame to the link's
    /// next tick: Present shows one frame a vblank, and a frame drawn between ticks took the next
    /// tick's vblank, so the link counted that tick as dropped (a burst of keys while playing
    /// counted a drop for every two or three). Every frame of the run is then a tick's.
    @Test func keysWhilePlayingWaitForTheNextTick() throws {
        let file = PlayerProcess.temporaryPath("square-burst.json")
        let stats = PlayerProcess.temporaryPath("burst-stats.json")
        try Data(Self.json.utf8).write(to: URL(fileURLWithPath: file))
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: stats)
        }
        let (player, client, window) = try harness.launch(["play", file, "--size", "200x50", "--no-overlay", "--stats", stats],
                                                          title: "live-player: play")
        defer { player.kill(SIGKILL) }
        let prefix = "live-player:   shows "
        func traced() -> Int { player.standardError.split(separator: "\n").filter { $0.hasPrefix(prefix) }.count }
        var seen = Set<Int>()
        #expect(PlayerProcess.eventually(timeout: 30) { if let x = Self.squareLeft(client, window) { seen.insert(x) }; return seen.count >= 3 },
                "the animation does not play; stderr: \(player.standardError)")
        // An even number of l: looping again at the end, so the link ticks throughout.
        for _ in 0..<20 { client.send(.l, toWindow: window) }
        client.sync()
        #expect(PlayerProcess.eventually(timeout: 30) { traced() == 20 }, "stderr: \(player.standardError)")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
        let frames = try #require(json["frames"] as? [[String: Any]])
        #expect(frames.count >= 3)
        let untimely = frames.filter { $0["tickTimestamp"] == nil }.compactMap { $0["index"] as? Int }
        #expect(untimely.isEmpty, "frames drawn between the link's ticks: \(untimely)")
    }

    /// space draws a frame (at the next vblank), so the overlay's last lines say playing or
    /// paused: with media time held (p) nothing else draws, and the overlay kept showing the
    /// state before.
    /// 400x600 puts the composition (scaled 2) below the overlay: the square is 20 pixels wide,
    /// its left edge at 20 x frame on row 300 when the frame is whole.
    @Test func spaceShowsPlayingOrPausedInTheOverlay() throws {
        let file = PlayerProcess.temporaryPath("square-overlay.json")
        try Data(Self.json.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (player, client, window) = try harness.launch(["play", file, "--size", "400x600"], title: "live-player: play")
        defer { player.kill(SIGKILL) }
        func press(_ key: Key) -> String? {
            let prefix = "live-player:   shows "
            let count = { player.standardError.split(separator: "\n").filter { $0.hasPrefix(prefix) }.count }
            let before = count()
            client.send(key, toWindow: window)
            client.sync()
            guard PlayerProcess.eventually(timeout: 30, { count() > before }) else { return nil }
            return player.standardError.split(separator: "\n").last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }
        func image() -> Bitmap? { client.image(ofWindow: window).flatMap { $0.width == 400 ? $0 : nil } }

        #expect(PlayerProcess.eventually { image() != nil })
        client.send(.p, toWindow: window)
        // A step draws its whole frame; on screen, nothing else draws while p holds time.
        let stepped = try #require(press(.rightArrow))
        let frame = try #require(Int(stepped.split(separator: " ")[1]))
        let left = 20 * frame
        var held: Bitmap?
        #expect(PlayerProcess.eventually {
            held = image()
            guard let held else { return false }
            return held[left, 300] == 0xFFFF_0000 && held[left + 19, 300] == 0xFFFF_0000 && (left == 0 || held[left - 1, 300] != 0xFFFF_0000)
        }, "frame \(frame) is not shown")
        let paused = try #require(held)

        #expect(press(.space) == "frame \(frame) / 20 forward looping")
        var resumed: Bitmap?
        #expect(PlayerProcess.eventually(timeout: 20) { resumed = image(); return resumed.map { !$0.hasSamePixels(as: paused) } ?? false },
                "space did not redraw: the overlay still says paused")
        let playing = try #require(resumed)
        #expect(press(.space) == "frame \(frame) / 20 paused looping")
        #expect(PlayerProcess.eventually(timeout: 20) { image().map { !$0.hasSamePixels(as: playing) } ?? false },
                "space did not redraw: the overlay still says playing")

        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")
    }
}

import Foundation
import Raster
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport

/// What other clients and the window manager do to the player's window: resize it while paused,
/// send events in one batch, destroy it, unmap it, look it up by class. Issue 11, defects 2, 6,
/// 7, 12 and 13; each test failed before its fix.
private let server = WindowHarness.Server()

@Suite(.serialized) struct PlayerWindowStateTests {
    let harness: WindowHarness
    init() throws { harness = try WindowHarness(server) }

    static let pkBackground: UInt32 = 0xFFFA_FAFA
    static let fillModesBackground: UInt32 = 0xFFF2_F2F2

    /// Defect 2: c after a resize saved (overlay shown) or crashed reading (overlay hidden) the
    /// pre-resize frame buffer. Paused, so no frame is drawn between the resize and the key.
    @Test(arguments: [false, true])
    func screenshotAfterAResizeSavesTheNewSize(overlay: Bool) throws {
        let shot = PlayerProcess.temporaryPath("resized.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let (player, client, window) = try harness.launch(["pk", "--size", "160x120", "--screenshot", shot] + (overlay ? [] : ["--no-overlay"]),
                                                          title: "live-player: pk")
        defer { player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { client.image(ofWindow: window).map { $0[155, 115] != 0xFF00_0000 } ?? false })
        client.send(.p, toWindow: window)
        client.resize(window: window, width: 240, height: 180)
        client.send(.c, toWindow: window)
        #expect(PlayerProcess.eventually { player.standardOutput.contains("screenshot: \(shot)") || !player.isRunning },
                "stderr: \(player.standardError)")
        #expect(player.isRunning, "the player died: status \(String(describing: player.wait(timeout: 1))), stderr: \(player.standardError)")
        let saved = try Bitmap(pngFile: shot)
        #expect(saved.width == 240 && saved.height == 180)
        #expect(saved[235, 175] == Self.pkBackground)
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
    }

    /// Defect 7: a resize arriving in one batch with keys pressed after it was handled after
    /// them. The player is stopped (SIGSTOP) while the server queues resize then c, so both
    /// arrive in one read: the screenshot must already have the new size.
    @Test func eventsInOneBatchAreHandledInServerOrder() throws {
        let shot = PlayerProcess.temporaryPath("batch.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let (player, client, window) = try harness.launch(["pk", "--size", "160x120", "--screenshot", shot], title: "live-player: pk")
        defer { player.kill(SIGCONT); player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { client.image(ofWindow: window).map { $0[155, 115] != 0xFF00_0000 } ?? false })
        player.kill(SIGSTOP)
        client.resize(window: window, width: 200, height: 150)
        client.send(.c, toWindow: window)
        client.sync()
        player.kill(SIGCONT)
        #expect(PlayerProcess.eventually { player.standardOutput.contains("screenshot: \(shot)") || !player.isRunning },
                "stderr: \(player.standardError)")
        let saved = try Bitmap(pngFile: shot)
        #expect(saved.width == 200 && saved.height == 150, "saved \(saved.width)x\(saved.height): c was handled before the resize")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
    }

    /// Defect 7: paused, a resize drew nothing (the new area stayed black), and Tab and f drew
    /// nothing until play resumed. Whatever changes the picture draws a frame, paused or not.
    @Test func pausedPlayerRedrawsAfterResizeSceneSwitchAndOverlayToggle() throws {
        let (player, client, window) = try harness.launch(["pk", "--size", "200x150", "--no-overlay"], title: "live-player: pk")
        defer { player.kill(SIGKILL) }
        func pixel(_ x: Int, _ y: Int) -> UInt32? { client.image(ofWindow: window)?[x, y] }
        #expect(PlayerProcess.eventually { pixel(195, 145) == Self.pkBackground })
        client.send(.p, toWindow: window)
        #expect(PlayerProcess.eventually { player.standardError.contains("key p") })
        client.resize(window: window, width: 300, height: 220)
        #expect(PlayerProcess.eventually { pixel(295, 215) == Self.pkBackground }, "paused: the resized window was not drawn")
        client.send(.tab, toWindow: window)  // pk → fillmodes
        #expect(PlayerProcess.eventually { pixel(295, 215) == Self.fillModesBackground }, "paused: Tab drew nothing")
        client.send(.f, toWindow: window)
        // The overlay darkens the scene under it to a quarter: 0xF2 >> 2 = 0x3C.
        #expect(PlayerProcess.eventually { pixel(9, 9) == 0xFF3C_3C3C }, "paused: f drew no overlay; got \(String(describing: pixel(9, 9)))")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
    }

    /// Defect 6: a window destroyed by another client (`xdotool windowclose` is XDestroyWindow)
    /// went unnoticed: an error line each frame, 250 ms waits for completions. It ends the run
    /// like a close: status 0, the summary, `--stats`.
    @Test func windowDestroyedByAnotherClientEndsTheRun() throws {
        let stats = PlayerProcess.temporaryPath("destroyed.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let (player, client, window) = try harness.launch(["arrow", "--size", "120x120", "--autoplay", "--stats", stats], title: "live-player: arrow")
        defer { player.kill(SIGKILL) }
        #expect(WindowHarness.arrowIsShown(client, window: window))
        try harness.xdotool(["windowclose", String(window)])
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 120x120 window"))
        #expect(!player.standardError.contains("protocol error"), "stderr: \(player.standardError)")
        let frames = try #require(WindowHarness.stats(at: stats)?["frameCount"] as? Int, "no --stats written")
        #expect(frames > 0)
    }

    /// Defect 12: unmapped (or iconified), the player rendered at full rate. The link pauses on
    /// UnmapNotify, so the process uses no CPU, and resumes on MapNotify.
    @Test func unmappedWindowRendersNothingUntilMappedAgain() throws {
        let stats = PlayerProcess.temporaryPath("unmapped.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let (player, client, window) = try harness.launch(["arrow", "--size", "200x200", "--autoplay", "--stats", stats], title: "live-player: arrow")
        defer { player.kill(SIGKILL) }
        // Frames on screen before the window goes (the arrow's background in the corner).
        #expect(WindowHarness.arrowIsShown(client, window: window))
        try harness.xdotool(["windowunmap", "--sync", String(window)])
        usleep(300_000)
        let before = try #require(WindowHarness.cpuTicks(of: player.pid))
        usleep(1_000_000)
        let after = try #require(WindowHarness.cpuTicks(of: player.pid))
        // A 60 Hz arrow uses several ticks (10 ms each) a second even in release builds.
        #expect(after - before <= 1, "an unmapped player used \(after - before) ticks in a second")
        try harness.xdotool(["windowmap", "--sync", String(window)])
        #expect(PlayerProcess.eventually {
            let start = WindowHarness.cpuTicks(of: player.pid) ?? 0
            usleep(300_000)
            return (WindowHarness.cpuTicks(of: player.pid) ?? 0) > start + 2
        }, "mapped again, the player did not resume")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
        // Media time ran on while hidden: the frames jump over the second it was unmapped.
        let times = WindowHarness.frameTimes(at: stats)
        let longestGap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        #expect(longestGap >= 1, "no gap in the frames: rendering went on while unmapped")
    }

    /// Defect 13: without WM_CLASS, _NET_WM_NAME and _NET_WM_PID, window managers, taskbars and
    /// `xdotool search --class` could not find the player or kill it by its window.
    @Test func windowCarriesClassNameAndPID() throws {
        let (player, client, window) = try harness.launch(["orbit", "--size", "200x150"], title: "live-player: orbit")
        defer { player.kill(SIGKILL) }
        let found = try harness.xdotool(["search", "--class", "live-player"]).split(separator: "\n").compactMap { UInt($0) }
        #expect(found.contains(window), "xdotool search --class live-player found \(found)")
        #expect(try harness.xdotool(["getwindowpid", String(window)]).trimmingCharacters(in: .whitespacesAndNewlines) == String(player.pid))
        #expect(try harness.xprop(window, "WM_CLASS").contains("\"live-player\", \"live-player\""))
        #expect(try harness.xprop(window, "_NET_WM_NAME").contains("\"live-player: orbit\""))
        // WM_DELETE_WINDOW still closes it.
        client.sendCloseRequest(toWindow: window)
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")
    }
}

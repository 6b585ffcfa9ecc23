import Foundation
import Raster
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport

/// One Xvfb for the suite, and a client that stays connected so the server (started with
/// `-terminate`) ends with the test process.
private let sharedServer = Result { () throws -> XvfbServer in
    let server = try XvfbServer()
    keeper = try X11TestClient(displayName: server.display)
    return server
}
nonisolated(unsafe) private var keeper: X11TestClient?

/// The player in a real window on Xvfb: keys, the close button, quitting, resizing, a dying
/// server and shared-memory hygiene. Waits are bounded polls (hang checks, not timings).
@Suite(.serialized) struct PlayerWindowTests {
    let server: XvfbServer
    init() throws { server = try sharedServer.get() }

    /// Polls `condition` every 20 ms for up to `timeout` seconds: a hang guard, generous because
    /// a debug player on a loaded two-core machine can take seconds to show its first frame.
    func eventually(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Starts the player and waits for its window.
    func launch(_ arguments: [String], title: String, on display: String? = nil) throws -> (ChildProcess, X11TestClient, UInt) {
        let display = display ?? server.display
        let player = try PlayerProcess.start(arguments, display: display)
        let client = try X11TestClient(displayName: display)
        var window: UInt?
        _ = eventually { window = client.windows(named: title, process: player.pid).first; return window != nil || !player.isRunning }
        let id = try #require(window, "no window '\(title)'; stderr: \(player.standardError)")
        return (player, client, id)
    }

    @Test func qQuitsCleanlyWithASummary() throws {
        let (player, client, window) = try launch(["fillmodes", "--size", "200x150"], title: "live-player: fillmodes")
        client.send(.q, toWindow: window)
        let status = player.wait(timeout: 30)
        #expect(status == 0, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("fillmodes 200x150 window MIT-SHM:"))
    }

    /// SIGTERM closes the window and ends like q, with the summary and status 143.
    @Test func terminateSignalEndsCleanlyWithASummary() throws {
        let (player, _, _) = try launch(["arrow", "--size", "120x120", "--autoplay"], title: "live-player: arrow")
        defer { player.kill(SIGKILL) }
        #expect(eventually { PlayerProcess.catches(SIGTERM, pid: player.pid) })
        player.kill(SIGTERM)
        #expect(player.wait(timeout: 30) == 143, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 120x120 window"))
    }

    @Test func cSavesAScreenshotAndTabSwitchesScene() throws {
        let shot = PlayerProcess.temporaryPath("shot.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let (player, client, window) = try launch(["pk", "--size", "160x120", "--screenshot", shot], title: "live-player: pk")
        defer { player.kill(SIGKILL) }
        client.send(.c, toWindow: window)
        #expect(eventually { player.standardOutput.contains("screenshot: \(shot)") })
        let saved = try Bitmap(pngFile: shot)
        #expect(saved.width == 160 && saved.height == 120)
        #expect(saved[150, 5] == 0xFFFA_FAFA)  // pk's background, saved without the overlay
        client.send(.tab, toWindow: window)  // pk → fillmodes
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
        #expect(player.standardOutput.contains("fillmodes 160x120 window"))
    }

    @Test func escapeQuitsCleanly() throws {
        let (player, client, window) = try launch(["pk", "--size", "200x150", "--no-shm"], title: "live-player: pk")
        client.send(.escape, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
        #expect(player.standardError.contains("not using MIT-SHM (--no-shm was given)"))
    }

    @Test func closeButtonEndsCleanly() throws {
        let (player, client, window) = try launch(["orbit", "--size", "200x150"], title: "live-player: orbit")
        client.sendCloseRequest(toWindow: window)
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")
    }

    /// Paused media time makes keys deterministic: go, step 30 frames (half a second: a quarter
    /// of the sweep), reverse, step 15 frames (back to an eighth).
    @Test func keysGoAndReverseTheArrow() throws {
        let (player, client, window) = try launch(["arrow", "--size", "200x200", "--no-overlay"], title: "live-player: arrow")
        defer { player.kill(SIGKILL) }
        let background: UInt32 = 0xFF20_2020
        // Points on the band's middle circle (radius 100 − 10) at angles from the top, clockwise.
        func pixel(atTurn fraction: Double) -> UInt32? {
            let a = -Double.pi / 2 + fraction * 2 * .pi
            return client.image(ofWindow: window)?[100 + Int(90 * cos(a)), 100 + Int(90 * sin(a))]
        }
        #expect(eventually { pixel(atTurn: 0.1) == background })
        client.send(.p, toWindow: window)
        client.send(.g, toWindow: window)
        for _ in 0..<30 { client.send(.rightArrow, toWindow: window) }
        #expect(eventually { pixel(atTurn: 0.2).map { $0 != background } ?? false }, "go did not sweep the arrow")
        #expect(pixel(atTurn: 0.4) == background)
        client.send(.r, toWindow: window)
        for _ in 0..<15 { client.send(.rightArrow, toWindow: window) }
        let reversed = eventually { pixel(atTurn: 0.2) == background }
        if !reversed { try? client.image(ofWindow: window)?.writePNG(to: NSTemporaryDirectory() + "live-player-reverse-failure.png") }
        #expect(reversed, "reverse did not turn the sweep back (window saved as live-player-reverse-failure.png)")
        #expect(pixel(atTurn: 0.05).map { $0 != background } ?? false)
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
    }

    /// CPU time (user + system, clock ticks) the process has used.
    func cpuTicks(of pid: pid_t) -> Int? {
        guard let stat = PlayerProcess.procFile("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Nothing animates before go: the link is paused and the player blocks on the X connection.
    @Test func idlePlayerUsesNoCPU() throws {
        let stats = PlayerProcess.temporaryPath("idle.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let (player, client, window) = try launch(["pk", "--size", "200x150", "--no-overlay", "--stats", stats], title: "live-player: pk")
        defer { player.kill(SIGKILL) }
        #expect(eventually { client.image(ofWindow: window).map { $0[195, 146] == 0xFFFA_FAFA } ?? false })
        usleep(300_000)
        let before = try #require(cpuTicks(of: player.pid))
        usleep(1_000_000)
        let after = try #require(cpuTicks(of: player.pid))
        // A 60 Hz loop would use several ticks (10 ms each) per second even in release builds.
        #expect(after - before <= 1, "idle player used \(after - before) ticks in a second")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
        // The display link was paused: a frame or two at start, not 60 a second.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        let frames = try #require(json?["frameCount"] as? Int)
        #expect(frames <= 3, "an idle player rendered \(frames) frames")
    }

    /// When frames stop (a go cycle ended), the overlay's FPS line says idle, as before go,
    /// instead of keeping the last second's rate on screen while nothing is drawn.
    @Test func theOverlaySaysIdleWhenFramesStop() throws {
        let (player, client, window) = try launch(["arrow", "--size", "400x300"], title: "live-player: arrow")
        defer { player.kill(SIGKILL) }
        // `FPS` and the ten characters after it, on the overlay's second line.
        func rateText() -> Bitmap? { client.image(ofWindow: window)?.cropped(to: IntRect(x: 14, y: 25, width: 84, height: 11)) }
        // Steady before go: unchanged over half a second of polls.
        var idle: Bitmap?
        var steadySince = Date()
        #expect(eventually {
            guard let now = rateText() else { return false }
            if let idle, now.hasSamePixels(as: idle) { return Date().timeIntervalSince(steadySince) > 0.5 }
            idle = now
            steadySince = Date()
            return false
        })
        let before = try #require(idle)
        client.send(.g, toWindow: window)
        #expect(eventually { rateText().map { !$0.hasSamePixels(as: before) } ?? false }, "the rate did not show while animating")
        let stopped = eventually { rateText().map { $0.hasSamePixels(as: before) } ?? false }
        if !stopped { try? client.image(ofWindow: window)?.writePNG(to: NSTemporaryDirectory() + "live-player-idle-failure.png") }
        #expect(stopped, "the overlay kept a rate after frames stopped (window saved as live-player-idle-failure.png)")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
    }

    /// --frames in a window counts the display link's refreshes, drawn whether anything moves
    /// or not: arrow without --autoplay waits for g, and drew one frame and waited forever.
    @Test func framesEndsAWindowThatWaitsForGo() throws {
        let stats = PlayerProcess.temporaryPath("window-frames.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let player = try PlayerProcess.start(["arrow", "--size", "64x64", "--frames", "30", "--stats", stats], display: server.display)
        defer { player.kill(SIGKILL) }
        #expect(player.wait(timeout: 60) == 0, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 64x64 window"), "stdout: \(player.standardOutput)")
        let frames = WindowHarness.stats(at: stats)?["frameCount"] as? Int
        #expect(frames == 30)
    }

    @Test func resizeRedrawsAtTheNewSize() throws {
        let (player, client, window) = try launch(["fillmodes", "--size", "200x150", "--no-overlay"], title: "live-player: fillmodes")
        defer { player.kill(SIGKILL) }
        client.resize(window: window, width: 300, height: 220)
        #expect(eventually { client.image(ofWindow: window).map { $0.width == 300 && $0[295, 215] == 0xFFF2_F2F2 } ?? false },
                "the new area was not drawn; stderr: \(player.standardError)")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0)
    }

    /// The player's shared-memory segments, from its memory map (`/SYSV… (deleted)` lines give the id).
    func sharedMemoryIDs(of pid: pid_t) -> [String] {
        guard let maps = PlayerProcess.procFile("/proc/\(pid)/maps") else { return [] }
        return maps.split(separator: "\n").filter { $0.contains("/SYSV") }.compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first.map(String.init)
        }
    }

    func segmentExists(_ id: String) -> Bool {
        let result = try? ChildProcess("/usr/bin/ipcs", ["-m", "-i", id])
        _ = result?.wait(timeout: 30)
        return result.map { $0.standardOutput.contains("shmid=\(id)") } ?? false
    }

    @Test(arguments: [false, true])
    func noSegmentOutlivesThePlayer(killed: Bool) throws {
        let (player, client, window) = try launch(["rays", "--size", "160x120"], title: "live-player: rays")
        var ids: [String] = []
        #expect(eventually { ids = sharedMemoryIDs(of: player.pid); return !ids.isEmpty },
                "no shared-memory segment; running: \(player.isRunning); stdout: \(player.standardOutput); stderr: \(player.standardError)")
        // Marked for removal as soon as the server attached, and private (0600).
        for id in ids {
            let info = try ChildProcess("/usr/bin/ipcs", ["-m", "-i", id])
            _ = info.wait(timeout: 30)
            // 01000 is SHM_DEST: removal is already pending while the player still runs.
            #expect(info.standardOutput.contains("mode=01600"), "\(info.standardOutput)")
        }
        if killed {
            player.kill(SIGKILL)
            #expect(player.wait(timeout: 30) == 128 + SIGKILL)
        } else {
            client.send(.q, toWindow: window)
            #expect(player.wait(timeout: 30) == 0)
        }
        client.sync()
        #expect(eventually { ids.allSatisfy { !segmentExists($0) } }, "segments \(ids) outlived the player")
    }

    @Test func serverDeathEndsThePlayerWithAnError() throws {
        let doomed = try XvfbServer()
        let (player, _, _) = try launch(["rays", "--size", "160x120"], title: "live-player: rays", on: doomed.display)
        defer { player.kill(SIGKILL) }
        usleep(200_000)
        doomed.kill()
        // A generous bound: this checks that the player does not hang, not how fast it is.
        let status = player.wait(timeout: 2)
        #expect(status != nil && status != 0, "status \(String(describing: status)), stderr: \(player.standardError)")
        #expect(status.map { $0 < 128 } ?? false, "ended by a signal (crash?): \(String(describing: status))")
        #expect(player.standardError.contains("lost the connection to the X server"))
    }
}

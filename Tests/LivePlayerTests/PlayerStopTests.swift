import Foundation
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport

/// Every way a run can end that the player can see, wherever it waits: signals during a long
/// `--at` render or on a stopped X server, SIGHUP, the X server's loss. Issue 11, defects 8 and
/// 10; each test failed before its fix. The 10 s bounds are hang guards, not timings.
private let server = WindowHarness.Server()

@Suite(.serialized) struct PlayerStopTests {
    let harness: WindowHarness
    init() throws { harness = try WindowHarness(server) }

    /// Defect 8: `--at` steps every tick up to T (minutes for a large T) without looking at signals.
    @Test(arguments: [SIGINT, SIGTERM])
    func signalEndsALongAtRender(_ signal: Int32) throws {
        let player = try PlayerProcess.start(["arrow", "--at", "1000000", "--size", "32x32"])
        defer { player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { PlayerProcess.catches(signal, pid: player.pid) || !player.isRunning })
        usleep(200_000)
        player.kill(signal)
        #expect(player.wait(timeout: 30) == 128 + signal, "stderr: \(player.standardError)")
    }

    /// A private server the test can stop (SIGSTOP) and resume.
    final class StoppableServer {
        let server: XvfbServer
        init() throws { server = try XvfbServer() }
        func stop() { kill(server.processIdentifier, SIGSTOP) }
        /// Lets the server run again (so that test clients can disconnect).
        func resume() { kill(server.processIdentifier, SIGCONT) }
        deinit {
            resume()
            server.stop()
        }
    }

    /// Defect 8: on a stopped X server the player blocked in XOpenDisplay, deaf to signals.
    @Test func signalEndsAPlayerConnectingToAStoppedServer() throws {
        let stopped = try StoppableServer()
        stopped.stop()
        let player = try PlayerProcess.start(["arrow", "--size", "64x64"], display: stopped.server.display)
        defer { player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { PlayerProcess.catches(SIGTERM, pid: player.pid) || !player.isRunning })
        usleep(300_000)  // into XOpenDisplay, waiting for the server's reply
        player.kill(SIGTERM)
        #expect(player.wait(timeout: 30) == 143, "stderr: \(player.standardError)")
        #expect(player.standardError.contains("does not answer the connection"), "stderr: \(player.standardError)")
    }

    /// Defects 8 and 10: the server stops while the player runs (waiting for an MIT-SHM
    /// completion, then in XSync when closing): SIGINT still ends the run, with the summary and
    /// `--stats`.
    @Test func signalEndsAPlayerOnAStoppedServerWithSummaryAndStats() throws {
        let stats = PlayerProcess.temporaryPath("stopped.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let stopped = try StoppableServer()
        let (player, client, window) = try harness.launch(["arrow", "--size", "120x120", "--autoplay", "--stats", stats],
                                                          title: "live-player: arrow", on: stopped.server.display)
        // The test's own client would block in XCloseDisplay on a stopped server.
        defer { player.kill(SIGKILL); stopped.resume() }
        #expect(WindowHarness.arrowIsShown(client, window: window))
        stopped.stop()
        usleep(500_000)
        player.kill(SIGINT)
        #expect(player.wait(timeout: 30) == 130, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 120x120 window"), "no summary; stderr: \(player.standardError)")
        #expect((WindowHarness.stats(at: stats)?["frameCount"] as? Int ?? 0) > 0, "no --stats written")
        stopped.resume()
        withExtendedLifetime(client) {}
    }

    /// Defect 10: SIGHUP (the terminal closed) killed the player without its summary or stats.
    @Test func hangupEndsWithSummaryAndStats() throws {
        let stats = PlayerProcess.temporaryPath("hangup.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let (player, client, window) = try harness.launch(["arrow", "--size", "120x120", "--autoplay", "--stats", stats], title: "live-player: arrow")
        defer { player.kill(SIGKILL) }
        #expect(WindowHarness.arrowIsShown(client, window: window))
        #expect(PlayerProcess.catches(SIGHUP, pid: player.pid))
        player.kill(SIGHUP)
        #expect(player.wait(timeout: 30) == 128 + SIGHUP, "stderr: \(player.standardError)")
        #expect(player.standardOutput.contains("arrow 120x120 window"), "no summary")
        #expect((WindowHarness.stats(at: stats)?["frameCount"] as? Int ?? 0) > 0, "no --stats written")
    }

    /// Defect 10: the X server's death ended the process inside the library (`_exit(1)`), so the
    /// summary and `--stats` were lost. The library reports the loss; the player ends the run.
    @Test func serverDeathWritesSummaryAndStats() throws {
        let stats = PlayerProcess.temporaryPath("serverdeath.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let doomed = try XvfbServer()
        let (player, client, window) = try harness.launch(["arrow", "--size", "120x120", "--autoplay", "--stats", stats],
                                                          title: "live-player: arrow", on: doomed.display)
        defer { player.kill(SIGKILL) }
        #expect(WindowHarness.arrowIsShown(client, window: window))
        doomed.kill()
        let status = player.wait(timeout: 30)
        #expect(status == 69, "stderr: \(player.standardError)")  // EX_UNAVAILABLE, as a display that cannot be reached
        #expect(player.standardError.contains("lost the connection to the X server \(doomed.display)"))
        #expect(player.standardOutput.contains("arrow 120x120 window"), "no summary; stderr: \(player.standardError)")
        #expect((WindowHarness.stats(at: stats)?["frameCount"] as? Int ?? 0) > 0, "no --stats written")
    }
}

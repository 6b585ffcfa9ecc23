import Foundation
@_spi(Testing) import X11Presenter
import X11TestSupport

/// The player in a window on a real Xvfb, driven the way a user, a window manager or another
/// client would: keys, resizes, `xdotool`, signals. Waits are bounded polls (hang checks).
///
/// Suites run in parallel: each has its own server (``Server``), and a player's window is the
/// one with its title and its process id (`_NET_WM_PID`), never another test's leftover.
struct WindowHarness {
    /// One Xvfb for a suite, and a client that stays connected so the server (started with
    /// `-terminate`) ends with the test process. Keep one in a `let` global per suite.
    final class Server: Sendable {
        let server: Result<XvfbServer, any Error>
        nonisolated(unsafe) private var keeper: X11TestClient?

        init() {
            server = Result { try XvfbServer() }
            keeper = (try? server.get()).flatMap { try? X11TestClient(displayName: $0.display) }
        }
    }

    let server: XvfbServer

    init(_ shared: Server) throws { server = try shared.server.get() }

    /// Starts the player on `display` (default: the shared server) and waits for its window.
    func launch(_ arguments: [String], title: String, on display: String? = nil) throws -> (ChildProcess, X11TestClient, UInt) {
        struct NoWindow: Error, CustomStringConvertible { let description: String }
        let display = display ?? server.display
        let player = try PlayerProcess.start(arguments, display: display)
        let client = try X11TestClient(displayName: display)
        var window: UInt?
        _ = PlayerProcess.eventually { window = client.windows(named: title, process: player.pid).first; return window != nil || !player.isRunning }
        guard let window else {
            player.kill(SIGKILL)
            throw NoWindow(description: "no window '\(title)'; stderr: \(player.standardError)")
        }
        return (player, client, window)
    }

    /// Whether the arrow scene's first frame is on screen (its background in the top-left corner,
    /// outside the overlay), polled for up to 10 s.
    static func arrowIsShown(_ client: X11TestClient, window: UInt) -> Bool {
        PlayerProcess.eventually { client.image(ofWindow: window).map { $0[2, 2] == 0xFF20_2020 } ?? false }
    }

    /// Runs `xdotool` with `arguments` against `display` (default: the shared server); its stdout.
    @discardableResult
    func xdotool(_ arguments: [String], on display: String? = nil) throws -> String {
        let tool = try ChildProcess("/usr/bin/xdotool", arguments, environment: ["DISPLAY": display ?? server.display])
        _ = tool.wait(timeout: 30)
        return tool.standardOutput
    }

    /// Runs `xprop -id window property` against the shared server; its stdout.
    func xprop(_ window: UInt, _ property: String) throws -> String {
        let tool = try ChildProcess("/usr/bin/xprop", ["-id", String(window), property], environment: ["DISPLAY": server.display])
        _ = tool.wait(timeout: 30)
        return tool.standardOutput
    }

    /// CPU time (user + system, clock ticks) process `pid` has used.
    static func cpuTicks(of pid: pid_t) -> Int? {
        guard let stat = PlayerProcess.procFile("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// The `--stats` file at `path`, parsed.
    static func stats(at path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The media times of the frames in the `--stats` file at `path`.
    static func frameTimes(at path: String) -> [Double] {
        let frames = stats(at: path)?["frames"] as? [[String: Any]] ?? []
        return frames.compactMap { $0["mediaTime"] as? Double }
    }
}

import Foundation
import X11TestSupport

/// Runs the built `live-player` executable, for tests of the whole program.
enum PlayerProcess {
    /// The executable next to the test bundle (`.build/<triple>/debug/live-player`).
    static let executable: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("live-player").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/live-player").path
    }()

    /// Starts the player with `arguments` (and `DISPLAY` set to `display`, or unset).
    static func start(_ arguments: [String], display: String? = nil) throws -> ChildProcess {
        try ChildProcess(executable, arguments, environment: ["DISPLAY": display ?? "", "LIVE_PLAYER_TRACE_KEYS": "1"])
    }

    /// Runs the player to the end (bounded: a hang fails the test instead of blocking it).
    static func run(_ arguments: [String], display: String? = nil, timeout: Double = 60) throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = try start(arguments, display: display)
        let status = child.wait(timeout: timeout)
        if status == nil { child.kill(SIGKILL) }
        return (status, child.standardOutput, child.standardError)
    }

    /// The whole text of a `/proc` file, or nil when it cannot be read (the process is gone).
    ///
    /// Not `String(contentsOfFile:)` nor `FileManager.contents(atPath:)`: for a file whose size
    /// says 0, as every `/proc` file's does, they return the first page only. A player's memory
    /// map was cut after 36 lines, and its shared-memory segments, further down, were not seen.
    static func procFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether process `pid` has installed a handler for `signal` (bit signal−1 of SigCgt in
    /// /proc/PID/status): the moment a stop signal stops being fatal and starts being handled.
    static func catches(_ signal: Int32, pid: pid_t) -> Bool {
        guard let status = procFile("/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// Polls `condition` every 20 ms for up to `timeout` seconds (a hang check, not a timing).
    static func eventually(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// A fresh path in the temporary folder.
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "live-player-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }
}

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

    /// A fresh path in the temporary folder.
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "live-player-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }
}

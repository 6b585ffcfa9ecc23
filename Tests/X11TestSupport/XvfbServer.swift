// XvfbServer: a private X server for one test suite, on a display number nobody else uses.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a private X server (or another child process) could not be started.
public struct XvfbError: Error, CustomStringConvertible {
    public let description: String
}

/// A real `Xvfb` started for a test suite and stopped when the suite is done with it.
///
/// Several test processes (and other sessions) may run at once, so the display number is
/// probed: a number whose socket (`/tmp/.X11-unix/XN`) or lock file (`/tmp/.XN-lock`) exists is
/// skipped, and a server that still loses the race and exits is retried on another number.
public final class XvfbServer: @unchecked Sendable {
    /// The display name, such as `:57`.
    public let display: String
    private let number: Int
    private let process: ChildProcess

    /// Starts `Xvfb :N -screen 0 1024x768x24 -nolisten tcp -terminate` (or with `listenArguments`
    /// instead of `-nolisten tcp`, plus `extraArguments` such as `-fakescreenfps 144` or
    /// `-extension Present`) and waits, with a bounded timeout, for its socket.
    ///
    /// With `-terminate` the server exits when its last client disconnects; a suite that shares
    /// one server keeps a connection open for its whole life, so the server also goes away when
    /// the test process ends, however it ends.
    public init(listenArguments: [String] = ["-nolisten", "tcp"], extraArguments: [String] = []) throws {
        let executable = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let executable else { throw XvfbError(description: "Xvfb is not installed (apt-get install xvfb)") }
        var number = 100 + Int(getpid() % 1000)
        for _ in 0..<100 {
            number += 1 + Int.random(in: 0..<7)
            let socket = "/tmp/.X11-unix/X\(number)"
            if FileManager.default.fileExists(atPath: socket) || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { continue }
            let process = try ChildProcess(executable, [":\(number)", "-screen", "0", "1024x768x24", "-terminate"] + listenArguments + extraArguments)
            for _ in 0..<400 where process.isRunning {
                // The socket must be this server's: another one started on the same number at
                // the same moment (a suite on another thread, another test process) wins the
                // lock, and ours exits; the lock file names the winner's process.
                if FileManager.default.fileExists(atPath: socket), Self.lockOwner(number) == process.pid {
                    self.display = ":\(number)"
                    self.number = number
                    self.process = process
                    return
                }
                usleep(25_000)
            }
            process.kill(SIGKILL)
            _ = process.wait(timeout: 5)
        }
        throw XvfbError(description: "could not start Xvfb on a free display")
    }

    deinit { stop() }

    /// The process id in display `number`'s lock file (Xvfb writes it right-aligned in 10 characters).
    private static func lockOwner(_ number: Int) -> Int32? {
        guard let text = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The server's process id.
    public var processIdentifier: Int32 { process.pid }

    /// Whether the server is still running.
    public var isRunning: Bool { process.isRunning }

    /// Stops the server (SIGTERM, then SIGKILL if it lingers) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        process.kill(SIGTERM)
        if process.wait(timeout: 5) == nil { kill() }
    }

    /// Kills the server at once (SIGKILL), as a crash would, and waits for it.
    public func kill() {
        guard process.isRunning else { return }
        process.kill(SIGKILL)
        _ = process.wait(timeout: 5)
        // A killed server leaves its lock and socket behind; they are ours to clear.
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }
}

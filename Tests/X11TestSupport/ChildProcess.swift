// ChildProcess: a spawned program with a clean signal mask and its output captured in files.
//
// Foundation's Process lets the child inherit the spawning thread's blocked signals; test
// runner threads block SIGTERM and SIGALRM, and an Xvfb started that way neither starts
// reliably nor stops on SIGTERM. posix_spawn with an empty mask and default handlers avoids both.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its stdout and stderr written to temporary files.
public final class ChildProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    private let outputPath: String
    private let errorPath: String
    private var status: Int32?

    /// Starts `executable` with `arguments`, adding `environment` to the current environment.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        outputPath = NSTemporaryDirectory() + "child-\(tag).out"
        errorPath = NSTemporaryDirectory() + "child-\(tag).err"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        for (k, v) in environment { merged[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw XvfbError(description: "cannot start \(executable): error \(result)") }
        self.pid = pid
    }

    deinit {
        if status == nil { kill(SIGKILL); _ = wait(timeout: 5) }
        try? FileManager.default.removeItem(atPath: outputPath)
        try? FileManager.default.removeItem(atPath: errorPath)
    }

    /// Whether the process has not exited yet.
    public var isRunning: Bool { poll() == nil }

    /// Sends `signal` to the process (if it still runs).
    public func kill(_ signal: Int32) {
        if status == nil { _ = Glibc.kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the process to exit (polling; a bound for hang checks,
    /// not a timing assertion). Returns the exit status, or `128 + signal` when a signal ended it,
    /// or `nil` if it is still running.
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let s = poll() { return s }
            if Date() >= deadline { return nil }
            usleep(10_000)
        }
    }

    private func poll() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        guard r == pid else { return nil }
        let signal = raw & 0x7F
        status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        return status
    }

    /// Everything the process wrote to stdout so far.
    public var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// Everything the process wrote to stderr so far.
    public var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}

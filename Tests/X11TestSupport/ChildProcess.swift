// ChildProcess: a spawned program with a clean signal mask and its output captured in files.
//
// Foundation's Process lets the child inherit the spawning thread's blocked signals; test
// runner threads block SIGTERM and SIGALRM, and an Xvfb started that way neither starts
// reliably nor stops on SIGTERM. posix_spawn with an empty mask and default handlers avoids both.
// It also closes every other descriptor in the child: tests run in parallel, and an Xvfb that
// inherited the write end of another test's pipe kept that pipe open for as long as it ran.

import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its stdout and stderr written to temporary files
/// that have no name: they are unlinked as soon as they are open, so none is left behind, also
/// by a child that outlives its object (a suite's shared Xvfb, which no deinit ends).
public final class ChildProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    private let outputFile: Int32
    private let errorFile: Int32
    private var status: Int32?

    /// Starts `executable` with `arguments`, adding `environment` to the current environment.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        func unnamedFile() throws -> Int32 {
            var template = Array((NSTemporaryDirectory() + "child-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw XvfbError(description: "cannot create a file for a child's output: errno \(errno)") }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            // Close-on-exec: only the child it is for gets it (as its stdout or stderr, by dup2).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return fd
        }
        outputFile = try unnamedFile()
        do { errorFile = try unnamedFile() } catch { close(outputFile); throw error }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFile, 1)
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
        let closing = CLinux_spawn_add_close_from(&actions, 3)
        guard closing == 0 else {
            close(outputFile)
            close(errorFile)
            throw XvfbError(description: "cannot set up \(executable)'s descriptors: error \(closing)")
        }

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
        guard result == 0 else {
            close(outputFile)
            close(errorFile)
            throw XvfbError(description: "cannot start \(executable): error \(result)")
        }
        self.pid = pid
    }

    deinit {
        if status == nil { kill(SIGKILL); _ = wait(timeout: 5) }
        close(outputFile)
        close(errorFile)
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
    public var standardOutput: String { Self.contents(of: outputFile) }
    /// Everything the process wrote to stderr so far.
    public var standardError: String { Self.contents(of: errorFile) }

    /// The whole file, read from its start (the child's writes move only its own offset).
    private static func contents(of fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

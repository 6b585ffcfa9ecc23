// StopSignals: SIGINT, SIGTERM and SIGQUIT as a readable descriptor, so Ctrl-C ends a run like `q` does.

#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe; the handler may touch nothing but this and `write`.
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGQUIT into bytes on a pipe (the self-pipe trick).
///
/// The handler only `write`s the signal number, which is async-signal-safe; the frame loop
/// watches ``descriptor`` in its one wait, sees the stop like any other event, and ends the run
/// cleanly: window closed, shared memory released, `--stats` written, the summary printed, and
/// exit status 128 + the signal number, as a shell expects. SIGQUIT (Ctrl-\\) is a stop like the
/// others: the Swift runtime would otherwise print a backtrace for it and let the run go on.
@MainActor
enum StopSignals {
    /// The read end, non-blocking; readable once a stop signal arrived. -1 before ``install()``.
    private(set) static var descriptor: Int32 = -1
    private static var received: Int32?

    /// Installs the handlers once; later calls do nothing.
    static func install() {
        guard descriptor < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        stopSignalPipe = ends[1]
        for number in [SIGINT, SIGTERM, SIGQUIT] {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopSignalPipe, &byte, 1)
            }
        }
    }

    /// The first stop signal that arrived, if any; cheap enough to ask every frame.
    static var pending: Int32? {
        if received == nil, descriptor >= 0 {
            var byte: UInt8 = 0
            if read(descriptor, &byte, 1) == 1 { received = Int32(byte) }
        }
        return received
    }

    /// The exit status for a run ended by `signal`: 128 + its number (130 for SIGINT, 131 for
    /// SIGQUIT, 143 for SIGTERM).
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}

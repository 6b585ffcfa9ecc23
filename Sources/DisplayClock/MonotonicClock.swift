// MonotonicClock: the real clock, CLOCK_MONOTONIC with absolute sleeps.

#if canImport(Glibc)
import Glibc
#endif

/// The system's monotonic clock (`CLOCK_MONOTONIC`), in seconds, as ``CACurrentMediaTime()``.
///
/// ``wait(until:)`` is an absolute sleep, `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, ...)`:
/// the kernel wakes the thread at the instant itself, so lateness never accumulates from one
/// frame to the next and a signal that interrupts the sleep just resumes the same wait.
///
/// How late the thread wakes depends on the kernel's timer slack, 50 µs by default on Linux. By
/// default each wait lowers the waiting thread's slack to 1 ns first (see ``TimerSlack``), which
/// halves the median lateness measured by `clock-benchmark` (about 105 µs to 50 µs at 60 Hz); the
/// thread's slack stays lowered afterwards.
public struct MonotonicClock: MediaClock, Sendable {
    /// The timer slack in nanoseconds each wait sets on the waiting thread, or nil to leave the
    /// thread's slack as it is.
    public var timerSlack: Int?

    public init(timerSlack: Int? = 1) {
        self.timerSlack = timerSlack
    }

    public func now() -> Double {
        CACurrentMediaTime()
    }

    /// Sleeps until `CLOCK_MONOTONIC` reaches `deadline`. A non-finite deadline returns at once,
    /// because an infinite sleep is never what a frame loop means.
    public func wait(until deadline: Double) {
        guard deadline.isFinite else { return }
        if let timerSlack { TimerSlack.set(nanoseconds: timerSlack) }
        var instant = timespec(roundingUp: deadline)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &instant, nil) == EINTR {}
    }
}

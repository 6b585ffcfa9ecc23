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
/// How late the thread wakes depends on the kernel's timer slack, 50 µs by default on Linux;
/// see ``TimerSlack`` for lowering it.
public struct MonotonicClock: MediaClock, Sendable {
    public init() {}

    public func now() -> Double {
        CACurrentMediaTime()
    }

    /// Sleeps until `CLOCK_MONOTONIC` reaches `deadline`. A non-finite deadline returns at once,
    /// because an infinite sleep is never what a frame loop means.
    public func wait(until deadline: Double) {
        guard deadline.isFinite else { return }
        var instant = timespec(roundingUp: deadline)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &instant, nil) == EINTR {}
    }
}

// TimerSlack: the kernel's per-thread allowance for waking timers late, and how to lower it.

#if canImport(Glibc)
import Glibc
#endif
internal import CLinux

/// The calling thread's timer slack: how much later than asked the kernel may fire its timers
/// (`prctl(PR_SET_TIMERSLACK)`), so that it can batch wake-ups. Linux's default is 50 µs, about
/// half of an absolute sleep's idle lateness.
///
/// It applies to `clock_nanosleep` and `poll` timeouts (``MonotonicClock/wait(until:)``), not to
/// timerfd expiries (``FrameWaiter``). Lower it on the thread that runs the display link.
public enum TimerSlack {
    /// The calling thread's current slack in nanoseconds, or `nil` if the kernel would not say.
    public static var current: Int? {
        let value = CLinux_get_timer_slack()
        return value >= 0 ? Int(value) : nil
    }

    /// Sets the calling thread's slack. `nanoseconds` must be at least 1 (0 would restore the
    /// default). Returns whether the kernel accepted it.
    @discardableResult
    public static func set(nanoseconds: Int) -> Bool {
        guard nanoseconds >= 1 else { return false }
        return CLinux_set_timer_slack(UInt(nanoseconds)) == 0
    }
}

// RealtimeScheduling: putting the frame thread ahead of busy processes, when the system allows it.

#if canImport(Glibc)
import Glibc
#endif

/// Moves the calling thread into the kernel's real-time class (`SCHED_FIFO`), so that its frame
/// wake-ups preempt ordinary busy processes instead of queueing behind them.
///
/// On a loaded machine this is what keeps wake-up lateness in the tens of microseconds: a normal
/// thread woken by its timer may wait a scheduler tick (milliseconds) for a core. It needs the
/// privilege to do so (root, `CAP_SYS_NICE`, or an `RLIMIT_RTPRIO` grant); without it the request
/// fails harmlessly and the thread keeps normal scheduling. Opt-in, because a real-time thread
/// that never sleeps would starve its core (the kernel still reserves about 5 % for others).
/// Children created by `fork` start with normal scheduling.
public enum RealtimeScheduling {
    /// Asks for `SCHED_FIFO` at `priority` (1...99; low values are plenty for a frame loop) for the
    /// calling thread. Returns whether the kernel granted it.
    @discardableResult
    public static func request(priority: Int32 = 10) -> Bool {
        guard (1...99).contains(priority) else { return false }
        var parameters = sched_param(sched_priority: priority)
        return sched_setscheduler(0, SCHED_FIFO | resetOnFork, &parameters) == 0
    }

    /// Returns the calling thread to normal time-sharing scheduling.
    public static func restoreNormal() {
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, SCHED_OTHER, &parameters)
    }

    /// Whether the calling thread is in the real-time class.
    public static var isActive: Bool {
        sched_getscheduler(0) & ~resetOnFork == SCHED_FIFO
    }

    /// `SCHED_RESET_ON_FORK` from `<linux/sched.h>`.
    private static let resetOnFork: Int32 = 0x4000_0000
}

// AbsoluteTimer: a timerfd on CLOCK_MONOTONIC armed for absolute instants, pollable with other fds.

#if canImport(Glibc)
import Glibc
#endif
internal import CLinux

/// A Linux timerfd that becomes readable when `CLOCK_MONOTONIC` reaches the instant it was armed
/// for. Expiry is exact (the kernel applies no timer slack to timerfds) and, being a descriptor,
/// it can be polled together with the X connection.
final class AbsoluteTimer {
    let descriptor: Int32

    init() throws(FrameWaiter.Error) {
        let fd = CLinux_timerfd_create(CLOCK_MONOTONIC, O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .system(call: "timerfd_create", errno: errno) }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Arms the timer for `instant` (seconds of `CLOCK_MONOTONIC`). An instant in the past fires at
    /// once.
    func arm(at instant: Double) throws(FrameWaiter.Error) {
        var value = timespec(roundingUp: instant)
        // An all-zero it_value would disarm the timer instead of firing it.
        if value.tv_sec == 0 && value.tv_nsec == 0 { value.tv_nsec = 1 }
        var setting = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0), it_value: value)
        guard CLinux_timerfd_settime(descriptor, CLinux_TFD_TIMER_ABSTIME(), &setting, nil) == 0 else {
            throw .system(call: "timerfd_settime", errno: errno)
        }
    }

    func disarm() {
        var setting = itimerspec()
        _ = CLinux_timerfd_settime(descriptor, 0, &setting, nil)
    }

    /// Consumes a pending expiry so the descriptor stops being readable.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}

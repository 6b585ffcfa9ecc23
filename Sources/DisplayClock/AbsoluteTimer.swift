// AbsoluteTimer: a timerfd on CLOCK_MONOTONIC armed for absolute instants, pollable with other fds.

#if canImport(Glibc)
import Glibc
#endif

/// A Linux timerfd that becomes readable when `CLOCK_MONOTONIC` reaches the instant it was armed
/// for. Expiry is exact (the kernel applies no timer slack to timerfds) and, being a descriptor,
/// it can be polled together with the X connection.
///
/// Swift's Glibc module does not include `<sys/timerfd.h>`, so the three functions are looked up
/// by name; their C signatures are fixed (not variadic), so calling them through these types is
/// exactly a direct call.
final class AbsoluteTimer {
    let descriptor: Int32

    init() throws(FrameWaiter.Error) {
        guard let api = TimerFDFunctions.shared else { throw .timerUnavailable }
        let fd = api.create(CLOCK_MONOTONIC, O_CLOEXEC | O_NONBLOCK)
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
        guard TimerFDFunctions.shared!.settime(descriptor, TimerFDFunctions.absoluteTime, &setting, nil) == 0 else {
            throw .system(call: "timerfd_settime", errno: errno)
        }
    }

    func disarm() {
        var setting = itimerspec()
        _ = TimerFDFunctions.shared!.settime(descriptor, 0, &setting, nil)
    }

    /// Consumes a pending expiry so the descriptor stops being readable.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}

private struct TimerFDFunctions: Sendable {
    typealias Create = @convention(c) (Int32, Int32) -> Int32
    typealias SetTime = @convention(c) (
        Int32, Int32, UnsafePointer<itimerspec>, UnsafeMutablePointer<itimerspec>?
    ) -> Int32

    /// `TFD_TIMER_ABSTIME` from `<sys/timerfd.h>`.
    static let absoluteTime: Int32 = 1

    let create: Create
    let settime: SetTime

    static let shared: TimerFDFunctions? = {
        guard let create = dlsym(nil, "timerfd_create"), let settime = dlsym(nil, "timerfd_settime") else {
            return nil
        }
        return TimerFDFunctions(
            create: unsafeBitCast(create, to: Create.self),
            settime: unsafeBitCast(settime, to: SetTime.self)
        )
    }()
}

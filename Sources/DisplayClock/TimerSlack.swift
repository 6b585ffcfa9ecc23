// TimerSlack: the kernel's per-thread allowance for waking timers late, and how to lower it.

#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's timer slack: how much later than asked the kernel may fire its timers
/// (`prctl(PR_SET_TIMERSLACK)`), so that it can batch wake-ups. Linux's default is 50 µs, about
/// half of an absolute sleep's idle lateness.
///
/// It applies to `clock_nanosleep` and `poll` timeouts (``MonotonicClock/wait(until:)``), not to
/// timerfd expiries (``FrameWaiter``). Lower it on the thread that runs the display link.
public enum TimerSlack {
    /// The calling thread's current slack in nanoseconds, or `nil` if the kernel would not say.
    public static var current: Int? {
        guard let prctl = Prctl.function else { return nil }
        let value = prctl(prGetTimerSlack, 0, 0, 0, 0)
        return value >= 0 ? Int(value) : nil
    }

    /// Sets the calling thread's slack. `nanoseconds` must be at least 1 (0 would restore the
    /// default). Returns whether the kernel accepted it.
    @discardableResult
    public static func set(nanoseconds: Int) -> Bool {
        guard nanoseconds >= 1, let prctl = Prctl.function else { return false }
        return prctl(prSetTimerSlack, UInt(nanoseconds), 0, 0, 0) == 0
    }

    private static let prSetTimerSlack: Int32 = 29
    private static let prGetTimerSlack: Int32 = 30
}

/// `prctl` itself. It is variadic in C, so Swift does not import it; glibc reads its optional
/// arguments as `unsigned long`, and on the x86_64 and arm64 Linux ABIs a call with a fixed list of
/// integer arguments passes them in the same registers, so this fixed signature is equivalent.
private enum Prctl {
    typealias Function = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    static let function: Function? = {
        guard let symbol = dlsym(nil, "prctl") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}

// Timespec: seconds as Double to and from the kernel's timespec.

#if canImport(Glibc)
import Glibc
#endif

extension timespec {
    /// The instant `seconds`, rounded up to the next whole nanosecond so that a wait for it never
    /// returns before the `Double` deadline it was asked for. Negative or NaN times become zero.
    init(roundingUp seconds: Double) {
        let nanoseconds = (seconds * 1e9).rounded(.up)
        guard nanoseconds > 0 else {
            self.init(tv_sec: 0, tv_nsec: 0)
            return
        }
        // Beyond ~292 years of uptime the instant is "never"; clamp rather than trap.
        let clamped = min(nanoseconds, 9.2e18)
        let whole = Int(clamped / 1e9)
        let rest = Int(clamped - Double(whole) * 1e9)
        self.init(tv_sec: whole + rest / 1_000_000_000, tv_nsec: rest % 1_000_000_000)
    }
}

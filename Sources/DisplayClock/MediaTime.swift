// MediaTime: the monotonic clock in seconds, as CACurrentMediaTime().

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The current time of the monotonic clock (`CLOCK_MONOTONIC`), in seconds, as
/// Core Animation's `CACurrentMediaTime()`.
///
/// It never jumps with wall-clock changes; its zero is arbitrary (boot time on Linux).
public func CACurrentMediaTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

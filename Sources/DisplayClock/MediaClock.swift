// MediaClock: where a display link gets its time and how it waits, so tests can replace both.

/// A source of media time (seconds, as `CACurrentMediaTime()`) that can wait for an absolute instant.
///
/// ``DisplayLink`` reads all its time from a clock and waits only through it. ``MonotonicClock``
/// is the real one; ``VirtualClock`` is for tests, where time moves only when told to.
///
/// Waits are absolute: a deadline is an instant on the clock, never "so long from now", so an
/// interrupted or late wait never shifts later deadlines.
public protocol MediaClock {
    /// The current time in seconds.
    func now() -> Double

    /// Blocks until the clock reaches `deadline` (returns at once if it already has).
    func wait(until deadline: Double)
}

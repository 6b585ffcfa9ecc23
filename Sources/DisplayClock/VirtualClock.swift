// VirtualClock: a clock for tests; time moves only when told to.

/// A clock whose time advances only through ``advance(by:)``, ``advance(to:)`` or a wait.
///
/// A wait jumps straight to its deadline, so a test can drive a ``DisplayLink`` through a
/// million frames in moments, deterministically, with no real sleeping. A callback that
/// "takes" time advances the clock itself, which is how tests simulate slow frames.
///
/// Like the link it drives, a virtual clock belongs to one thread.
public final class VirtualClock: MediaClock {
    private var currentTime: Double

    /// A clock that reads `now` until advanced.
    public init(now: Double = 0) {
        currentTime = now
    }

    public func now() -> Double {
        currentTime
    }

    /// Jumps to `deadline` if it is in the future; time never goes backwards.
    public func wait(until deadline: Double) {
        advance(to: deadline)
    }

    /// Moves time forward by `seconds` (negative or NaN amounts are ignored).
    public func advance(by seconds: Double) {
        guard seconds > 0 else { return }
        currentTime += seconds
    }

    /// Moves time forward to `instant` (earlier instants are ignored).
    public func advance(to instant: Double) {
        if instant > currentTime { currentTime = instant }
    }
}

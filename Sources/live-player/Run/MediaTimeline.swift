// MediaTimeline: the media time the scene lives at: real time, paused, slowed, or stepped.

/// Turns the display link's clock into the layer tree's media time.
///
/// Media time starts at 0 when the scene appears and never goes backwards. It follows the
/// clock at rate 1, or 0.1 with slow animations (as the iOS Simulator's toggle), and stands
/// still while paused, except for single steps.
struct MediaTimeline {
    /// The current media time in seconds.
    private(set) var time = 0.0
    /// Whether media time stands still.
    private(set) var isPaused = false
    /// Whether animations run at a tenth of their speed.
    var isSlow = false
    private var lastClockTime: Double?

    /// The rate media time follows the clock at.
    var rate: Double { isPaused ? 0 : (isSlow ? 0.1 : 1) }

    /// Moves media time to match the clock reading `clockTime` (a frame's target timestamp, or
    /// the time an event arrived). Readings earlier than the last one change nothing.
    mutating func sync(toClock clockTime: Double) {
        guard let last = lastClockTime else {
            lastClockTime = clockTime
            return
        }
        guard clockTime > last else { return }
        time += (clockTime - last) * rate
        lastClockTime = clockTime
    }

    /// Pauses or resumes at clock time `clockTime`.
    mutating func setPaused(_ paused: Bool, atClock clockTime: Double) {
        sync(toClock: clockTime)
        isPaused = paused
    }

    /// Moves media time forward by one frame `interval` (scaled by slow motion), while paused.
    mutating func step(by interval: Double) {
        time += interval * (isSlow ? 0.1 : 1)
    }
}

// TimingModel: Core Animation's media-timing arithmetic, as a pure function of time.
//
// CAMediaTiming.h states the first stage (parent time to active local time) as
//     t = (tp − beginTime) · speed + timeOffset
// but Core Animation judges the active interval on the parent time alone: an animation runs
// while 0 ≤ (tp − beginTime) · speed < active duration, and timeOffset only shifts the position
// within that interval, wrapping around it. A 1 s animation with timeOffset 0.5 starts at its
// midpoint, runs to its end, wraps to its start and ends at its midpoint 1 s after it began.
// Apple does not publish the second stage (repeats, autoreverse, fill). It follows W3C Web
// Animations' "calculating the active time / iteration progress" and GNUstep's folding:
// - one cycle lasts `duration`, or `2 · duration` when `autoreverses` (forward then back);
// - the active duration is `repeatDuration` if set, else `max(repeatCount, 1)` cycles;
// - the cycle index is ⌊t / cycle⌋ and the time within it the remainder, mirrored in the
//   second half of an autoreversing cycle;
// - at the end of the active duration the *end* of the last iteration is shown, not the
//   start of the next (Web Animations' edge rule), so a forwards fill holds the final value.

/// The timing of one animation, frozen when it is committed.
struct TimingModel: Sendable, Equatable {
    var beginTime: Double
    var duration: Double
    var speed: Double
    var timeOffset: Double
    var repeatCount: Double
    var repeatDuration: Double
    var autoreverses: Bool
    var fillMode: FillMode

    /// Where a local time falls relative to the active duration.
    enum Phase: Equatable {
        case before, active, after
    }

    /// A sample of the animation: the fraction through the current iteration (before the
    /// timing function) and how many whole cycles came before it.
    struct Sample: Equatable {
        var fraction: Double
        var cycle: Double
    }

    /// Active time from the parent's time: `(tp − beginTime) · speed`. It decides the phase
    /// (before, active, after); `timeOffset` does not move the interval, only the position
    /// within it (``position(activeTime:)``).
    @inline(__always)
    func activeTime(parentTime tp: Double) -> Double {
        (tp - beginTime) * speed
    }

    /// The position within the active duration shown at active time `a`: `a + timeOffset`,
    /// wrapped around the active duration (floor modulo), or around one cycle when the
    /// animation repeats forever and the shifted time is negative.
    func position(activeTime a: Double) -> Double {
        guard timeOffset != 0 else { return a }
        let shifted = a + timeOffset
        let span = activeDuration.isFinite ? activeDuration : (shifted < 0 ? cycleDuration : 0)
        guard span > 0, span.isFinite else { return shifted }
        let wrapped = shifted - (shifted / span).rounded(.down) * span
        return wrapped < span ? wrapped : 0
    }

    var cycleDuration: Double { autoreverses ? 2 * duration : duration }

    var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        let count = repeatCount > 0 ? repeatCount : 1
        return count * cycleDuration
    }

    func phase(activeTime t: Double) -> Phase {
        if t < 0 || t.isNaN { return .before }
        return t < activeDuration ? .active : .after
    }

    /// The sample at parent time `tp`, or `nil` when the animation has no effect then.
    func sample(parentTime tp: Double) -> Sample? {
        let a = activeTime(parentTime: tp)
        switch phase(activeTime: a) {
        case .before:
            guard fillMode == .backwards || fillMode == .both else { return nil }
            return sample(activeTime: position(activeTime: 0), atEnd: false)
        case .active:
            return sample(activeTime: position(activeTime: a), atEnd: false)
        case .after:
            guard fillMode == .forwards || fillMode == .both else { return nil }
            // The end, shifted: with no offset (or a whole number of active durations) that is
            // the end of the last iteration; otherwise the point the offset wrapped it to.
            let end = position(activeTime: activeDuration)
            return end == 0 || end == activeDuration ? sample(activeTime: activeDuration, atEnd: true) : sample(activeTime: end, atEnd: false)
        }
    }

    /// Folds an active time into an iteration.
    func sample(activeTime a: Double, atEnd: Bool) -> Sample {
        guard duration > 0, duration.isFinite else { return Sample(fraction: 1, cycle: 0) }
        guard a.isFinite else { return Sample(fraction: 0, cycle: 0) }
        let cycle = cycleDuration
        var k = (a / cycle).rounded(.down)
        var within = a - k * cycle
        if atEnd && within <= 0 && a > 0 {
            // Edge rule: exactly at the end, show the end of the previous cycle.
            k -= 1
            within = cycle
        }
        var fraction = within / duration
        if autoreverses && fraction > 1 { fraction = 2 - fraction }
        return Sample(fraction: min(1, max(0, fraction)), cycle: max(0, k))
    }
}

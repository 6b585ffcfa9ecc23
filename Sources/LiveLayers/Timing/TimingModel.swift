// TimingModel: Core Animation's media-timing arithmetic, as a pure function of time.
//
// Apple publishes the first stage (parent time to active local time) in CAMediaTiming.h:
//     t = (tp − beginTime) · speed + timeOffset
// but not the second (repeats, autoreverse, fill). That stage follows W3C Web Animations'
// "calculating the active time / iteration progress" and GNUstep's folding:
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

    /// Active local time from the parent's time: `(tp − beginTime) · speed + timeOffset`.
    /// `timeOffset` is not scaled by `speed`, as in CAMediaTiming.h.
    @inline(__always)
    func localTime(parentTime tp: Double) -> Double {
        (tp - beginTime) * speed + timeOffset
    }

    var cycleDuration: Double { autoreverses ? 2 * duration : duration }

    var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        let count = repeatCount > 0 ? repeatCount : 1
        return count * cycleDuration
    }

    func phase(localTime t: Double) -> Phase {
        if t < 0 || t.isNaN { return .before }
        return t < activeDuration ? .active : .after
    }

    /// The sample at parent time `tp`, or `nil` when the animation has no effect then.
    func sample(parentTime tp: Double) -> Sample? {
        let t = localTime(parentTime: tp)
        switch phase(localTime: t) {
        case .before:
            guard fillMode == .backwards || fillMode == .both else { return nil }
            return sample(activeTime: 0, atEnd: false)
        case .active:
            return sample(activeTime: t, atEnd: false)
        case .after:
            guard fillMode == .forwards || fillMode == .both else { return nil }
            return sample(activeTime: activeDuration, atEnd: true)
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

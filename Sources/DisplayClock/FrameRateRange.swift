// FrameRateRange: the rate a display link should tick at, as CAFrameRateRange.

/// The range of frame rates a ``DisplayLink`` may choose from, with the one it should prefer, as
/// Core Animation's `CAFrameRateRange`.
///
/// The link ticks at the refresh rate divided by a whole number (60 Hz gives 60, 30, 20, 15, ...),
/// because frames can only be shown on refresh deadlines. It picks the divisor whose rate lies in
/// `minimum...maximum` and is nearest `preferred`; if no divisor lands in the range, the rate
/// nearest it. Zero for all three (``default``) means the refresh rate itself.
public struct FrameRateRange: Sendable, Hashable {
    /// The lowest acceptable rate in frames per second (0: no lower bound).
    public var minimum: Double
    /// The highest acceptable rate (0: the refresh rate).
    public var maximum: Double
    /// The rate to aim for within the range (0: ``maximum``).
    public var preferred: Double

    public init(minimum: Double, maximum: Double, preferred: Double) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// A range of exactly one rate.
    public init(exactly rate: Double) {
        self.init(minimum: rate, maximum: rate, preferred: rate)
    }

    /// Tick at the refresh rate.
    public static let `default` = FrameRateRange(minimum: 0, maximum: 0, preferred: 0)

    /// The divisor of `refreshRate` this range selects (1 for the refresh rate itself).
    public func divisor(forRefreshRate refreshRate: Double) -> Int {
        let sane = { (value: Double) in value.isFinite && value > 0 ? value : 0 }
        let high = sane(maximum) > 0 ? sane(maximum) : refreshRate
        let low = min(sane(minimum), high)
        let target = sane(preferred) > 0 ? sane(preferred) : high
        // Slightly widen the range so 59.94 and 60 count as the same rate.
        let tolerance = 1e-6 * refreshRate

        var best = (divisor: 1, outside: true, distance: Double.infinity)
        for divisor in 1...Self.maximumDivisor {
            let rate = refreshRate / Double(divisor)
            let outside = rate < low - tolerance || rate > high + tolerance
            let distance = abs(rate - target)
            if (!outside && best.outside) || (outside == best.outside && distance < best.distance - tolerance) {
                best = (divisor, outside, distance)
            }
            if rate < low && rate < target { break }  // rates only fall from here
        }
        return best.divisor
    }

    /// One frame per two seconds at 120 Hz: slower than any animation wants.
    static let maximumDivisor = 240
}

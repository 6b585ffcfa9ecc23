// RefreshFit: the display's refresh period, fitted to recent vblanks by least squares.

/// A straight line `time = intercept + period × msc` fitted by least squares to the most recent
/// vblanks, which gives the refresh period and predicts when any vblank happens. A second fit
/// keeps the stamps at or below the first line's median residual: a busy server stamps vblanks
/// late, never early.
///
/// Servers stamp vblanks with jitter (Xvfb's fake vblank runs on a millisecond timer, so
/// consecutive stamps of a 60 Hz display are 16 and 17 ms apart), and a vblank can go unreported
/// when a request comes late. A fit over the last ``capacity`` vblanks averages the jitter out and
/// needs no consecutive counters. Adding a vblank never allocates.
public struct RefreshFit: Sendable {
    /// The number of recent vblanks the fit covers.
    public static let capacity = 240

    private var times: [Double]
    private var residuals: [Double]
    private var counters: [Int64]
    private var head = 0
    /// The number of vblanks the fit covers now.
    public private(set) var count = 0
    private var fittedPeriod: Double?
    private var fittedIntercept = 0.0
    private var reference: Int64 = 0

    /// An empty fit.
    public init() {
        times = Array(repeating: 0, count: Self.capacity)
        residuals = Array(repeating: 0, count: Self.capacity)
        counters = Array(repeating: 0, count: Self.capacity)
    }

    /// The fitted refresh period in seconds; nil until two vblanks with different counters.
    public var period: Double? { fittedPeriod }

    /// The fitted refresh rate in Hz; nil until two vblanks with different counters.
    public var rate: Double? { fittedPeriod.map { 1 / $0 } }

    /// The newest vblank added.
    public var newest: Vblank? {
        guard count > 0 else { return nil }
        let index = head == 0 ? Self.capacity - 1 : head - 1
        return Vblank(time: times[index], msc: counters[index])
    }

    /// When vblank `msc` happens (or happened), on the fitted line; nil before any vblank. With one
    /// vblank, `fallbackPeriod` stands in for the period.
    public func time(ofMSC msc: Int64, fallbackPeriod: Double) -> Double? {
        guard let newest else { return nil }
        guard let fittedPeriod else { return newest.time + Double(msc - newest.msc) * fallbackPeriod }
        return fittedIntercept + Double(msc - reference) * fittedPeriod
    }

    /// Adds a vblank and refits. A counter that goes backwards, or a stamp that is not after the
    /// previous one for a later counter, means the server restarted its count: the fit starts over.
    public mutating func add(_ vblank: Vblank) {
        guard vblank.time.isFinite else { return }
        if let newest {
            if vblank.msc == newest.msc { return }
            if vblank.msc < newest.msc || vblank.time <= newest.time { removeAll() }
        }
        times[head] = vblank.time
        counters[head] = vblank.msc
        head = head + 1 == Self.capacity ? 0 : head + 1
        count = min(count + 1, Self.capacity)
        refit()
    }

    /// Forgets every vblank.
    public mutating func removeAll() {
        head = 0
        count = 0
        fittedPeriod = nil
    }

    private mutating func refit() {
        guard count >= 2, let newest else { fittedPeriod = nil; return }
        guard let first = leastSquares(newest: newest, within: nil) else { fittedPeriod = nil; return }
        fittedPeriod = first.slope
        reference = newest.msc
        fittedIntercept = first.intercept
        guard count >= 8 else { return }
        // A busy server stamps some vblanks late (its timer fired late), never early: fit again
        // through the lower half, the stamps least delayed (the same share of each end of the
        // window, so the millisecond timer's rounding does not tilt the line).
        for i in 0..<count {
            residuals[i] = times[i] - (fittedIntercept + Double(counters[i] - reference) * first.slope)
        }
        let n = count
        // Selected in place: a sort would allocate its merge buffer on every vblank.
        let median = residuals.withUnsafeMutableBufferPointer { all in
            let window = UnsafeMutableBufferPointer(rebasing: all[0..<n])
            Percentiles.select(n / 2, in: window, from: 0)
            return window[n / 2]
        }
        if let second = leastSquares(newest: newest, within: (median - 0.002)...(median + 0.000_1)), second.used >= count / 3 {
            fittedPeriod = second.slope
            fittedIntercept = second.intercept
        }
    }

    /// The least-squares line through the vblanks whose residual from the current line is in
    /// `band` (all of them for nil), centred on the newest vblank: counters are large (seconds of
    /// uptime times the rate) and stamps are seconds of uptime, so raw sums would lose the
    /// microseconds that matter.
    private func leastSquares(newest: Vblank, within band: ClosedRange<Double>?) -> (slope: Double, intercept: Double, used: Int)? {
        let current = fittedPeriod
        func included(_ i: Int) -> Bool {
            guard let band, let current else { return true }
            return band.contains(times[i] - (fittedIntercept + Double(counters[i] - reference) * current))
        }
        var sumX = 0.0, sumY = 0.0, used = 0
        for i in 0..<count where included(i) {
            sumX += Double(counters[i] - newest.msc)
            sumY += times[i] - newest.time
            used += 1
        }
        guard used >= 2 else { return nil }
        let meanX = sumX / Double(used), meanY = sumY / Double(used)
        var sxx = 0.0, sxy = 0.0
        for i in 0..<count where included(i) {
            let dx = Double(counters[i] - newest.msc) - meanX
            sxx += dx * dx
            sxy += dx * (times[i] - newest.time - meanY)
        }
        guard sxx > 0, sxy > 0 else { return nil }
        let slope = sxy / sxx
        return (slope, newest.time + meanY - slope * meanX, used)
    }
}

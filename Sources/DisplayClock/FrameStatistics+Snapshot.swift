// FrameStatistics.Snapshot: a Sendable copy of the statistics, and its one-line summary.

extension FrameStatistics {
    /// Everything ``FrameStatistics`` knows at one instant, as a value that can be sent to another
    /// thread or printed. Making one allocates; do it for reports, not every frame.
    public struct Snapshot: Sendable, Hashable {
        /// One stage's durations and the drops blamed on it.
        public struct StageReport: Sendable, Hashable {
            public var stage: FrameStage
            /// Recent durations in seconds.
            public var duration: Percentiles
            /// Drops blamed on the stage since creation or reset.
            public var drops: Int
            /// Drops blamed on the stage within the last second.
            public var dropsInLastSecond: Int
        }

        public var framesDelivered: Int
        public var framesDropped: Int
        public var framesPerSecondLastSecond: Double
        public var framesPerSecondOverall: Double
        /// Recent frame intervals in seconds.
        public var interval: Percentiles
        /// Recent wake-up lateness in seconds.
        public var lateness: Percentiles
        /// The stages that were recorded or blamed, in slot order (``FrameStage/unattributed`` last).
        public var stages: [StageReport]
        public var histogram: FrameIntervalHistogram
        /// The recent frames, oldest first.
        public var recentFrames: [FrameSample]

        /// One line for a log or a terminal, times in milliseconds, for example
        /// `60.0 fps (overall 59.9) | 1200 frames, 2 dropped [draw 2] | interval p50 16.67 p95 16.71 p99 16.90 max 33.40 ms | late p50 0.05 p99 0.09 max 0.30 ms`.
        public var summary: String {
            let blamed = stages.filter { $0.drops > 0 }.map { "\($0.stage.name) \($0.drops)" }
            let blame = blamed.isEmpty ? "" : " [\(blamed.joined(separator: ", "))]"
            return "\(fixed(framesPerSecondLastSecond, 1)) fps (overall \(fixed(framesPerSecondOverall, 1)))"
                + " | \(framesDelivered) frames, \(framesDropped) dropped\(blame)"
                + " | interval p50 \(ms(interval.p50)) p95 \(ms(interval.p95)) p99 \(ms(interval.p99)) max \(ms(interval.max)) ms"
                + " | late p50 \(ms(lateness.p50)) p99 \(ms(lateness.p99)) max \(ms(lateness.max)) ms"
        }
    }

    /// A copy of the current statistics.
    public func snapshot() -> Snapshot {
        var recentFrames: [FrameSample] = []
        recentFrames.reserveCapacity(historyCapacity)
        forEachRecentFrame { recentFrames.append($0) }
        let stages = (0..<FrameStage.capacity).filter(isStageInUse).map { slot in
            Snapshot.StageReport(
                stage: stage(inSlot: slot),
                duration: durationPercentiles(of: stage(inSlot: slot)),
                drops: drops(blamedOn: stage(inSlot: slot)),
                dropsInLastSecond: dropsInLastSecond(blamedOn: stage(inSlot: slot))
            )
        }
        return Snapshot(
            framesDelivered: framesDelivered,
            framesDropped: framesDropped,
            framesPerSecondLastSecond: framesPerSecondLastSecond,
            framesPerSecondOverall: framesPerSecondOverall,
            interval: intervalPercentiles(),
            lateness: latenessPercentiles(),
            stages: stages,
            histogram: histogram,
            recentFrames: recentFrames
        )
    }

    /// ``Snapshot/summary`` of the current statistics.
    public var summary: String {
        snapshot().summary
    }
}

/// Seconds as milliseconds with two decimals.
private func ms(_ seconds: Double) -> String {
    fixed(seconds * 1000, 2)
}

/// `value` with `digits` decimals, without Foundation.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let units = UInt64(scaled)
    let whole = units / UInt64(scale)
    let fraction = String(units % UInt64(scale))
    let sign = value < 0 && units > 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    return "\(sign)\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

// FrameStatistics: what a display link's frames did, kept in fixed storage, updated every frame.

/// Counts, rates, percentiles, a histogram and drop attribution for the frames of one
/// ``DisplayLink``, which updates it on every tick. Updating never allocates: every history is
/// a fixed-capacity ring allocated up front, and percentile queries work in preallocated scratch.
///
/// ## What is measured
/// - A frame's *interval* is the time between its wake-up and the previous frame's, what a viewer
///   sees; intervals across a pause are not counted.
/// - *Lateness* is the wake-up time minus the frame's deadline (``DisplayLink/Frame/lateness``).
/// - Percentiles (nearest rank, see ``Percentiles``) cover the last ``historyCapacity`` frames.
/// - ``framesPerSecondLastSecond`` is `(n − 1) / (newest − oldest)` over the `n` frames that woke
///   within the second before the newest one (or within the history, if it is shorter), which
///   is robust to a frame sitting exactly on the window's edge. ``framesPerSecondOverall`` is
///   intervals counted divided by their total time, so paused time does not dilute it.
///
/// ## Drop attribution
/// Drops reported by a tick were caused by the frame before it. That frame's *stages* (recorded
/// with ``DisplayLink/recordStage(_:duration:)`` between the two ticks) were over budget if their
/// durations add up to more than its frame interval. If so, the drops are blamed on its longest
/// stage (the one whose cut would most have saved the frame; ties go to the earlier stage). If not,
/// or if no stages were recorded, nothing the frame measured explains the drops and they are
/// blamed on ``FrameStage/unattributed``: a late wake-up, unrecorded work, or another process.
///
/// Like its link, a statistics object belongs to one thread; ``snapshot()`` makes a `Sendable`
/// copy for reporting elsewhere.
public final class FrameStatistics {
    /// The default number of frames kept for percentiles and the overlay graph: 4 s at 60 Hz.
    public static let defaultHistoryCapacity = 240

    /// The number of recent frames percentiles and ``forEachRecentFrame(_:)`` cover (at least 120).
    public let historyCapacity: Int

    /// Frames delivered since creation or ``reset()``.
    public private(set) var framesDelivered = 0
    /// Deadlines dropped since creation or ``reset()``.
    public private(set) var framesDropped = 0
    /// Frame intervals since creation or ``reset()``.
    public private(set) var histogram = FrameIntervalHistogram()

    private var recent: SampleRing<Sample>
    private var intervals: SampleRing<Double>
    private var lateness: SampleRing<Double>
    private var stageDurations: [SampleRing<Double>]
    private var scratch: [Double]

    private var intervalCount = 0
    private var intervalSum = 0.0
    private var dropsByStage: [Int]
    private var stageNames: [String]
    private var lastWakeTime: Double?

    // The frame being worked on: its stage durations so far and its budget.
    private var openDurations: [Double]
    private var openRecorded: [Bool]
    private var openBudget: Double?
    // The frame closed last: its stage durations (-1: not recorded) and budget, for drops the
    // display reports after the link moved on.
    private var closedDurations: [Double]
    private var closedBudget: Double?
    /// Drops added by display corrections and not taken back, by stage slot.
    private var correctedBySlot = [Int](repeating: 0, count: FrameStage.capacity)
    private var lastCorrectedSlot = FrameStage.unattributed.slot

    /// One frame as the ring stores it: plain values, no references.
    struct Sample {
        var wakeTime: Double
        var interval: Double
        var lateness: Double
        var droppedFrames: Int
        var blamedSlot: Int
    }

    init(historyCapacity: Int) {
        let capacity = max(120, historyCapacity)
        self.historyCapacity = capacity
        recent = SampleRing(capacity: capacity, filler: Sample(wakeTime: 0, interval: .nan, lateness: 0, droppedFrames: 0, blamedSlot: -1))
        intervals = SampleRing(capacity: capacity, filler: 0)
        lateness = SampleRing(capacity: capacity, filler: 0)
        stageDurations = Array(repeating: SampleRing(capacity: capacity, filler: 0), count: FrameStage.capacity)
        scratch = []
        scratch.reserveCapacity(capacity)
        dropsByStage = Array(repeating: 0, count: FrameStage.capacity)
        stageNames = FrameStage.defaultsBySlot.map(\.name)
        openDurations = Array(repeating: 0, count: FrameStage.capacity)
        openRecorded = Array(repeating: false, count: FrameStage.capacity)
        closedDurations = Array(repeating: -1, count: FrameStage.capacity)
    }

    // MARK: Recording (by the link)

    /// Closes the previous frame (blaming this frame's drops on it) and opens `frame`. The
    /// interval is measured between `intervalTime`s: wake-ups on a timer, vblanks on a display.
    func record(_ frame: DisplayLink.Frame, wakeTime: Double, intervalTime: Double? = nil) {
        var blamed = -1
        if frame.droppedFrames > 0 {
            blamed = culpritSlot()
            framesDropped += frame.droppedFrames
            dropsByStage[blamed] += frame.droppedFrames
        }
        closedBudget = openBudget
        for slot in 0..<FrameStage.capacity {
            closedDurations[slot] = openRecorded[slot] ? openDurations[slot] : -1
            guard openRecorded[slot] else { continue }
            stageDurations[slot].append(openDurations[slot])
            openDurations[slot] = 0
            openRecorded[slot] = false
        }
        openBudget = frame.duration

        let intervalTime = intervalTime ?? wakeTime
        var interval = Double.nan
        if let lastWakeTime {
            interval = intervalTime - lastWakeTime
            intervalCount += 1
            intervalSum += interval
            histogram.add(interval)
            intervals.append(interval)
        }
        lateness.append(frame.lateness)
        recent.append(Sample(wakeTime: wakeTime, interval: interval, lateness: frame.lateness, droppedFrames: frame.droppedFrames, blamedSlot: blamed))
        framesDelivered += 1
        lastWakeTime = intervalTime
    }

    /// Corrects the drop count by `change` to match what the display showed (see
    /// ``DisplayLink/presentationCompleted(frameIndex:msc:)``). Added drops are blamed on the
    /// longest stage of the last finished frame if its stages took more than half its interval (a
    /// server needs a frame that early), otherwise on ``FrameStage/unattributed``; drops taken
    /// back come off the stages earlier corrections blamed, newest first, then off the link's
    /// own count (unattributed first).
    func correctDrops(by change: Int) {
        if change > 0 {
            var total = 0.0
            var longest = -1
            for slot in 0..<FrameStage.capacity where closedDurations[slot] >= 0 {
                total += closedDurations[slot]
                if longest < 0 || closedDurations[slot] > closedDurations[longest] { longest = slot }
            }
            let budget = closedBudget ?? openBudget ?? 0
            let blamed = longest >= 0 && total > budget / 2 ? longest : FrameStage.unattributed.slot
            framesDropped += change
            dropsByStage[blamed] += change
            correctedBySlot[blamed] += change
            lastCorrectedSlot = blamed
            if recent.count > 0 {
                recent.updateNewest { sample in
                    sample.droppedFrames += change
                    sample.blamedSlot = blamed
                }
            }
        } else {
            var remaining = -change
            while remaining > 0 {
                var slot = lastCorrectedSlot
                if correctedBySlot[slot] == 0 {
                    if let any = correctedBySlot.firstIndex(where: { $0 > 0 }) {
                        slot = any
                    } else if dropsByStage[FrameStage.unattributed.slot] > 0 {
                        // The link counted drops the display did not show (a wake-up it took
                        // for late): take back its own, unexplained ones first.
                        slot = FrameStage.unattributed.slot
                    } else {
                        guard let any = dropsByStage.firstIndex(where: { $0 > 0 }) else { break }
                        slot = any
                    }
                }
                let taken = min(remaining, correctedBySlot[slot] > 0 ? correctedBySlot[slot] : dropsByStage[slot])
                correctedBySlot[slot] = max(0, correctedBySlot[slot] - taken)
                dropsByStage[slot] -= taken
                framesDropped -= taken
                remaining -= taken
            }
        }
    }

    /// Adds `duration` to `stage` of the open frame.
    func recordStage(_ stage: FrameStage, duration: Double) {
        precondition(stage.isRecordable, "FrameStage.unattributed collects unexplained drops and cannot be recorded")
        guard duration.isFinite else { return }
        openDurations[stage.slot] += max(0, duration)
        openRecorded[stage.slot] = true
        if stageNames[stage.slot] != stage.name { stageNames[stage.slot] = stage.name }
    }

    /// The next interval spans a pause: do not count it.
    func noteDiscontinuity() {
        lastWakeTime = nil
    }

    private func culpritSlot() -> Int {
        guard let openBudget else { return FrameStage.unattributed.slot }
        var total = 0.0
        var longest = -1
        for slot in 0..<FrameStage.capacity where openRecorded[slot] {
            total += openDurations[slot]
            if longest < 0 || openDurations[slot] > openDurations[longest] { longest = slot }
        }
        return longest >= 0 && total > openBudget ? longest : FrameStage.unattributed.slot
    }

    /// Forgets everything measured so far; the next frame starts a new history.
    public func reset() {
        framesDelivered = 0
        framesDropped = 0
        histogram.removeAll()
        recent.removeAll()
        intervals.removeAll()
        lateness.removeAll()
        for slot in 0..<FrameStage.capacity {
            stageDurations[slot].removeAll()
            dropsByStage[slot] = 0
            correctedBySlot[slot] = 0
        }
        intervalCount = 0
        intervalSum = 0
        lastWakeTime = nil
    }

    // MARK: Queries

    /// Frames per second over the last second of frames (see the type's documentation); 0 with
    /// fewer than two frames.
    public var framesPerSecondLastSecond: Double {
        guard recent.count >= 2 else { return 0 }
        let newest = recent[newestMinus: 0].wakeTime
        var oldest = newest
        var frames = 0
        for age in 0..<recent.count {
            let wake = recent[newestMinus: age].wakeTime
            if wake < newest - 1 { break }
            oldest = wake
            frames += 1
        }
        return frames >= 2 && newest > oldest ? Double(frames - 1) / (newest - oldest) : 0
    }

    /// Frames per second since creation or ``reset()``, paused time excluded; 0 before two frames.
    public var framesPerSecondOverall: Double {
        intervalSum > 0 ? Double(intervalCount) / intervalSum : 0
    }

    /// Percentiles of the recent frame intervals, in seconds.
    public func intervalPercentiles() -> Percentiles {
        Percentiles.of(intervals, scratch: &scratch)
    }

    /// Percentiles of the recent wake-up lateness, in seconds.
    public func latenessPercentiles() -> Percentiles {
        Percentiles.of(lateness, scratch: &scratch)
    }

    /// Percentiles of `stage`'s recent durations, in seconds (over the frames that recorded it).
    public func durationPercentiles(of stage: FrameStage) -> Percentiles {
        Percentiles.of(stageDurations[stage.slot], scratch: &scratch)
    }

    /// Drops blamed on `stage` since creation or ``reset()``.
    public func drops(blamedOn stage: FrameStage) -> Int {
        dropsByStage[stage.slot]
    }

    /// Drops blamed on `stage` by frames that woke within the last second.
    public func dropsInLastSecond(blamedOn stage: FrameStage) -> Int {
        guard recent.count > 0 else { return 0 }
        let newest = recent[newestMinus: 0].wakeTime
        var drops = 0
        for age in 0..<recent.count {
            let sample = recent[newestMinus: age]
            if sample.wakeTime < newest - 1 { break }
            if sample.blamedSlot == stage.slot { drops += sample.droppedFrames }
        }
        return drops
    }

    /// Visits the recent frames from oldest to newest (for an overlay graph), without allocating.
    public func forEachRecentFrame(_ body: (FrameSample) throws -> Void) rethrows {
        try recent.forEach { try body(publicSample($0)) }
    }

    /// The stage in `slot` with the name it was last recorded under.
    func stage(inSlot slot: Int) -> FrameStage {
        FrameStage(slot: slot, name: stageNames[slot])
    }

    private func publicSample(_ sample: Sample) -> FrameSample {
        FrameSample(
            wakeTime: sample.wakeTime,
            interval: sample.interval.isNaN ? nil : sample.interval,
            lateness: sample.lateness,
            droppedFrames: sample.droppedFrames,
            blamedStage: sample.blamedSlot >= 0 ? stage(inSlot: sample.blamedSlot) : nil
        )
    }

    /// Which slots have durations or drops to report.
    func isStageInUse(_ slot: Int) -> Bool {
        stageDurations[slot].count > 0 || dropsByStage[slot] > 0
    }
}

/// One recent frame, as ``FrameStatistics/forEachRecentFrame(_:)`` reports it.
public struct FrameSample: Sendable, Hashable {
    /// When the frame ran.
    public var wakeTime: Double
    /// Time since the previous frame's wake-up; nil for the first frame and after a pause.
    public var interval: Double?
    /// How late the frame woke after its deadline.
    public var lateness: Double
    /// Deadlines dropped just before this frame.
    public var droppedFrames: Int
    /// The stage blamed for those drops, nil when there were none.
    public var blamedStage: FrameStage?

    /// Whether this frame came after a drop (an overlay draws it red).
    public var isAfterDrop: Bool { droppedFrames > 0 }
}

// FrameLog: every frame's stage timings, for the summary line and --stats.

/// The stage timings of one frame, in seconds.
struct FrameRecord {
    var mediaTime: Double
    var animate: Double
    var draw: Double
    var composite: Double
    var blit: Double
    var dropped: Int
    /// The vblank the frame was shown at, when the display said so (Present's CompleteNotify).
    var msc: Int64? = nil
    /// The link's tick that drew the frame, when one did (not a step or a redraw while paused).
    var tick: FrameTick? = nil

    /// The frame's work: all stages added up.
    var total: Double { animate + draw + composite + blit }
}

/// When a tick of the display link began a frame, against what the display did: for `--stats`,
/// from which Benchmarks/vsync-lateness.sh measures ticks against the vblanks' UST.
struct FrameTick {
    /// The deadline the tick stood for (the frame's `timestamp`), seconds of CLOCK_MONOTONIC.
    var timestamp: Double
    /// When the tick ran, seconds of CLOCK_MONOTONIC.
    var time: Double
    /// The UST (seconds of CLOCK_MONOTONIC) of the vblank whose report ran the tick; nil when
    /// the timer ran it.
    var vblankUST: Double?
}

/// The frames of a run, kept in storage reserved up front (the hot path appends without
/// allocating until `capacity`; beyond it, frames are counted but not kept).
struct FrameLog {
    private(set) var records: [FrameRecord] = []
    private(set) var count = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        records.reserveCapacity(capacity)
    }

    /// Notes that frame `index` (counted from the first) was shown at vblank `msc`.
    mutating func noteShown(_ index: Int, msc: Int64) {
        if index >= 0, index < records.count { records[index].msc = msc }
    }

    mutating func append(_ record: FrameRecord) {
        count += 1
        if records.count < capacity { records.append(record) }
    }

    /// The `p`-th percentile (0...1, nearest rank) of the kept frames' total time.
    func totalPercentile(_ p: Double) -> Double {
        guard !records.isEmpty else { return 0 }
        let sorted = records.map(\.total).sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

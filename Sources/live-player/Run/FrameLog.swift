// FrameLog: every frame's stage timings, for the summary line and --stats.

import DisplayClock

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
        // Selected, not sorted: a sort takes scratch memory on the heap only past a size, so
        // a run's allocations grew with its frame count (malloc-count.sh read that as frames
        // allocating).
        var totals = records.map(\.total)
        let rank = min(max(Int((p * Double(totals.count)).rounded(.up)) - 1, 0), totals.count - 1)
        return totals.withUnsafeMutableBufferPointer { values in
            Percentiles.select(rank, in: values, from: 0)
            return values[rank]
        }
    }
}

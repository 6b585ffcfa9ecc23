// PresentationLedger: reconciles the drops a link counted with the vblanks the display showed.

/// Corrects a link's drop count to what the display showed, so each drop is counted once.
///
/// The link counts a drop for every frame interval between consecutive frames' target vblanks
/// beyond the first: through frame `j` that is `(t_j − t_0)/d − j` for targets `t` and divisor
/// `d`. The display's drops are the same sum over the vblanks `s` the frames were shown at,
/// `(s_j − s_0)/d − (shown frames − 1)`. Their difference is the correction
/// `((s_j − t_j) − (s_0 − t_0))/d + skipped`: how much later than its target frame `j` was shown
/// than frame 0 was, plus the frames the display skipped (replaced before their vblank, or copied
/// at the same vblank as the next frame, so never seen). The
/// ledger keeps that correction applied to the link's statistics, adding and taking back as it
/// changes (a frame shown one vblank late adds a drop; when the link counts the missed vblank
/// itself on the next frame, which is then shown on time, the correction goes back to zero).
/// Counting restarts after a pause (the timer standing in for vblanks keeps the counters).
struct PresentationLedger {
    private static let capacity = 64
    /// The target vblank of each recent frame, by frame index modulo the capacity.
    private var targets = [Int64](repeating: 0, count: PresentationLedger.capacity)
    private var newestFrame = -1
    private var baselineLateness: Int64?
    private var skipped = 0
    private var lastShown: Int64?
    /// The newest frame the display has reported on, and how late it was shown.
    private var newestCompleted = -1
    private var newestLateness: Int64 = 0
    /// The correction now applied to the statistics.
    private(set) var applied = 0

    mutating func noteDelivered(_ frame: DisplayLink.Frame) {
        newestFrame = frame.frameIndex
        targets[frame.frameIndex % Self.capacity] = frame.targetMSC ?? Int64.min
    }

    /// Later corrections start from zero; the drops already corrected stay counted.
    mutating func noteDiscontinuity() {
        baselineLateness = nil
        skipped = 0
        applied = 0
        lastShown = nil
    }

    /// Takes the display's word on frame `frameIndex`: shown at vblank `msc`, or skipped (nil).
    /// Returns the change to apply to the link's drop count.
    mutating func complete(frameIndex: Int, shownAt msc: Int64?, divisor: Int) -> Int {
        guard frameIndex >= 0, frameIndex <= newestFrame, newestFrame - frameIndex < Self.capacity - 1 else { return 0 }
        let target = targets[frameIndex % Self.capacity]
        guard target != Int64.min else { return 0 }
        // An older frame reported after a newer one: the newer was shown first and the older
        // copied over it (or replaced it), so one of the two was never seen. How late the display
        // runs is the newer frame's word; the older one's lateness would count its drop again.
        guard frameIndex > newestCompleted else {
            guard let baseline = baselineLateness else { return 0 }
            skipped += 1
            return apply(Int(newestLateness - baseline) + skipped)
        }
        newestCompleted = frameIndex
        guard let msc else {
            if baselineLateness != nil { skipped += 1 }
            return 0
        }
        // Two frames copied at the same vblank: the earlier was never seen, as if skipped.
        if msc == lastShown, baselineLateness != nil { skipped += 1 }
        lastShown = msc
        let lateness = max(0, msc - target) / Int64(max(1, divisor))
        newestLateness = lateness
        guard let baseline = baselineLateness else {
            baselineLateness = lateness
            return 0
        }
        return apply(Int(lateness - baseline) + skipped)
    }

    /// Makes `correction` the one applied; returns the change.
    private mutating func apply(_ correction: Int) -> Int {
        let change = correction - applied
        applied = correction
        return change
    }
}

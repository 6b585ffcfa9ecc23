// PresentationLedger: reconciles the drops a link counted with the vblanks the display showed.

/// Keeps the link's own drop count and the display's count for the same frames, so drops found by
/// the display are added once and drops already counted are not added again.
///
/// The display's count comes from the vblanks frames were shown at: between consecutive shown
/// frames, every frame interval beyond the first is a drop. The link's count is the
/// ``DisplayLink/Frame/droppedFrames`` of its frames. A drop appears one frame apart in the two:
/// the display sees frame `k` shown late, the link reports the missed vblank on frame `k + 1`.
/// So the display's count through frame `k` is compared with the link's through frame `k + 1`,
/// once that frame has been delivered, and only the excess is added. Both counts start at the
/// first frame shown after a discontinuity (start, pause, fall-back to the timer).
struct PresentationLedger {
    private static let capacity = 64
    /// The link's drops summed over delivered frames, by frame index modulo the capacity.
    private var linkTotals = [Int](repeating: 0, count: PresentationLedger.capacity)
    private var linkTotal = 0
    private var newestFrame = -1
    private var lastShown: Int64?
    private var baseline: (link: Int, added: Int)?
    private var displayDrops = 0
    /// The newest completed frame whose count awaits the link's next frame.
    private var pendingFrame: Int?
    /// Drops the display showed beyond the link's own count, added so far.
    private(set) var added = 0

    mutating func noteDelivered(_ frame: DisplayLink.Frame) {
        linkTotal += frame.droppedFrames
        newestFrame = frame.frameIndex
        linkTotals[frame.frameIndex % Self.capacity] = linkTotal
    }

    mutating func noteDiscontinuity() {
        lastShown = nil
        baseline = nil
        pendingFrame = nil
    }

    /// Takes the display's word on frame `frameIndex`: shown at vblank `msc`, or skipped (nil).
    mutating func complete(frameIndex: Int, shownAt msc: Int64?, divisor: Int) {
        guard let msc, frameIndex >= 0, frameIndex <= newestFrame, newestFrame - frameIndex < Self.capacity - 1 else { return }
        guard let previous = lastShown, baseline != nil else {
            lastShown = msc
            baseline = (linkTotals[frameIndex % Self.capacity], added)
            displayDrops = 0
            return
        }
        guard msc > previous else { return }
        lastShown = msc
        displayDrops += max(0, Int(msc - previous) / max(1, divisor) - 1)
        pendingFrame = frameIndex
    }

    /// The drops to add now: the display's count beyond the link's, once the link has delivered
    /// the frame after the newest completed one.
    mutating func reconcile() -> Int {
        guard let frame = pendingFrame, let baseline, frame < newestFrame else { return 0 }
        guard newestFrame - frame < Self.capacity - 1 else {
            pendingFrame = nil
            return 0
        }
        pendingFrame = nil
        let counted = (linkTotals[(frame + 1) % Self.capacity] - baseline.link) + (added - baseline.added)
        let extra = displayDrops - counted
        guard extra > 0 else { return 0 }
        added += extra
        return extra
    }
}

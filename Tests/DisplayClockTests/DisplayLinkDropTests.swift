import DisplayClock
import Testing

/// Drops at 64 Hz, where the period (1/64 s) and its multiples are exact in binary, so "exactly on
/// a deadline" really is exact.
@Suite struct DisplayLinkDropTests {
    static let period = 1.0 / 64

    /// Frame 1 (deadline 1P) runs `periods` periods. It was drawn for deadline 2P; every deadline up
    /// to the moment it returns (1P + periods·P) is missed, and the link resumes at the first one
    /// after that. So the drops are ⌊periods⌋:
    /// - 1.0: returns exactly at 2P, not ready before its target: 2P dropped, resume at 3P.
    /// - 1.5: returns at 2.5P: 2P dropped, resume at 3P.
    /// - 2.5: returns at 3.5P: 2P and 3P dropped, resume at 4P.
    /// - 10: returns at 11P: 2P … 11P dropped, resume at 12P.
    @Test(arguments: [(1.0, 1), (1.5, 1), (2.5, 2), (10.0, 10), (0.5, 0)])
    func overrunDropsWholeMissedDeadlines(periods: Double, expectedDrops: Int) {
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 1 { harness.clock.advance(by: periods * Self.period) }
        }
        harness.step()  // frame 0 at 0
        harness.step()  // frame 1 at 1P, overruns
        let resume = Double(2 + expectedDrops) * Self.period
        #expect(harness.link.nextDeadline == resume)

        // No burst: servicing again right away delivers nothing.
        #expect(!harness.link.service())
        #expect(harness.frames.count == 2)

        let frame = harness.step()!
        #expect(frame.timestamp == resume)
        #expect(frame.targetTimestamp == resume + Self.period)
        #expect(frame.droppedFrames == expectedDrops)
        #expect(frame.lateness == 0)
        #expect(frame.frameIndex == 2)

        let after = harness.step()!
        #expect(after.timestamp == resume + Self.period)
        #expect(after.droppedFrames == 0)
        #expect(harness.link.statistics.framesDropped == expectedDrops)
    }

    /// A wake-up that comes late (the process was not scheduled) delivers the latest due deadline:
    /// late by 0.5P it is the expected one, late by 1.0P or 1.5P the next, with one dropped.
    @Test(arguments: [(0.5, 0, 0.5), (1.0, 1, 0.0), (1.5, 1, 0.5), (3.25, 3, 0.25)])
    func lateWakeUpDeliversTheLatestDueDeadline(late: Double, expectedDrops: Int, lateness: Double) {
        let harness = LinkHarness(refreshRate: 64)
        harness.step()
        let frame = harness.step(lateBy: late * Self.period)!
        #expect(frame.timestamp == Double(1 + expectedDrops) * Self.period)
        #expect(frame.droppedFrames == expectedDrops)
        #expect(frame.lateness == lateness * Self.period)
        #expect(harness.link.nextDeadline == Double(2 + expectedDrops) * Self.period)
    }

    @Test func overrunAtThirtyOnSixtyCountsThirtyHertzDeadlines() {
        let harness = LinkHarness(refreshRate: 64)
        harness.link.preferredFramesPerSecond = 32
        harness.onFrame = { frame in
            if frame.frameIndex == 0 { harness.clock.advance(by: 1.5 * 2 * Self.period) }
        }
        harness.step()  // at 0, runs to 3P: misses 2P
        let frame = harness.step()!
        #expect(frame.timestamp == 4 * Self.period)
        #expect(frame.droppedFrames == 1)
    }

    @Test func pauseAndResumeNeitherDropNorBurst() {
        let harness = LinkHarness(refreshRate: 64)
        for _ in 0..<4 { harness.step() }  // 0 … 3P
        harness.link.isPaused = true
        #expect(harness.link.nextDeadline == nil)
        harness.clock.advance(by: 10.3 * Self.period)
        #expect(!harness.link.service())
        #expect(harness.step() == nil)

        harness.link.isPaused = false
        // Resumes at the first deadline not yet past, in phase with the ones before the pause.
        let now = harness.clock.now()
        #expect(harness.link.nextDeadline == 14 * Self.period)
        #expect(harness.link.nextDeadline! >= now)
        #expect(!harness.link.service())
        let frame = harness.step()!
        #expect(frame.timestamp == 14 * Self.period)
        #expect(frame.droppedFrames == 0)
        #expect(harness.frames.count == 5)
        #expect(harness.link.statistics.framesDropped == 0)
        // The interval across the pause is not a frame interval.
        #expect(harness.link.statistics.intervalPercentiles().max == Self.period)
    }

    @Test func resumingExactlyOnADeadlineDeliversItAtOnce() {
        let harness = LinkHarness(refreshRate: 64)
        harness.step()
        harness.link.isPaused = true
        harness.clock.advance(to: 5 * Self.period)
        harness.link.isPaused = false
        #expect(harness.link.nextDeadline == 5 * Self.period)
        #expect(harness.link.service())
        #expect(harness.frames.last!.droppedFrames == 0)
    }

    @Test func pauseInsideTheHandlerStopsTicks() {
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 2 { harness.link.isPaused = true }
        }
        for _ in 0..<10 { harness.step() }
        #expect(harness.frames.count == 3)
        #expect(harness.link.isPaused)
    }

    @Test func invalidateStopsTheLinkAndReleasesTheHandler() {
        final class Owner {}
        let clock = VirtualClock()
        let link = DisplayLink(refreshRate: 64, clock: clock)
        weak var weakOwner: Owner?
        var delivered = 0
        do {
            let owner = Owner()
            weakOwner = owner
            link.handler = { _ in
                _ = owner
                delivered += 1
            }
        }
        #expect(link.service())
        #expect(weakOwner != nil)
        link.invalidate()
        #expect(!link.isValid)
        #expect(weakOwner == nil)
        #expect(link.nextDeadline == nil)
        clock.advance(by: 1)
        #expect(!link.service())
        link.isPaused = false
        link.run(until: 10)
        #expect(delivered == 1)
        #expect(link.statistics.framesDelivered == 1)
    }

    @Test func invalidateInsideTheHandler() {
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 1 { harness.link.invalidate() }
        }
        harness.link.run(until: 1)
        #expect(harness.frames.count == 2)
        #expect(harness.clock.now() == Self.period)
    }

    @Test func runDeliversEveryDeadlineUntilTheEnd() {
        let harness = LinkHarness(refreshRate: 64)
        harness.link.run(until: 1)
        #expect(harness.frames.count == 65)  // 0, 1/64, …, 64/64
        #expect(harness.clock.now() == 1)
        #expect(harness.frames.allSatisfy { $0.droppedFrames == 0 })
    }

    @Test func serviceInsideTheHandlerIsIgnored() {
        let harness = LinkHarness(refreshRate: 64)
        var nested: Bool?
        harness.onFrame = { _ in nested = harness.link.service() }
        harness.step()
        #expect(nested == false)
        #expect(harness.frames.count == 1)
    }
}

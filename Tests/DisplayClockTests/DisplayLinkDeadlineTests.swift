import DisplayClock
import Testing

@Suite struct DisplayLinkDeadlineTests {
    @Test func firstFrameIsDueAtStart() {
        let harness = LinkHarness(start: 5)
        #expect(harness.link.nextDeadline == 5)
        let frame = harness.step()
        #expect(frame == DisplayLink.Frame(timestamp: 5, targetTimestamp: 5 + 1.0 / 60, duration: 1.0 / 60, frameIndex: 0, lateness: 0, droppedFrames: 0))
    }

    /// Deadlines are computed as start + k × period, so a million frames later they have not
    /// drifted: summing the period instead would be off by about a microsecond by then.
    @Test func millionTicksKeepExactDeadlines() {
        let start = 12_345.678
        let clock = VirtualClock(now: start)
        let link = DisplayLink(refreshRate: 60, clock: clock)
        var count = 0
        var worstError = 0.0
        var anyDrop = false
        var indicesInOrder = true
        link.handler = { frame in
            let expected = start + Double(count) / 60
            worstError = max(worstError, abs(frame.timestamp - expected), abs(frame.targetTimestamp - (start + Double(count + 1) / 60)))
            anyDrop = anyDrop || frame.droppedFrames != 0 || frame.lateness != 0
            indicesInOrder = indicesInOrder && frame.frameIndex == count
            count += 1
        }
        for _ in 0..<1_000_000 {
            clock.wait(until: link.nextDeadline!)
            link.service()
        }
        #expect(count == 1_000_000)
        #expect(worstError < 1e-9)
        #expect(!anyDrop)
        #expect(indicesInOrder)
        #expect(abs(link.lastFrame!.timestamp - (start + 999_999.0 / 60)) < 1e-9)
        #expect(link.statistics.framesDropped == 0)
    }

    @Test func nothingIsDeliveredBeforeTheDeadline() {
        let harness = LinkHarness(refreshRate: 64)
        harness.step()
        harness.clock.advance(by: 1.0 / 128)
        #expect(!harness.link.service())
        #expect(harness.link.nextDeadline == 1.0 / 64)
        #expect(harness.frames.count == 1)
    }

    @Test func thirtyOnSixtyDeliversEveryOtherDeadline() {
        let harness = LinkHarness(refreshRate: 60)
        harness.link.preferredFramesPerSecond = 30
        #expect(harness.link.frameInterval == 2.0 / 60)
        // Step through every 60 Hz deadline for one second.
        for k in 0..<60 {
            harness.clock.advance(to: Double(k) / 60)
            harness.link.service()
        }
        #expect(harness.frames.count == 30)
        for (index, frame) in harness.frames.enumerated() {
            #expect(abs(frame.timestamp - Double(2 * index) / 60) < 1e-12)
            #expect(abs(frame.duration - 1.0 / 30) < 1e-12)
            #expect(abs(frame.targetTimestamp - frame.timestamp - 1.0 / 30) < 1e-12)
            #expect(frame.droppedFrames == 0)
        }
    }

    @Test func changingRateKeepsThePhase() {
        let harness = LinkHarness(refreshRate: 64)
        for _ in 0..<3 { harness.step() }  // 0, 1/64, 2/64
        harness.link.preferredFramesPerSecond = 32
        harness.step()
        harness.step()
        let expected: [Double] = [0, 1, 2, 4, 6].map { $0 / 64 }
        #expect(harness.frames.map(\.timestamp) == expected)
        #expect(harness.frames.allSatisfy { $0.droppedFrames == 0 })
    }

    @Test(arguments: [
        (FrameRateRange.default, 1),
        (FrameRateRange(exactly: 60), 1),
        (FrameRateRange(exactly: 30), 2),
        (FrameRateRange(exactly: 24), 3),       // 20 is nearer 24 than 30
        (FrameRateRange(minimum: 24, maximum: 30, preferred: 24), 2),  // only 30 is in range
        (FrameRateRange(minimum: 0, maximum: 45, preferred: 0), 2),
        (FrameRateRange(exactly: 1000), 1),
    ])
    func frameRateRangeChoosesADivisor(range: FrameRateRange, divisor: Int) {
        #expect(range.divisor(forRefreshRate: 60) == divisor)
    }

    @Test func unthrottledDeliversOnEveryService() {
        let harness = LinkHarness(refreshRate: 60, start: 1)
        harness.link.isUnthrottled = true
        #expect(harness.link.frameInterval == 0)
        for _ in 0..<5 {
            #expect(harness.link.nextDeadline! <= harness.clock.now())
            #expect(harness.link.service())
            harness.clock.advance(by: 0.001)
        }
        #expect(harness.frames.count == 5)
        #expect(harness.frames.map(\.timestamp) == harness.frames.map(\.targetTimestamp))
        #expect(harness.frames.allSatisfy { $0.droppedFrames == 0 && $0.lateness == 0 })
        #expect(abs(harness.frames[4].timestamp - harness.frames[3].timestamp - 0.001) < 1e-12)
        #expect(abs(harness.frames[4].duration - 0.001) < 1e-12)

        harness.link.isUnthrottled = false
        let next = harness.link.nextDeadline!
        #expect(next >= harness.clock.now())
        harness.step()
        #expect(harness.frames.last!.droppedFrames == 0)
    }
}

@Suite struct DisplayLinkPropertyTests {
    @Test func preferredFramesPerSecondMirrorsTheRange() {
        let link = DisplayLink(clock: VirtualClock())
        #expect(link.preferredFramesPerSecond == 0)
        #expect(link.frameInterval == 1.0 / 60)
        link.preferredFramesPerSecond = 30
        #expect(link.preferredFrameRateRange == FrameRateRange(exactly: 30))
        #expect(link.preferredFramesPerSecond == 30)
        link.preferredFramesPerSecond = 0
        #expect(link.preferredFrameRateRange == .default)
        link.refreshRate = 120
        #expect(link.frameInterval == 1.0 / 120)
    }

    /// Setting up (a window, a scene) may take longer than a frame after the link was made; the
    /// first frame is the latest due deadline and nothing counts as dropped.
    @Test func lateFirstServiceDropsNothing() {
        let harness = LinkHarness(refreshRate: 64)
        harness.link.preferredFramesPerSecond = 32
        #expect(harness.link.nextDeadline == 0)
        harness.clock.advance(to: 7.5 / 64)
        let frame = harness.step()!
        #expect(frame.timestamp == 6.0 / 64)
        #expect(frame.lateness == 1.5 / 64)
        #expect(frame.droppedFrames == 0)
        #expect(harness.link.statistics.framesDropped == 0)
        #expect(harness.link.nextDeadline == 8.0 / 64)
    }

    @Test func nonFiniteStartMeansNow() {
        let link = DisplayLink(clock: VirtualClock(now: 3), start: .nan)
        #expect(link.nextDeadline == 3)
    }

    @Test func invalidTimesAreIgnored() {
        let harness = LinkHarness(refreshRate: 64)
        harness.step()
        #expect(!harness.link.service(now: .nan))
        #expect(!harness.link.service(now: -1))
        #expect(harness.frames.count == 1)
    }
}

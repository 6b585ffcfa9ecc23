import DisplayClock
import Testing

/// The refresh fit, vblank ticking, reconciliation with the display, and the watchdog, all on a
/// virtual clock.
@Suite struct VblankTickingTests {
    /// Xvfb stamps vblanks on a millisecond timer: a 60 Hz display's stamps are 16 or 17 ms
    /// apart. The least-squares fit still finds the period.
    @Test(arguments: [30.0, 60.0, 144.0])
    func fitFindsThePeriodThroughMillisecondJitter(rate: Double) {
        var fit = RefreshFit()
        let period = 1 / rate
        for n in Int64(1000)..<1100 {
            let exact = Double(n) * period
            fit.add(Vblank(time: (exact * 1000).rounded(.down) / 1000, msc: n))
        }
        let fitted = try! #require(fit.rate)
        #expect(abs(fitted - rate) / rate < 1e-4)
        let predicted = try! #require(fit.time(ofMSC: 1100, fallbackPeriod: 0))
        #expect(abs(predicted - 1100 * period) < 1e-3)
    }

    /// A busy server stamps some vblanks late, never early: the second pass keeps the stamps at
    /// the median residual or below (found in place, without sorting into a new buffer), so a
    /// third of them 2 to 9 ms late leave the period as it is.
    @Test func fitLeavesOutStampsABusyServerMadeLate() {
        var fit = RefreshFit()
        let period = 1.0 / 60
        var late = 0.0
        for n in Int64(2000)..<2200 {
            late = n % 3 == 0 ? Double((n * 7) % 8 + 2) / 1000 : 0
            fit.add(Vblank(time: Double(n) * period + late, msc: n))
        }
        let fitted = try! #require(fit.period)
        #expect(abs(fitted - period) / period < 1e-5, "fitted \(fitted)")
        #expect(abs(fit.time(ofMSC: 2200, fallbackPeriod: 0)! - 2200 * period) < 2e-4)
    }

    @Test func fitUsesVblanksWithGapsAndRestartsWhenTheCounterGoesBack() {
        var fit = RefreshFit()
        #expect(fit.period == nil)
        fit.add(Vblank(time: 1, msc: 60))
        #expect(fit.period == nil)
        #expect(fit.time(ofMSC: 62, fallbackPeriod: 0.5) == 2)
        fit.add(Vblank(time: 1.05, msc: 63))  // three periods of 1/60 later
        #expect(abs(fit.period! - 1.0 / 60) < 1e-12)
        fit.add(Vblank(time: 2, msc: 5))  // a restarted server
        #expect(fit.count == 1)
        #expect(fit.period == nil)
    }

    @Test(arguments: [30.0, 60.0, 144.0])
    func linkTicksOnEveryVblankAtTheFittedRate(rate: Double) {
        let harness = VblankHarness(displayRate: rate)
        harness.display.jitter = [0, 0.0004, -0.0003]
        harness.run(until: 12)
        let frames = harness.frames
        #expect(frames.count >= Int(2 * rate) - 1)
        #expect(harness.link.tickSource == .vblank)
        #expect(harness.link.statistics.framesDropped == 0)
        #expect(abs(harness.link.refreshRate - rate) / rate < 1e-3)
        for (a, b) in zip(frames, frames.dropFirst()) {
            #expect(b.msc! == a.msc! + 1)
            #expect(a.targetMSC == b.msc)
        }
        let median = harness.link.statistics.intervalPercentiles().p50
        #expect(abs(median * rate - 1) < 5e-3)
        #expect(harness.sourceChanges.isEmpty)
    }

    /// 30 fps on 60 Hz asks for every second vblank and ticks on them.
    @Test func thirtyOnSixtyTicksEverySecondVblank() {
        let harness = VblankHarness(displayRate: 60)
        harness.link.preferredFrameRateRange = FrameRateRange(exactly: 30)
        harness.run(until: 11)
        let later = harness.frames.dropFirst(10)
        #expect(!later.isEmpty)
        for (a, b) in zip(later, later.dropFirst()) {
            #expect(b.msc! - a.msc! == 2)
            #expect(a.targetMSC == b.msc)
        }
        #expect(harness.link.statistics.framesDropped == 0)
    }

    /// A 144 Hz display gets 144 ticks a second with the default range, whatever rate the link
    /// was created with.
    @Test func defaultRangeFollowsTheRealRefresh() {
        let harness = VblankHarness(displayRate: 144, linkRate: 60)
        harness.run(until: 12)
        let frames = harness.frames.dropFirst(20)
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(b.msc! - a.msc! == 1) }
        #expect(abs(harness.link.frameInterval * 144 - 1) < 1e-3)
    }

    /// A frame that runs 1.5 periods misses its vblank; the next tick is two vblanks on, with one drop.
    @Test func overrunSkipsVblanksAndCountsThem() {
        let harness = VblankHarness(displayRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 10 { harness.clock.advance(by: 1.5 / 64) }
        }
        harness.run(until: 11)
        let frames = harness.frames
        #expect(frames[11].msc! - frames[10].msc! == 2)
        #expect(frames[11].droppedFrames == 1)
        #expect(harness.link.statistics.framesDropped == 1)
        #expect(harness.link.tickSource == .vblank)
    }

    /// The display's word on drops corrects the link's count, and each drop counts once.
    @Test func reconciliationCountsEachDropOnce() {
        let harness = VblankHarness(displayRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 10 { harness.clock.advance(by: 1.5 / 64) }
        }
        harness.run(until: 11)
        let link = harness.link
        let frames = harness.frames
        #expect(link.statistics.framesDropped == 1)
        #expect(frames[11].targetMSC! - frames[10].targetMSC! == 2)
        // Frames 0...9 shown at their targets: nothing changes.
        for frame in frames.prefix(10) { link.presentationCompleted(frameIndex: frame.frameIndex, msc: frame.targetMSC) }
        #expect(link.statistics.framesDropped == 1)
        // Frame 10 was handed over late and shown one vblank after its target: that is the drop
        // the link counted on frame 11. Frame 11 is shown on time: one drop in all, not two.
        link.presentationCompleted(frameIndex: 10, msc: frames[10].targetMSC! + 1)
        link.presentationCompleted(frameIndex: 11, msc: frames[11].targetMSC!)
        #expect(link.statistics.framesDropped == 1)
        #expect(link.dropsFoundByDisplay == 0)
        // Frame 12 was shown two vblanks late though the link saw nothing: two drops added.
        link.presentationCompleted(frameIndex: 12, msc: frames[12].targetMSC! + 2)
        #expect(link.statistics.framesDropped == 3)
        #expect(link.dropsFoundByDisplay == 2)
        // Frame 13 skipped (replaced by 14 at the next vblank); 14 and 15 one vblank late: the
        // display showed no new frame at 12's target, 12's target + 1, 13's target: 3 drops.
        link.presentationCompleted(frameIndex: 13, msc: nil)
        link.presentationCompleted(frameIndex: 14, msc: frames[14].targetMSC! + 1)
        link.presentationCompleted(frameIndex: 15, msc: frames[15].targetMSC! + 1)
        #expect(link.statistics.framesDropped == 3)
        #expect(link.statistics.drops(blamedOn: .unattributed) == 3)
    }

    /// A newer frame shown at once (a late present) can complete before an older one still queued
    /// for the same vblank, which then copies over it: the display showed the older frame one
    /// vblank late and never the newer one. That is one drop, as the vblanks say, not two: the
    /// older frame's lateness must not count on top of the newer one's skip (a Present run under
    /// load ended with the link one drop above the server's gaps).
    @Test func anOlderFrameCompletingAfterANewerOneCountsOnce() {
        let harness = VblankHarness(displayRate: 60)
        harness.run(until: 10 + 21.5 / 60)
        let link = harness.link
        let frames = harness.frames
        #expect(frames.count >= 20)
        #expect(link.statistics.framesDropped == 0)
        for frame in frames.prefix(18) { link.presentationCompleted(frameIndex: frame.frameIndex, msc: frame.targetMSC) }
        // Frame 19 at its target, then frame 18 at the same vblank (one after its own target).
        let shownAt = frames[19].targetMSC!
        #expect(shownAt == frames[18].targetMSC! + 1)
        link.presentationCompleted(frameIndex: 19, msc: shownAt)
        link.presentationCompleted(frameIndex: 18, msc: shownAt)
        // Vblank 18's target showed no new frame: one drop.
        #expect(link.statistics.framesDropped == 1)
        // Later frames on time keep it at one.
        link.presentationCompleted(frameIndex: 20, msc: frames[20].targetMSC)
        #expect(link.statistics.framesDropped == 1)
    }

    /// When the display stops answering, the timer takes over within two periods, at the fitted
    /// rate and phase; when vblanks come back, they tick the link again.
    @Test func watchdogFallsBackToTheTimerAndReturns() {
        let harness = VblankHarness(displayRate: 60)
        let period = 1.0 / 60
        harness.display.stopsAt = 660  // 11 s
        harness.run(until: 11.5)
        #expect(harness.link.tickSource == .timer)
        let (source, when) = try! #require(harness.sourceChanges.first)
        #expect(source == .timer)
        let lastVblank = harness.display.time(of: 659)
        #expect(when > lastVblank && when <= lastVblank + 2 * period)
        // The timer keeps the vblank grid: frames a period apart, on the vblank phase.
        let timerFrames = harness.frames.filter { $0.timestamp > lastVblank }
        #expect(timerFrames.count >= 25)
        for frame in timerFrames {
            #expect(abs((frame.timestamp / period).rounded() * period - frame.timestamp) < 1e-6)
        }
        #expect(timerFrames.first!.wakeTime <= lastVblank + 2 * period)
        let framesBefore = harness.frames.count

        harness.display.stopsAt = .max
        harness.run(until: 12)
        #expect(harness.link.tickSource == .vblank)
        #expect(harness.sourceChanges.count == 2)
        #expect(harness.frames.count > framesBefore + 25)
        #expect(harness.frames.last!.msc! == Int64((harness.frames.last!.timestamp / period).rounded()))
    }

    /// Answers that reach the link 3 ms after their vblanks, later than the timer's ticks on the
    /// line fitted to the vblanks' stamps: while the timer stands in, every tick asks for the next
    /// vblank before the answer to the last request can arrive. The answers to those older
    /// requests hand the link back to the vblanks (a source that answered only the newest
    /// request, as the window's frames standing in for NotifyMSC did, never answered at all).
    @Test func answersArrivingAfterTheTimersNextTickHandTheLinkBack() {
        let harness = VblankHarness(displayRate: 60)
        harness.display.latency = 0.003
        harness.display.stopsAt = 660  // 11 s
        harness.run(until: 11.5)
        #expect(harness.link.tickSource == .timer)
        harness.display.stopsAt = .max
        harness.run(until: 11.55)
        #expect(harness.link.tickSource == .vblank)
        #expect(harness.sourceChanges.count == 2)
        let back = harness.frames.count
        harness.run(until: 12)
        #expect(harness.link.tickSource == .vblank)
        #expect(harness.frames.count > back + 25)
    }

    /// With no vblank at all, the refresh is unknown (it may be slower than the link guessed): the
    /// timer takes over after 1.9 × 50 ms.
    @Test func noVblankAtAllFallsBackWithinTwoTwentiethsOfASecond() {
        let harness = VblankHarness(displayRate: 60)
        harness.display.stopsAt = 0
        harness.run(until: 10.5)
        #expect(harness.link.tickSource == .timer)
        #expect(harness.frames.first!.wakeTime <= 10.1)
        #expect(harness.frames.count >= 24)
    }

    @Test func pausedLinkAsksForNothingAndResumesOnTheNextVblank() {
        let harness = VblankHarness(displayRate: 60)
        harness.run(until: 10.5)
        harness.link.isPaused = true
        let asked = harness.display.requests.count
        harness.run(until: 11)
        #expect(harness.display.requests.count == asked)
        #expect(harness.link.nextDeadline == nil)
        harness.link.isPaused = false
        let count = harness.frames.count
        harness.run(until: 11.5)
        #expect(harness.frames.count >= count + 28)
        #expect(harness.link.statistics.framesDropped == 0)
        #expect(harness.sourceChanges.isEmpty)
    }
}

extension VblankTickingTests {
    /// Frames that take two periods every time still tick on vblanks: the watchdog is for
    /// silence, not for slow frames.
    @Test func slowFramesDoNotTripTheWatchdog() {
        let harness = VblankHarness(displayRate: 144)
        harness.display.jitter = [0, 0.0008, 0.0003]
        harness.onFrame = { _ in harness.clock.advance(by: 0.014) }
        harness.run(until: 12)
        #expect(harness.sourceChanges.isEmpty)
        #expect(harness.frames.count > 80)
    }
}

extension VblankTickingTests {
    /// A drop the link counted (a late wake-up) that the display never showed is taken back.
    @Test func dropsTheDisplayDidNotShowAreTakenBack() {
        let harness = VblankHarness(displayRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 10 { harness.clock.advance(by: 1.5 / 64) }
        }
        harness.run(until: 11)
        let link = harness.link
        let frames = harness.frames
        #expect(link.statistics.framesDropped == 1)
        // Frames 0...10 were shown a vblank late; frame 10's overrun made the link skip a tick
        // (frame 11 reports a drop), but frame 11 was shown on time, right after frame 10: the
        // viewer saw no gap, so the link's drop is taken back.
        for frame in frames.prefix(11) { link.presentationCompleted(frameIndex: frame.frameIndex, msc: frame.targetMSC! + 1) }
        for frame in frames.dropFirst(11).prefix(4) { link.presentationCompleted(frameIndex: frame.frameIndex, msc: frame.targetMSC) }
        #expect(link.dropsFoundByDisplay == -1)
        #expect(link.statistics.framesDropped == 0)
    }
}

extension VblankTickingTests {
    /// Vblanks stop, one answer comes back, and they stop again before the next vblank tick (a
    /// server stopped twice in a row). A server may stamp an answer it sends late with the time
    /// it sends it, up to half a period off the line the earlier vblanks were on; a second answer
    /// for the same vblank (a request queued while the server was stopped) may follow at once. As with CADisplayLink, the frames stay on that
    /// line throughout: the timer that stands in again continues the vblanks' grid, and
    /// targetTimestamp moves on by whole periods, never back and never by a fraction of one.
    @Test(arguments: [-0.0082, 0.0075], [1, 2])
    func aLoneVblankBetweenTwoStallsKeepsTheGrid(stampError: Double, answers: Int) throws {
        let harness = VblankHarness(displayRate: 60)
        harness.display.jitter = [0, -0.000_667, -0.000_333]  // a millisecond timer: 16, 17, 17 ms
        harness.display.stopsAt = 660  // 11 s; the display stays silent but for the answers below
        harness.run(until: 11.3)
        #expect(harness.link.tickSource == .timer)
        let period = try #require(harness.link.refreshFit.period)
        // The vblank the timer's next tick stands for, stamped off its place on the line. Late,
        // it arrives after that tick; early, before it and ticks.
        let msc = try #require(harness.frames.last?.targetMSC)
        let stamp = try #require(harness.link.refreshFit.time(ofMSC: msc, fallbackPeriod: period)) + stampError
        harness.run(until: stamp)
        for _ in 0..<answers { harness.link.receiveVblank(Vblank(time: stamp, msc: msc)) }
        #expect(harness.link.tickSource == .vblank)
        harness.run(until: 11.6)
        #expect(harness.sourceChanges.map(\.0) == [.timer, .vblank, .timer])

        let fit = harness.link.refreshFit
        // The stamp that came back is one of the fit's: it moves the line's end by up to 0.5 ms.
        let tolerance = 0.001
        let frames = harness.frames.filter { $0.timestamp > 10.9 }
        #expect(frames.count > 30)
        func offGrid(_ interval: Double) -> Double { abs(interval - (interval / period).rounded() * period) }
        for (a, b) in zip(frames, frames.dropFirst()) {
            #expect(b.timestamp >= a.targetTimestamp - tolerance, "frame \(b.frameIndex) for \(b.timestamp) before the last target \(a.targetTimestamp)")
            #expect(offGrid(b.targetTimestamp - a.targetTimestamp) < tolerance, "targets \(a.targetTimestamp) -> \(b.targetTimestamp)")
            #expect(offGrid(b.timestamp - a.timestamp) < tolerance, "ticks \(a.timestamp) -> \(b.timestamp)")
        }
        // The timer ticks on the vblanks' line, the one the fit predicts.
        for frame in frames.suffix(10) {
            let counter = try #require(frame.msc)
            let vblank = try #require(fit.time(ofMSC: counter, fallbackPeriod: period))
            #expect(abs(frame.timestamp - vblank) < tolerance, "tick for vblank \(counter) at \(frame.timestamp), the line's \(vblank)")
        }
    }
}

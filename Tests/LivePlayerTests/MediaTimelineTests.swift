import Testing
@testable import live_player

@Suite struct MediaTimelineTests {
    @Test func followsTheClockFromTheFirstReading() {
        var timeline = MediaTimeline()
        timeline.sync(toClock: 100)
        #expect(timeline.time == 0)
        timeline.sync(toClock: 100.5)
        #expect(timeline.time == 0.5)
        timeline.sync(toClock: 100.25)  // earlier readings change nothing
        #expect(timeline.time == 0.5)
    }

    @Test func pauseStandsStillAndStepsOneFrame() {
        var timeline = MediaTimeline()
        timeline.sync(toClock: 0)
        timeline.setPaused(true, atClock: 1)
        timeline.sync(toClock: 5)
        #expect(timeline.time == 1)
        timeline.step(by: 0.25)
        #expect(timeline.time == 1.25)
        timeline.setPaused(false, atClock: 6)
        timeline.sync(toClock: 7)
        #expect(timeline.time == 2.25)
    }

    @Test func slowAnimationsRunAtATenth() {
        var timeline = MediaTimeline()
        timeline.sync(toClock: 0)
        timeline.isSlow = true
        timeline.sync(toClock: 2)
        #expect(abs(timeline.time - 0.2) < 1e-12)
        timeline.setPaused(true, atClock: 2)
        timeline.step(by: 1)
        #expect(abs(timeline.time - 0.3) < 1e-12)
    }
}

@Suite struct FormattingTests {
    @Test func fixedPoint() {
        #expect(fixed(3.14159, 2) == "3.14")
        #expect(fixed(0.005, 2) == "0.01")
        #expect(fixed(-1.5, 1) == "-1.5")
        #expect(fixed(-0.0001, 2) == "0.00")
        #expect(fixed(12, 0) == "12")
        #expect(fixed(1.05, 3) == "1.050")
        #expect(fixed(.infinity, 1) == "inf")
    }
}

import Testing
@testable import LiveLayers

@Suite struct TimingModelTests {
    func model(duration: Double = 1, begin: Double = 0, speed: Double = 1, offset: Double = 0, repeatCount: Double = 0,
               repeatDuration: Double = 0, autoreverses: Bool = false, fill: FillMode = .removed) -> TimingModel {
        TimingModel(beginTime: begin, duration: duration, speed: speed, timeOffset: offset, repeatCount: repeatCount,
                    repeatDuration: repeatDuration, autoreverses: autoreverses, fillMode: fill)
    }

    @Test func activeTimeAndPositionFollowTheHeaderFormula() {
        let m = model(duration: 2, begin: 10, speed: 2, offset: 0.5)
        // The active interval on (tp − begin)·speed; the position adds the offset, not scaled by speed.
        #expect(m.activeTime(parentTime: 10.25) == 0.5)
        #expect(m.position(activeTime: 0.5) == 1.0)
    }

    @Test func fillModesOutsideTheActiveDuration() {
        for (fill, before, after) in [(FillMode.removed, false, false), (.forwards, false, true),
                                      (.backwards, true, false), (.both, true, true)] {
            let m = model(begin: 1, fill: fill)
            #expect((m.sample(parentTime: 0.5) != nil) == before, "\(fill) before")
            #expect((m.sample(parentTime: 2.5) != nil) == after, "\(fill) after")
            #expect(m.sample(parentTime: 1.5)?.fraction == 0.5)
        }
        #expect(model(begin: 1, fill: .backwards).sample(parentTime: 0)?.fraction == 0)
        #expect(model(begin: 1, fill: .forwards).sample(parentTime: 9)?.fraction == 1)
    }

    @Test func edgeRuleShowsTheEndOfTheLastIteration() {
        let m = model(repeatCount: 3, fill: .forwards)
        #expect(m.sample(parentTime: 3)?.fraction == 1)
        #expect(m.sample(parentTime: 3)?.cycle == 2)
        // Inside the active duration an exact boundary starts the next iteration.
        #expect(m.sample(parentTime: 1)?.fraction == 0)
        #expect(m.sample(parentTime: 1)?.cycle == 1)
    }

    @Test func autoreverseAndRepeatCountValues() {
        let m = model(repeatCount: 2, autoreverses: true, fill: .forwards)
        #expect(m.activeDuration == 4)
        let expected: [(Double, Double)] = [(0, 0), (0.25, 0.25), (1, 1), (1.5, 0.5), (2, 0), (2.75, 0.75), (3.5, 0.5), (4, 0), (5, 0)]
        for (t, f) in expected {
            #expect(m.sample(parentTime: t)?.fraction == f, "t = \(t)")
        }
        // A fractional count ends mid-iteration and a forwards fill holds that value.
        let half = model(repeatCount: 1.5, fill: .forwards)
        #expect(half.activeDuration == 1.5)
        #expect(half.sample(parentTime: 7)?.fraction == 0.5)
    }

    @Test func infiniteRepeatNeverEnds() {
        let m = model(duration: 2, repeatCount: .infinity)
        #expect(m.phase(activeTime: 1e9) == .active)
        #expect(m.sample(parentTime: 1e6 + 0.5)?.fraction == 0.25)
    }

    @Test func repeatDurationWinsAndSpeedScales() {
        let m = model(repeatDuration: 2.5)
        #expect(m.activeDuration == 2.5)
        let fast = model(speed: 2)
        #expect(fast.phase(activeTime: fast.activeTime(parentTime: 0.6)) == .after)
        #expect(fast.sample(parentTime: 0.25)?.fraction == 0.5)
        let paused = model(speed: 0, offset: 0.3)
        #expect(paused.sample(parentTime: 100)?.fraction == 0.3)
    }
}

import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
    /// Core Animation's timeOffset: the active interval is judged on the parent time,
    /// (t − beginTime) · speed; timeOffset only shifts the position within it, wrapping around.
    /// A 1 s animation with timeOffset 0.5 starts at its midpoint, runs to its end, wraps to its
    /// start, and ends at its midpoint 1 s later.
    @MainActor @Suite struct TimeOffsetTests {
        init() { freshRuntime() }

        func model(duration: Double = 1, speed: Double = 1, offset: Double, repeatCount: Double = 0,
                   autoreverses: Bool = false, fill: FillMode = .removed) -> TimingModel {
            TimingModel(beginTime: 10, duration: duration, speed: speed, timeOffset: offset, repeatCount: repeatCount,
                        repeatDuration: 0, autoreverses: autoreverses, fillMode: fill)
        }

        /// The fraction shown at parent time `10 + a` (begin is 10), or nil for no effect.
        func fraction(_ m: TimingModel, at a: Double) -> Double? {
            m.sample(parentTime: 10 + a)?.fraction
        }

        @Test func theWorkedExample() {
            let m = model(offset: 0.5)
            #expect(fraction(m, at: -0.01) == nil)              // not started: the offset does not start it early
            #expect(close(fraction(m, at: 0) ?? -1, 0.5))        // starts at its midpoint
            #expect(close(fraction(m, at: 0.25) ?? -1, 0.75))
            #expect(close(fraction(m, at: 0.49) ?? -1, 0.99))    // runs to its end
            #expect(close(fraction(m, at: 0.5) ?? -1, 0))        // wraps to its start
            #expect(close(fraction(m, at: 0.75) ?? -1, 0.25))
            #expect(close(fraction(m, at: 0.99) ?? -1, 0.49))
            #expect(fraction(m, at: 1) == nil)                   // ends 1 s after it began
            let held = model(offset: 0.5, fill: .forwards)
            #expect(close(fraction(held, at: 1.5) ?? -1, 0.5))   // and ends at its midpoint
        }

        @Test func speedScalesTheActiveIntervalNotTheOffset() {
            let m = model(speed: 2, offset: 0.5)
            #expect(close(fraction(m, at: 0) ?? -1, 0.5))
            #expect(close(fraction(m, at: 0.125) ?? -1, 0.75))   // (0.125 · 2) + 0.5
            #expect(close(fraction(m, at: 0.3) ?? -1, 0.1))      // 1.1 wraps to 0.1
            #expect(fraction(m, at: 0.5) == nil)                 // the active interval is 1 s of local time
        }

        @Test func repeatsWrapAroundTheWholeActiveDuration() {
            let m = model(offset: 0.5, repeatCount: 2, fill: .forwards)
            #expect(close(fraction(m, at: 0) ?? -1, 0.5))
            #expect(m.sample(parentTime: 10.6)?.cycle == 1)
            #expect(close(fraction(m, at: 0.6) ?? -1, 0.1))      // second iteration
            #expect(close(fraction(m, at: 1.6) ?? -1, 0.1))      // 2.1 wraps to 0.1, the first again
            #expect(m.sample(parentTime: 11.6)?.cycle == 0)
            let removed = model(offset: 0.5, repeatCount: 2)
            #expect(fraction(removed, at: 1.99) != nil)          // active for two iterations
            #expect(fraction(removed, at: 2) == nil)
            #expect(close(fraction(m, at: 3) ?? -1, 0.5))        // holds where it ended: the midpoint
        }

        @Test func autoreversesFoldAfterTheShift() {
            let m = model(offset: 0.5, autoreverses: true, fill: .forwards)
            #expect(close(fraction(m, at: 0) ?? -1, 0.5))
            #expect(close(fraction(m, at: 0.5) ?? -1, 1))        // the turn
            #expect(close(fraction(m, at: 0.75) ?? -1, 0.75))    // on the way back
            #expect(close(fraction(m, at: 1.6) ?? -1, 0.1))      // wrapped to the start, forward again
            let removed = model(offset: 0.5, autoreverses: true)
            #expect(fraction(removed, at: 1.99) != nil)          // active for one forward-and-back cycle
            #expect(fraction(removed, at: 2) == nil)
            #expect(close(fraction(m, at: 2.5) ?? -1, 0.5))      // ends at its midpoint, going forward
        }

        /// The same in a layer tree on the virtual clock: values and the stop time.
        @Test func anOffsetAnimationOnALayerStopsOneDurationAfterItsBegin() throws {
            let (_, layer) = committedPair()
            var stoppedAt: Double?
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 1.0
            fade.duration = 1
            fade.timingFunction = .linear
            fade.timeOffset = 0.5
            fade.didStop = { _, finished in if finished { stoppedAt = LayerClock.currentTime } }
            layer.add(fade, forKey: "fade")
            LayerClock.advance(to: 0)
            #expect(close(try #require(layer.presentation()).opacity, 0.5))
            LayerClock.advance(to: 0.25)
            #expect(close(try #require(layer.presentation()).opacity, 0.75))
            LayerClock.advance(to: 0.75)
            #expect(close(try #require(layer.presentation()).opacity, 0.25))
            #expect(stoppedAt == nil)
            #expect(LayerClock.nextFrameTime == 0.75)             // still running
            for frame in 46...61 { LayerClock.advance(to: Double(frame) / 60) }
            #expect(stoppedAt == 1)
        }

        /// Delayed with an offset: nothing moves before beginTime, and the first frame is due then.
        @Test func aDelayedOffsetAnimationWaitsForItsBeginTime() {
            let (_, layer) = committedPair()
            var startedAt: Double?
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 1.0
            fade.duration = 1
            fade.beginTime = 2
            fade.timeOffset = 0.5
            fade.didStart = { _ in startedAt = LayerClock.currentTime }
            layer.add(fade, forKey: "fade")
            LayerClock.advance(to: 0)
            #expect(LayerClock.nextFrameTime == 2)
            LayerClock.advance(to: 1.9)
            #expect(startedAt == nil)
            LayerClock.advance(to: 2)
            #expect(startedAt == 2)
        }
    }
}

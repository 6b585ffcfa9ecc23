import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
/// One predicate for "is anything animating, and when is the next frame due", which the
/// clock, the renderer and the hosts share.
@MainActor
@Suite struct NextFrameTimeTests {
    init() { freshRuntime() }

    @Test func delayedAnimationIsDueAtItsBeginAndNotAnimatingBefore() {
        freshRuntime()
        let (_, child) = committedPair()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 1
        fade.beginTime = 2
        var stopped = false
        fade.didStop = { _, _ in stopped = true }
        child.add(fade, forKey: "fade")
        LayerClock.advance(to: 0.5)
        let renderer = LayerRenderer()
        #expect(LayerClock.nextFrameTime == 2)
        #expect(renderer.nextFrameTime == 2)
        #expect(!LayerClock.isAnimating && !renderer.isAnimating)
        LayerClock.advance(to: 2.5)
        #expect(LayerClock.isAnimating && renderer.isAnimating)
        // Ended, with its stop still to deliver: a frame is due now.
        LayerClock.advance(to: 3.5)
        #expect(stopped || LayerClock.nextFrameTime == 3.5)
        LayerClock.advance(to: 3.6)
        #expect(stopped)
        #expect(LayerClock.nextFrameTime == .infinity && !LayerClock.isAnimating)
    }

    @Test func repeatingAndAutoreversingAnimationsStayDue() {
        freshRuntime()
        let (_, child) = committedPair()
        let pulse = BasicAnimation(keyPath: "opacity")
        pulse.fromValue = 0.0
        pulse.toValue = 1.0
        pulse.duration = 0.25
        pulse.autoreverses = true
        pulse.repeatCount = 3
        child.add(pulse, forKey: "pulse")
        for t in stride(from: 0.1, through: 1.4, by: 0.25) {
            LayerClock.advance(to: t)
            #expect(LayerClock.isAnimating, "at \(t)")
        }
        LayerClock.advance(to: 1.6)
        LayerClock.advance(to: 1.7)
        #expect(!LayerClock.isAnimating)
    }
}
}

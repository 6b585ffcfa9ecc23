import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
    /// A replaced or removed animation stops with `finished == false`, once, after the
    /// transaction that replaced it, as in Core Animation: so a handler that starts a new
    /// animation (replacing the one it was called for) cannot loop.
    @MainActor @Suite struct StopDeliveryTests {
        init() { freshRuntime() }

        func sweep(_ layer: Layer, stops: @escaping @MainActor (Bool) -> Void = { _ in }, completion: @escaping @MainActor () -> Void) {
            Transaction.begin()
            Transaction.completionBlock = completion
            let animation = BasicAnimation(keyPath: "opacity")
            animation.fromValue = 0.0
            animation.toValue = 1.0
            animation.duration = 2
            animation.didStop = { _, finished in stops(finished) }
            layer.add(animation, forKey: "sweep")
            Transaction.commit()
        }

        @Test func aReplacedAnimationStopsOnceUnfinishedAfterTheTransaction() {
            let layer = Layer()
            var first: [Bool] = [], second: [Bool] = []
            sweep(layer, stops: { first.append($0) }, completion: {})
            LayerClock.advance(to: 0.5)
            Transaction.begin()
            sweep(layer, stops: { second.append($0) }, completion: {})
            #expect(first.isEmpty, "delivered inside the transaction that replaced it")
            Transaction.commit()
            #expect(first == [false])
            for frame in 1...240 { LayerClock.advance(to: 0.5 + Double(frame) / 60) }
            #expect(first == [false])
            #expect(second == [true])
        }

        /// `--autoplay`'s handler: every completion goes again. Replacing the running sweep
        /// (the g key) delivers one completion per delivery, not an endless chain in one.
        @Test func aCompletionThatRestartsItsAnimationDoesNotLoop() {
            let layer = Layer()
            var completions = 0
            func go() {
                sweep(layer) {
                    completions += 1
                    if completions < 100 { go() }   // bounded, so the defect fails instead of hanging
                }
            }
            go()
            LayerClock.advance(to: 0.5)
            #expect(completions == 0)
            go()                                    // replaces the running sweep
            #expect(completions == 1)
            LayerClock.advance(to: 0.5 + 1.0 / 60)
            #expect(completions == 2)
            #expect(LayerClock.nextFrameTime == LayerClock.currentTime, "the next stop waits for the next frame")
        }
    }
}

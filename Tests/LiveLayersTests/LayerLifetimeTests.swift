import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
    /// A layer lives as long as the app holds it, as in Core Animation: running animations do
    /// not keep it (the render server's copy is gone with it), and they stop, unfinished.
    @MainActor @Suite struct LayerLifetimeTests {
        init() { freshRuntime() }

        @Test func aLayerDroppedWhileItsAnimationRunsForeverIsFreed() {
            var stops: [Bool] = []
            weak var dropped: Layer?
            do {
                let layer = Layer()
                let turn = BasicAnimation(keyPath: "opacity")
                turn.fromValue = 0.0
                turn.toValue = 1.0
                turn.duration = 1
                turn.repeatCount = .infinity
                turn.didStop = { _, finished in stops.append(finished) }
                layer.add(turn, forKey: "turn")
                LayerClock.advance(to: 0.5)
                dropped = layer
            }
            LayerClock.advance(to: 1)
            #expect(dropped == nil)
            #expect(stops == [false])
            #expect(LayerClock.nextFrameTime == .infinity)
        }
    }
}

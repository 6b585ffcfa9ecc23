import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
    /// A layer keeps its last local time (and whether its timeline is paused) until the media
    /// time or the timing epoch changes: every change that moves a layer's time (its own or an
    /// ancestor's timing, a new superlayer or mask owner, a freed superlayer) must show at once.
    @MainActor @Suite struct LocalTimeCacheTests {
        init() { freshRuntime() }

        /// The local time worked out through every ancestor, as Core Animation defines it.
        func reference(_ layer: Layer, _ t: Double) -> Double {
            let parentTime = (layer.superlayerStorage ?? layer.maskOwner).map { reference($0, t) } ?? t
            return (parentTime - layer.beginTime) * layer.speed + layer.timeOffset
        }

        @Test func followsEveryChangeOfTimingAndTree() {
            let root = Layer(), middle = Layer(), leaf = Layer(), other = Layer()
            root.addSublayer(middle)
            middle.addSublayer(leaf)
            #expect(leaf.localTime(fromMediaTime: 5) == 5)
            middle.timeOffset = 2
            #expect(leaf.localTime(fromMediaTime: 5) == 7)
            root.speed = 2
            root.beginTime = 1
            #expect(leaf.localTime(fromMediaTime: 5) == reference(leaf, 5))
            #expect(leaf.localTime(fromMediaTime: 6) == reference(leaf, 6))
            other.timeOffset = 100
            other.addSublayer(leaf)
            #expect(leaf.localTime(fromMediaTime: 6) == 106)
            leaf.removeFromSuperlayer()
            #expect(leaf.localTime(fromMediaTime: 6) == 6)
            middle.mask = leaf
            #expect(leaf.localTime(fromMediaTime: 6) == reference(leaf, 6))
            middle.mask = nil
            #expect(leaf.localTime(fromMediaTime: 6) == 6)
            // -0 is its own media time: the cache tells it from 0 by its bits.
            #expect(leaf.localTime(fromMediaTime: 0).sign == .plus)
            #expect(leaf.localTime(fromMediaTime: -0.0).sign == .minus)
        }

        @Test func aFreedSuperlayerLeavesItsSublayersOnMediaTime() {
            let leaf = Layer()
            weak var freed: Layer?
            do {
                let parent = Layer()
                parent.timeOffset = 3
                parent.addSublayer(leaf)
                #expect(leaf.localTime(fromMediaTime: 1) == 4)
                freed = parent
            }
            LayerClock.advance(to: 0.5)    // the commit lets go of the parent
            #expect(freed == nil)
            #expect(leaf.superlayerStorage == nil)
            #expect(leaf.localTime(fromMediaTime: 1) == 1)
        }

        @Test func aPausedAncestorNeverReachesALocalTime() {
            let root = Layer(), leaf = Layer()
            root.addSublayer(leaf)
            leaf.speed = 2
            #expect(leaf.mediaTime(fromLocalTime: 4) == 2)
            root.speed = 0
            #expect(leaf.mediaTime(fromLocalTime: 4) == .infinity)
            root.speed = 0.5
            #expect(leaf.mediaTime(fromLocalTime: 4) == 4)
            leaf.removeFromSuperlayer()
            #expect(leaf.mediaTime(fromLocalTime: 4) == 2)
        }

        @Test func matchesTheWalkOverRandomTreesAndChanges() {
            var generator = SystemRandomNumberGenerator()
            let layers = (0..<12).map { _ in Layer() }
            for i in 1..<layers.count { layers[Int.random(in: 0..<i, using: &generator)].addSublayer(layers[i]) }
            for step in 0..<400 {
                let layer = layers[Int.random(in: 0..<layers.count, using: &generator)]
                switch step % 5 {
                case 0: layer.timeOffset = Double(Int.random(in: -4...4, using: &generator)) / 4
                case 1: layer.speed = [0.5, 1, 2, 3][Int.random(in: 0..<4, using: &generator)]
                case 2: layer.beginTime = Double(Int.random(in: -4...4, using: &generator)) / 3
                case 3:
                    // Moved under a layer that is not in its own subtree (insertSublayer refuses those).
                    let parent = layers[Int.random(in: 0..<layers.count, using: &generator)]
                    parent.addSublayer(layer)
                default: break
                }
                let t = Double(step % 7) * 0.37
                for l in layers {
                    #expect(l.localTime(fromMediaTime: t) == reference(l, t))
                    let media = l.mediaTime(fromLocalTime: 1.5)
                    let back = l.localTime(fromMediaTime: media)
                    #expect(media.isFinite && close(back, 1.5, 1e-6))
                }
            }
        }
    }
}

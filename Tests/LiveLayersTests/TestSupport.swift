// TestSupport: a clean layer runtime per test and tolerant comparisons.

import Testing
@testable import LiveLayers
import Raster

/// Resets the global layer runtime and the media clock to `time`.
@MainActor
func freshRuntime(at time: Double = 0) {
    LayerRuntime.shared.reset(to: time)
}

@MainActor var keptRoots: [Layer] = []

/// A root layer with one committed child, ready for implicit animations.
@MainActor
func committedPair() -> (root: Layer, child: Layer) {
    let root = Layer()
    let child = Layer()
    root.addSublayer(child)
    keptRoots.append(root)    // a superlayer is not retained by its sublayers
    LayerClock.advance(to: LayerClock.currentTime)
    return (root, child)
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// Every suite that touches the global layer runtime nests in this one, which runs its tests
/// one at a time: the runtime (media clock, transactions) is process-wide, as Core Animation's is.
@Suite(.serialized) enum RuntimeSuites {}

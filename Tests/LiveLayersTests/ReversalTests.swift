import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
@MainActor
@Suite struct ReversalTests {
    init() { freshRuntime() }

    /// Reverses at `reversalTime` and returns (value before, value right after, samples after).
    func reverse(at reversalTime: Double, curve: TimingFunction) -> (before: Double, after: Double, trail: [Double], model: Double) {
        freshRuntime()
        let layer = Layer()
        layer.position = Point(x: 200, y: 0)
        let go = BasicAnimation(keyPath: "position.x")
        go.fromValue = 0.0
        go.toValue = 200.0
        go.duration = 1
        go.timingFunction = curve
        layer.add(go, forKey: "go")
        LayerClock.advance(to: reversalTime)
        let before = layer.presentation()!.position.x
        layer.reverseAnimation(forKey: "go")
        let after = layer.presentation()!.position.x
        var trail: [Double] = []
        var t = reversalTime
        while t < reversalTime + 1.2 {
            t += 1.0 / 240
            LayerClock.advance(to: t)
            trail.append((layer.presentation() ?? layer).position.x)
        }
        return (before, after, trail, layer.position.x)
    }

    @Test(arguments: [TimingFunction.linear, .easeIn, .easeOut, .easeInEaseOut, .default])
    func reversalIsContinuousAtManyTimes(curve: TimingFunction) {
        freshRuntime()
        for i in 1..<50 {
            let tau = Double(i) / 50
            let r = reverse(at: tau, curve: curve)
            #expect(abs(r.before - r.after) < 1e-9, "jump at \(tau)")
            // Continuous afterwards: no step larger than the fastest forward step, ending at 0.
            #expect(abs(r.trail[0] - r.after) < 3.5, "first frame after \(tau)")
            for (a, b) in zip(r.trail, r.trail.dropFirst()) { #expect(abs(b - a) < 3.5) }
            #expect(r.trail.last == 0)
            #expect(r.model == 0)
        }
    }

    @Test func reversalRetracesTheForwardPathInTime() {
        freshRuntime()
        let curve = TimingFunction.easeInEaseOut
        let tau = 0.7
        let r = reverse(at: tau, curve: curve)
        // s seconds after reversing, the value is the forward value at tau − s.
        for (k, value) in r.trail.prefix(100).enumerated() {
            let s = Double(k + 1) / 240
            let expected = 200 * curve.progress(at: max(0, tau - s))
            #expect(abs(value - expected) < 1e-3, "s = \(s)")
        }
        // Duration scaled by the remaining fraction: back at the start after tau seconds.
        let index = Int((tau * 240).rounded()) - 1
        #expect(abs(r.trail[index]) < 1e-6)
    }

    @Test func nothingToReverse() {
        freshRuntime()
        let layer = Layer()
        #expect(layer.reverseAnimation(forKey: "none") == nil)
    }
}
}

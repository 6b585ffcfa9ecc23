import Testing
@testable import LiveLayers
import Raster
#if canImport(Glibc)
import Glibc
#endif

extension RuntimeSuites {
@MainActor
@Suite struct BasicAnimationTests {
    init() { freshRuntime() }

    /// The presentation x half-way through an animation with the given values, model x = 10.
    func halfway(from: Double?, to: Double?, by: Double?, additive: Bool = false) -> Double? {
        freshRuntime()
        let layer = Layer()
        layer.position = Point(x: 10, y: 0)
        let a = BasicAnimation(keyPath: "position.x")
        a.fromValue = from
        a.toValue = to
        a.byValue = by
        a.isAdditive = additive
        a.duration = 1
        layer.add(a, forKey: "a")
        LayerClock.advance(to: 0.5)
        return layer.presentation()?.position.x
    }

    @Test func fromToByTable() {
        freshRuntime()
        #expect(halfway(from: 0, to: 100, by: nil) == 50)       // from → to
        #expect(halfway(from: 0, to: nil, by: 40) == 20)        // from → from + by
        #expect(halfway(from: nil, to: 100, by: 40) == 80)      // to − by → to
        #expect(halfway(from: 30, to: nil, by: nil) == 20)      // from → model
        #expect(halfway(from: nil, to: 30, by: nil) == 20)      // model → to
        #expect(halfway(from: nil, to: nil, by: 20) == 20)      // model → model + by
        #expect(halfway(from: nil, to: nil, by: nil) == 10)     // shown value → model: nothing moves
        #expect(halfway(from: 0, to: 100, by: 7) == 50)         // all three: by ignored
    }

    @Test func additiveAddsToTheModel() {
        freshRuntime()
        #expect(halfway(from: 0, to: 100, by: nil, additive: true) == 60)
    }

    @Test func additiveAnimationsStack() throws {
        freshRuntime()
        let layer = Layer()
        layer.position = Point(x: 0, y: 0)
        for (key, amount) in [("a", 10.0), ("b", 100.0)] {
            let a = BasicAnimation(keyPath: "position.x")
            a.fromValue = 0.0
            a.toValue = amount
            a.isAdditive = true
            a.duration = 1
            layer.add(a, forKey: key)
        }
        LayerClock.advance(to: 1.0.nextDown)
        #expect(close(try #require(layer.presentation()).position.x, 110, 1e-6))
    }

    @Test func cumulativeRepeatsContinueFromTheLastEnd() throws {
        freshRuntime()
        let layer = Layer()
        let a = BasicAnimation(keyPath: "transform.rotation.z")
        a.fromValue = 0.0
        a.toValue = 1.0
        a.duration = 1
        a.repeatCount = 3
        a.isCumulative = true
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        layer.add(a, forKey: "spin")
        LayerClock.advance(to: 2.5)
        #expect(close(TransformComponents(try #require(layer.presentation()).transform).rotation, 2.5))
        LayerClock.advance(to: 10)
        // 3 radians wraps to 3 − 2π in the decomposition; compare the matrix.
        #expect(close(try #require(layer.presentation()).transform.a, cos(3.0)))
    }

    @Test func rotationKeyPathTurnsAFullCircle() throws {
        freshRuntime()
        let layer = Layer()
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 1
        layer.add(spin, forKey: "spin")
        LayerClock.advance(to: 0.5)
        let t = try #require(layer.presentation()).transform
        #expect(close(t.a, -1) && close(t.b, 0, 1e-12))
    }

    @Test func transformSubPathsKeepTheOtherComponents() throws {
        freshRuntime()
        let layer = Layer()
        layer.transform = Transform(scaleX: 2, y: 2)
        let move = BasicAnimation(keyPath: "transform.translation.x")
        move.fromValue = 0.0
        move.toValue = 10.0
        move.duration = 1
        layer.add(move, forKey: "m")
        let scale = BasicAnimation(keyPath: "transform.scale.y")
        scale.toValue = 4.0
        scale.duration = 1
        layer.add(scale, forKey: "s")
        LayerClock.advance(to: 0.5)
        let t = try #require(layer.presentation()).transform
        #expect(close(t.tx, 5) && close(t.a, 2) && close(t.d, 3))
    }

    @Test func colorAndRectInterpolate() throws {
        freshRuntime()
        let layer = Layer()
        let color = BasicAnimation(keyPath: "backgroundColor")
        color.fromValue = Color.red
        color.toValue = Color.blue
        color.duration = 1
        layer.add(color, forKey: "c")
        let bounds = BasicAnimation(keyPath: "bounds")
        bounds.fromValue = Rect(x: 0, y: 0, width: 10, height: 10)
        bounds.toValue = Rect(x: 0, y: 0, width: 30, height: 50)
        bounds.duration = 1
        layer.add(bounds, forKey: "b")
        LayerClock.advance(to: 0.5)
        let shown = try #require(layer.presentation())
        #expect(shown.backgroundColor == Color(red: 0.5, green: 0, blue: 0.5))
        #expect(shown.bounds == Rect(x: 0, y: 0, width: 20, height: 30))
    }

    @Test func mismatchedValueTypeIsIgnoredNotFatal() throws {
        freshRuntime()
        let layer = Layer()
        layer.opacity = 0.3
        let wrong = BasicAnimation(keyPath: "opacity")
        wrong.toValue = Point(x: 1, y: 1)
        wrong.duration = 1
        layer.add(wrong, forKey: "w")
        let unknown = BasicAnimation(keyPath: "no.such.key")
        unknown.toValue = 1.0
        layer.add(unknown, forKey: "u")
        LayerClock.advance(to: 0.5)
        #expect(try #require(layer.presentation()).opacity == 0.3)
        LayerClock.advance(to: 2)
        #expect(layer.animationKeys().isEmpty)                 // still timed, still removed
    }

    @Test func springSettlesOnTheTarget() throws {
        freshRuntime()
        let spring = SpringAnimation(keyPath: "position.x")
        spring.fromValue = 0.0
        spring.toValue = 100.0
        #expect(spring.settlingDuration > 0.9 && spring.settlingDuration < 2)
        spring.duration = spring.settlingDuration
        let layer = Layer()
        layer.position = Point(x: 100, y: 0)
        layer.add(spring, forKey: "s")
        var peak = 0.0
        for frame in 1...Int(spring.duration * 120) {
            LayerClock.advance(to: Double(frame) / 120)
            if let x = layer.presentation()?.position.x { peak = max(peak, x) }
        }
        #expect(peak > 100)                                    // damping 10 of 20 critical: overshoots
        let end = SpringModel(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
        #expect(abs(end.displacement(at: spring.settlingDuration)) <= 1e-3)
    }

    @Test func springClosedFormMatchesIntegration() {
        freshRuntime()
        for (damping, velocity) in [(10.0, 0.0), (20.0, 3.0), (35.0, -2.0), (2.0, 1.0)] {
            let model = SpringModel(mass: 1, stiffness: 100, damping: damping, initialVelocity: velocity)
            // Semi-implicit Euler with a tiny step as the reference.
            var x = -1.0, v = velocity, t = 0.0
            let dt = 1e-5
            while t < 1 {
                v += (-100 * x - damping * v) * dt
                x += v * dt
                t += dt
            }
            #expect(abs(model.displacement(at: t) - x) < 1e-3, "damping \(damping)")
        }
    }
}
}

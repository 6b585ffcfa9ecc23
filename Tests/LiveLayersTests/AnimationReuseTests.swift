import Testing
@testable import LiveLayers
import Raster

/// A layer reuses the record, copy and evaluator of an animation it no longer runs (issue 9: a
/// go cycle allocates nothing). None of it may show: an added animation is still a copy, what
/// was handed out keeps its values, and callbacks and completion blocks run as before.
extension RuntimeSuites {
@MainActor
@Suite struct AnimationReuseTests {
    init() { freshRuntime() }

    private func fade(to value: Double, duration: Double = 1) -> BasicAnimation {
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 1.0
        a.toValue = value
        a.duration = duration
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        return a
    }

    private func run(to time: Double) {
        var t = LayerClock.currentTime
        while t < time - 1e-9 {
            t = min(time, t + 1.0 / 60)
            LayerClock.advance(to: t)
        }
    }

    @Test func aReplacedAnimationsRecordAndEvaluatorServeTheNextOne() throws {
        freshRuntime()
        let (_, layer) = committedPair()
        layer.add(fade(to: 0.5), forKey: "fade")
        run(to: 1.5)
        let first = try #require(layer.attachedAnimations.first)
        let firstEffect = try #require(first.effect)
        layer.add(fade(to: 0.25), forKey: "fade")
        run(to: 3)
        #expect(layer.attachedAnimations.count == 1)
        #expect(layer.attachedAnimations.first === first)
        #expect(layer.attachedAnimations.first?.effect === firstEffect)
        #expect((layer.animation(forKey: "fade") as? BasicAnimation)?.toValue as? Double == 0.25)
        #expect(layer.presentation()?.opacity == 0.25)
    }

    @Test func aCopyHandedOutIsNeverRefilled() throws {
        freshRuntime()
        let (_, layer) = committedPair()
        layer.add(fade(to: 0.5), forKey: "fade")
        run(to: 1.5)
        let held = try #require(layer.animation(forKey: "fade") as? BasicAnimation)
        layer.add(fade(to: 0.25), forKey: "fade")
        run(to: 3)
        // The one handed out keeps the values it had; the layer runs a new copy.
        #expect(held.toValue as? Double == 0.5)
        let running = try #require(layer.animation(forKey: "fade") as? BasicAnimation)
        #expect(running !== held)
        #expect(running.toValue as? Double == 0.25)
        #expect(layer.presentation()?.opacity == 0.25)
    }

    @Test func changingTheAddedObjectAfterwardsChangesNothing() throws {
        freshRuntime()
        let (_, layer) = committedPair()
        let template = fade(to: 0.5)
        for (i, target) in [0.5, 0.25, 0.75, 0.125].enumerated() {
            template.toValue = target
            layer.add(template, forKey: "fade")
            template.toValue = 0.0                    // after add: the copy is not affected
            run(to: Double(i + 1) * 1.5)
            #expect(layer.presentation()?.opacity == target, "go \(i)")
            let copy = try #require(layer.animation(forKey: "fade") as? BasicAnimation)
            #expect(copy !== template)
            #expect(copy.toValue as? Double == target)
        }
    }

    @Test func aRetiredAnimationLetsGoOfItsDelegate() {
        final class Watcher: AnimationDelegate {
            var stops = 0
            func animationDidStop(_ animation: Animation, finished: Bool) { stops += 1 }
        }
        freshRuntime()
        let (_, layer) = committedPair()
        weak var gone: Watcher?
        do {
            let watcher = Watcher()
            gone = watcher
            let a = BasicAnimation(keyPath: "opacity")
            a.toValue = 0.0
            a.duration = 1
            a.delegate = watcher
            layer.add(a, forKey: "fade")              // removed on completion: retired, not freed
            run(to: 1.5)
            #expect(watcher.stops == 1)
        }
        #expect(layer.animationKeys().isEmpty)
        #expect(gone == nil)
    }

    @Test func eachCompletionBlockRunsOnceWhenItsAnimationsStop() {
        freshRuntime()
        let (_, layer) = committedPair()
        var runs: [Int] = []
        func go(_ n: Int) {
            Transaction.begin()
            Transaction.completionBlock = {
                runs.append(n)
                if n < 4 { go(n + 1) }                // the next go from the completion, as --autoplay
            }
            layer.add(fade(to: 0.5 - 0.1 * Double(n)), forKey: "fade")
            Transaction.commit()
        }
        go(1)
        run(to: 6)
        #expect(runs == [1, 2, 3, 4])
        #expect(abs((layer.presentation()?.opacity ?? 0) - 0.1) < 1e-12)
    }

    @Test func aBlockThatReplacesTheAnimationUnderTheSameKeyWaitsForTheNewOne() {
        freshRuntime()
        let (_, layer) = committedPair()
        var second: Double?
        Transaction.begin()
        Transaction.completionBlock = {
            Transaction.begin()
            Transaction.completionBlock = { second = LayerClock.currentTime }
            layer.add(self.fade(to: 0.25, duration: 2), forKey: "fade")   // reuses the record being stopped
            Transaction.commit()
        }
        layer.add(fade(to: 0.5), forKey: "fade")
        Transaction.commit()
        run(to: 2.5)
        #expect(second == nil)
        run(to: 3.5)
        // At the first frame at or after its end (it began at the frame the first one ended).
        #expect(second.map { $0 >= 3 - 1e-9 && $0 < 3 + 1.5 / 60 } == true, "\(second ?? -1)")
    }

    /// A go that adds an animation of an effect (shadowRadius) again refreshes the presentation
    /// copy whole, while the renderer's record of the last frame holds the copy's effects box: the
    /// animation then wrote a new box at every go. The copy's spare box takes that turn instead,
    /// so over many goes the copy uses two boxes.
    @Test func goesThatAnimateAnEffectTakeTurnsWithTwoBoxes() throws {
        freshRuntime()
        let (root, layer) = committedPair()
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        layer.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        layer.position = Point(x: 20, y: 20)
        layer.backgroundColor = .white
        layer.shadowOpacity = 0.6
        LayerClock.advance(to: LayerClock.currentTime)
        let renderer = LayerRenderer(), bitmap = try Bitmap(width: 40, height: 40)
        var boxes = Set<ObjectIdentifier>()
        for _ in 0..<6 {
            let pulse = BasicAnimation(keyPath: "shadowRadius")
            pulse.fromValue = 4.0
            pulse.toValue = 14.0
            pulse.duration = 2
            pulse.repeatCount = .infinity
            layer.add(pulse, forKey: "pulse")
            var t = LayerClock.currentTime
            for _ in 0..<20 {
                t += 1.0 / 60
                LayerClock.advance(to: t)
                _ = renderer.render(root, at: t, into: bitmap)
                if let copy = layer.presentationCopy { boxes.insert(ObjectIdentifier(copy.state.effectsBox)) }
            }
        }
        #expect(boxes.count <= 2, "the presentation copy used \(boxes.count) effects boxes over six goes")
    }
}
}

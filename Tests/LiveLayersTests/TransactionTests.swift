import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
@MainActor
@Suite struct TransactionTests {
    init() { freshRuntime() }

    @Test func completionRunsWhenTheLastAnimationFinishes() {
        freshRuntime()
        let (_, arrow) = committedPair()
        var doneAt: Double?
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.completionBlock = { doneAt = LayerClock.currentTime }
        arrow.opacity = 0.5                                   // implicit, 2 s
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = Double.pi
        spin.duration = 3
        arrow.add(spin, forKey: "spin")
        Transaction.commit()
        for frame in 1...240 {
            LayerClock.advance(to: Double(frame) / 60)
            if frame < 180 { #expect(doneAt == nil, "frame \(frame)") }
        }
        #expect(doneAt == 3)
    }

    @Test func completionRunsImmediatelyWithoutAnimations() {
        freshRuntime()
        var ran = false
        Transaction.begin()
        Transaction.completionBlock = { ran = true }
        Transaction.commit()
        #expect(ran)
    }

    @Test func completionCountsRemovedAnimations() {
        freshRuntime()
        let layer = Layer()
        var ran = false
        Transaction.perform(changes: {
            let a = BasicAnimation(keyPath: "opacity")
            a.toValue = 0.0
            a.duration = 10
            layer.add(a, forKey: "a")
        }, completion: { ran = true })
        LayerClock.advance(to: 1)
        #expect(!ran)
        layer.removeAnimation(forKey: "a")
        LayerClock.advance(to: 1.1)
        #expect(ran)
    }

    @Test func nestedTransactionsInheritAndRestore() {
        freshRuntime()
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.begin()
        #expect(Transaction.animationDuration == 2)
        Transaction.animationDuration = 5
        Transaction.disableActions = true
        #expect(Transaction.animationDuration == 5)
        Transaction.commit()
        #expect(Transaction.animationDuration == 2)
        #expect(!Transaction.disableActions)
        Transaction.commit()
        #expect(Transaction.animationDuration == 0.25)
    }

    @Test func outerCompletionWaitsForNestedAnimations() {
        freshRuntime()
        let layer = Layer()
        var outer = false, inner = false
        Transaction.begin()
        Transaction.completionBlock = { outer = true }
        Transaction.begin()
        Transaction.completionBlock = { inner = true }
        let a = BasicAnimation(keyPath: "opacity")
        a.toValue = 0.0
        a.duration = 1
        layer.add(a, forKey: "a")
        Transaction.commit()
        Transaction.commit()
        LayerClock.advance(to: 0.5)
        #expect(!outer && !inner)
        LayerClock.advance(to: 1)
        #expect(outer && inner)
    }

    @Test func implicitAnimationForNonRootLayers() throws {
        freshRuntime()
        let (root, child) = committedPair()
        child.position = Point(x: 100, y: 0)
        root.position = Point(x: 100, y: 0)
        #expect(child.animation(forKey: "position") is BasicAnimation)
        #expect(root.animationKeys().isEmpty)                  // root layers do not animate implicitly
        let implicit = try #require(child.animation(forKey: "position") as? BasicAnimation)
        #expect(implicit.duration == 0.25)
        #expect(implicit.timingFunction == .default)
        LayerClock.advance(to: 0.125)
        let x = try #require(child.presentation()).position.x
        #expect(x > 50 && x < 100)                             // default curve is ahead of linear at 0.5
        #expect(close(x, 100 * TimingFunction.default.progress(at: 0.5)))
        LayerClock.advance(to: 0.25)
        #expect(child.presentation() == nil)                    // finished and removed
        #expect(child.presentationValue(forKeyPath: "position.x") as? Double == 100)
    }

    @Test func implicitAnimationStartsFromTheShownValue() throws {
        freshRuntime()
        let (_, child) = committedPair()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        child.opacity = 0
        LayerClock.advance(to: 0.5)
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        child.opacity = 1                                      // interrupt at 0.5 shown
        LayerClock.advance(to: 0.5)
        #expect(close(try #require(child.presentation()).opacity, 0.5))
        LayerClock.advance(to: 1.0)
        #expect(close(try #require(child.presentation()).opacity, 0.75))
    }

    @Test func disableActionsAndNullActionTurnOffImplicitAnimation() {
        freshRuntime()
        let (_, child) = committedPair()
        Transaction.begin()
        Transaction.disableActions = true
        child.opacity = 0.2
        Transaction.commit()
        #expect(child.animationKeys().isEmpty)
        child.actions["position"] = .null
        child.position = Point(x: 5, y: 5)
        #expect(child.animationKeys().isEmpty)
        child.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(child.animationKeys() == ["bounds"])
    }

    @Test func customActionsPerKey() throws {
        freshRuntime()
        let (_, child) = committedPair()
        let slow = BasicAnimation()
        slow.duration = 4
        child.actions["opacity"] = slow
        child.opacity = 0
        let added = try #require(child.animation(forKey: "opacity") as? BasicAnimation)
        #expect(added.keyPath == "opacity")
        #expect(added.duration == 4)
        #expect(added.fromValue as? Double == 1)

        final class Delegate: LayerDelegate {
            func action(for layer: Layer, forKey key: String) -> (any Action)? { key == "cornerRadius" ? NullAction() : nil }
        }
        let delegate = Delegate()
        child.delegate = delegate
        child.cornerRadius = 4
        #expect(child.animation(forKey: "cornerRadius") == nil)
    }

    @Test func animationsAddedInACompletionBlockBeginAtThatFrame() throws {
        freshRuntime()
        let (_, child) = committedPair()
        Transaction.perform(duration: 1, changes: { child.opacity = 0 }, completion: {
            let back = BasicAnimation(keyPath: "opacity")
            back.fromValue = 0.0
            back.toValue = 1.0
            back.duration = 1
            child.add(back, forKey: "back")
        })
        LayerClock.advance(to: 1)
        #expect(child.animation(forKey: "back")?.beginTime == 1)
        LayerClock.advance(to: 1.5)
        #expect(close(try #require(child.presentation()).opacity, 0.5))
    }
}
}

import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
@MainActor
@Suite struct ModelPresentationTests {
    init() { freshRuntime() }

    @Test func presentationExistsOnlyWhileAnAnimationIsAttached() {
        freshRuntime()
        let layer = Layer()
        #expect(layer.presentation() == nil)                 // never committed
        LayerClock.advance(to: 0.016)
        #expect(layer.presentation() == nil)                 // committed, nothing animating: the seed's observation
        let fade = BasicAnimation(keyPath: "opacity")
        fade.toValue = 0.0
        fade.duration = 1
        layer.add(fade, forKey: "fade")
        #expect(layer.presentation() == nil)                 // not committed yet
        LayerClock.advance(to: 0.5)
        let shown = layer.presentation()
        #expect(shown != nil)
        #expect(shown !== layer)
        #expect(shown?.model() === layer)
        #expect(shown?.presentation() === shown)
        #expect(layer.model() === layer)
        LayerClock.advance(to: 2)
        #expect(layer.presentation() == nil)                 // removed on completion
    }

    @Test func modelStaysWhilePresentationAnimates() throws {
        freshRuntime()
        let layer = Layer()
        layer.position = Point(x: 10, y: 10)
        let move = BasicAnimation(keyPath: "position")
        move.fromValue = Point(x: 0, y: 0)
        move.toValue = Point(x: 100, y: 50)
        move.duration = 2
        layer.add(move, forKey: "move")
        LayerClock.advance(to: 1)
        #expect(layer.position == Point(x: 10, y: 10))
        #expect(try #require(layer.presentation()).position == Point(x: 50, y: 25))
        LayerClock.advance(to: 2.5)
        // Removed on completion: the presentation snaps back to the model (the classic snap-back).
        #expect(layer.animation(forKey: "move") == nil)
        #expect(layer.presentation() == nil)
        #expect(layer.presentationValue(forKeyPath: "position") as? Point == Point(x: 10, y: 10))
    }

    /// A refresh starts from the model, whatever the last frame's copy held: values written into
    /// the copy and the model's own changes show up at the next frame as in Core Animation, the
    /// animated fields hold the animations' values (refreshes that set back only the animated
    /// fields must not keep anything else).
    @Test func eachRefreshStartsFromTheModel() throws {
        freshRuntime()
        let layer = Layer()
        layer.position = Point(x: 10, y: 10)
        layer.cornerRadius = 2
        let move = BasicAnimation(keyPath: "position")
        move.byValue = Point(x: 100, y: 0)
        move.duration = 1
        move.repeatCount = .infinity
        layer.add(move, forKey: "move")
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        fade.repeatCount = .infinity
        layer.add(fade, forKey: "fade")
        LayerClock.advance(to: 0.25)
        var copy = try #require(layer.presentation())
        #expect(close(copy.position, Point(x: 35, y: 10)))
        // Written into the copy: gone at the next frame, animated or not.
        copy.cornerRadius = 9
        copy.position = Point(x: -1, y: -1)
        copy.transform = Transform(scaleX: 3, y: 3)
        LayerClock.advance(to: 0.5)
        copy = try #require(layer.presentation())
        #expect(copy.cornerRadius == 2)
        #expect(copy.transform == .identity)
        #expect(close(copy.position, Point(x: 60, y: 10)))
        #expect(close(copy.opacity, 0.5))
        // Written into the copy by key path: gone too.
        _ = copy.setValue(7.0, forKeyPath: "borderWidth")
        LayerClock.advance(to: 0.6)
        copy = try #require(layer.presentation())
        #expect(copy.borderWidth == 0)
        // The model's changes, animated properties included (additive base), at the next frame.
        Transaction.begin()
        Transaction.disableActions = true
        layer.cornerRadius = 4
        layer.position = Point(x: 20, y: 0)
        Transaction.commit()
        LayerClock.advance(to: 0.75)
        copy = try #require(layer.presentation())
        #expect(copy.cornerRadius == 4)
        #expect(close(copy.position, Point(x: 95, y: 0)))
        LayerClock.advance(to: 0.8)
        copy = try #require(layer.presentation())
        #expect(copy.cornerRadius == 4)
        #expect(close(copy.position, Point(x: 100, y: 0)))
        #expect(close(copy.opacity, 0.2))
    }

    /// The Chinese seed's three observations: A before the delayed begin, B during, C after,
    /// for every fill mode with and without removal on completion.
    @Test(arguments: [FillMode.removed, .forwards, .backwards, .both], [true, false])
    func fillModeRemovalAndDelay(fill: FillMode, removed: Bool) throws {
        freshRuntime()
        freshRuntime()
        let layer = Layer()
        layer.opacity = 0.1
        LayerClock.advance(to: 0)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.4
        fade.toValue = 0.8
        fade.duration = 2
        fade.beginTime = LayerClock.currentTime + 1
        fade.fillMode = fill
        fade.isRemovedOnCompletion = removed
        layer.add(fade, forKey: "fade")

        LayerClock.advance(to: 0.5)                       // A: waiting for the delayed begin
        let a = try #require(layer.presentation()).opacity
        #expect(a == (fill == .backwards || fill == .both ? 0.4 : 0.1))

        LayerClock.advance(to: 2)                         // B: half-way
        #expect(close(try #require(layer.presentation()).opacity, 0.6))

        LayerClock.advance(to: 4)                         // C: after the end
        #expect((layer.presentation() == nil) == removed)
        let c = layer.presentation()?.opacity ?? layer.opacity
        let holds = !removed && (fill == .forwards || fill == .both)
        #expect(c == (holds ? 0.8 : 0.1))
        #expect(layer.opacity == 0.1)
        #expect((layer.animation(forKey: "fade") != nil) == !removed)
    }

    @Test func beginTimeZeroBecomesTheCommitTime() throws {
        freshRuntime()
        freshRuntime(at: 5)
        let layer = Layer()
        let anim = BasicAnimation(keyPath: "opacity")
        anim.fromValue = 0.0
        anim.toValue = 1.0
        anim.duration = 1
        layer.add(anim, forKey: "a")
        #expect(layer.animation(forKey: "a")?.beginTime == 0)
        LayerClock.advance(to: 5.25)
        #expect(layer.animation(forKey: "a")?.beginTime == 5)
        #expect(close(try #require(layer.presentation()).opacity, 0.25))
    }

    @Test func nonPositiveDurationTakesTheTransactionDuration() {
        freshRuntime()
        let layer = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        layer.add(a, forKey: "default")
        #expect(layer.animation(forKey: "default")?.duration == 0.25)
        Transaction.begin()
        Transaction.animationDuration = 3
        layer.add(a, forKey: "scoped")
        Transaction.commit()
        #expect(layer.animation(forKey: "scoped")?.duration == 3)
    }

    @Test func addingCopiesTheAnimation() {
        freshRuntime()
        let layer = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        a.duration = 1
        layer.add(a, forKey: "a")
        a.duration = 9
        #expect(layer.animation(forKey: "a")?.duration == 1)
        #expect(layer.animation(forKey: "a") !== a)
    }

    @Test func sameKeyReplacesAndStopsTheOldAnimation() throws {
        freshRuntime()
        let layer = Layer()
        var stops: [(String, Bool)] = []
        let first = BasicAnimation(keyPath: "position.x")
        first.fromValue = 0.0
        first.toValue = 100.0
        first.duration = 1
        first.didStop = { _, finished in stops.append(("first", finished)) }
        layer.add(first, forKey: "x")
        LayerClock.advance(to: 0.5)
        let second = BasicAnimation(keyPath: "position.x")
        second.fromValue = 500.0
        second.toValue = 600.0
        second.duration = 1
        second.didStop = { _, finished in stops.append(("second", finished)) }
        layer.add(second, forKey: "x")
        #expect(layer.animationKeys() == ["x"])
        LayerClock.advance(to: 1.0)
        #expect(stops.count == 1 && stops[0] == ("first", false))
        #expect(close(try #require(layer.presentation()).position.x, 550))
        LayerClock.advance(to: 1.5)
        #expect(stops.count == 2 && stops[1] == ("second", true))
    }

    @Test func startAndStopCallbacksFireAtTheirMediaTimes() {
        freshRuntime()
        final class Recorder: AnimationDelegate {
            var log: [String] = []
            func animationDidStart(_ animation: Animation) { log.append("start \(LayerClock.currentTime)") }
            func animationDidStop(_ animation: Animation, finished: Bool) { log.append("stop \(finished) \(LayerClock.currentTime)") }
        }
        let recorder = Recorder()
        let layer = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        a.toValue = 0.0
        a.duration = 1
        a.beginTime = 2
        a.delegate = recorder
        layer.add(a, forKey: "a")
        for t in stride(from: 0.0, through: 4.0, by: 0.5) { LayerClock.advance(to: t) }
        #expect(recorder.log == ["start 2.0", "stop true 3.0"])
    }

    @Test func removingStopsUnfinished() {
        freshRuntime()
        let layer = Layer()
        var result: Bool?
        let a = BasicAnimation(keyPath: "opacity")
        a.toValue = 0.0
        a.duration = 1
        a.didStop = { _, finished in result = finished }
        layer.add(a, forKey: "a")
        LayerClock.advance(to: 0.5)
        layer.removeAllAnimations()
        LayerClock.advance(to: 0.6)
        #expect(result == false)
        #expect(layer.animationKeys().isEmpty)
    }

    @Test func presentationTreeMirrorsTheModelTree() throws {
        freshRuntime()
        let root = Layer(), child = Layer(), still = Layer(), mask = Layer()
        root.addSublayer(child)
        root.addSublayer(still)
        root.mask = mask
        for layer in [root, child] {
            let a = BasicAnimation(keyPath: "opacity")
            a.toValue = 0.5
            a.duration = 10
            layer.add(a, forKey: "a")
        }
        LayerClock.advance(to: 0.1)
        let shown = try #require(root.presentation())
        #expect(shown.sublayers.count == 2)
        #expect(shown.sublayers[0] === child.presentation())
        #expect(shown.sublayers[1].model() === still)         // unanimated: a copy equal to the model
        #expect(still.presentation() == nil)
        #expect(shown.mask?.model() === mask)
        #expect(child.presentation()?.superlayer === shown)
    }

    @Test func layerTimingPausesAnimations() throws {
        freshRuntime()
        let layer = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0
        a.toValue = 1.0
        a.duration = 1
        layer.add(a, forKey: "a")
        LayerClock.advance(to: 0.4)
        // QA1673's pause: speed 0 with the time offset at the current layer time.
        let paused = layer.convertTime(LayerClock.currentTime, from: nil)
        layer.speed = 0
        layer.timeOffset = paused
        LayerClock.advance(to: 3)
        #expect(close(try #require(layer.presentation()).opacity, 0.4))
        #expect(LayerClock.nextFrameTime == .infinity)
    }

    /// Scrubbing a paused ancestor (Lottie's root) changes its descendants' presentation even
    /// when media time stands still, as a new time offset in Core Animation does.
    @Test func scrubbingAPausedAncestorUpdatesDescendantsAtTheSameMediaTime() throws {
        freshRuntime()
        let root = Layer()
        root.speed = 0
        let child = Layer()
        root.addSublayer(child)
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0
        a.toValue = 1.0
        a.duration = 1
        a.beginTime = 1e-100
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        child.add(a, forKey: "a")
        root.timeOffset = 0.25
        LayerClock.advance(to: 1)
        #expect(close(try #require(child.presentation()).opacity, 0.25))
        root.timeOffset = 0.75
        #expect(close(try #require(child.presentation()).opacity, 0.75))
    }

    @Test func idleWhenNothingAnimates() {
        freshRuntime()
        let layer = Layer()
        LayerClock.advance(to: 1)
        #expect(LayerClock.nextFrameTime == .infinity)
        let a = BasicAnimation(keyPath: "opacity")
        a.toValue = 0.0
        a.duration = 1
        a.beginTime = 5
        layer.add(a, forKey: "a")
        #expect(LayerClock.nextFrameTime == 1)        // waiting to commit
        LayerClock.advance(to: 2)
        #expect(LayerClock.nextFrameTime == 5)        // delayed begin
        LayerClock.advance(to: 5.5)
        #expect(LayerClock.nextFrameTime == 5.5)
        LayerClock.advance(to: 7)
        #expect(LayerClock.nextFrameTime == .infinity)
    }
}
}

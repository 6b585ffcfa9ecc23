import Testing
@testable import LiveLayers
import Raster
#if canImport(Glibc)
import Glibc
#endif

extension RuntimeSuites {
@MainActor
@Suite struct KeyframeAnimationTests {
    init() { freshRuntime() }

    func shown(_ animation: KeyframeAnimation, at times: [Double], model: Layer = Layer()) -> [Layer] {
        animation.duration = 1
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        model.add(animation, forKey: "k")
        return times.map { t in
            LayerClock.advance(to: t)
            let copy = Layer()
            copy.state = model.presentation()!.state
            return copy
        }
    }

    @Test func linearWithKeyTimesAndSegmentFunctions() {
        freshRuntime()
        let k = KeyframeAnimation(keyPath: "opacity")
        k.values = [0.0, 1.0, 0.5]
        k.keyTimes = [0, 0.25, 1]
        k.timingFunctions = [.linear, .easeIn]
        let o = shown(k, at: [0.125, 0.25, 0.625, 1]).map(\.opacity)
        #expect(close(o[0], 0.5))
        #expect(close(o[1], 1))
        #expect(close(o[2], 1 - 0.5 * TimingFunction.easeIn.progress(at: 0.5)))
        #expect(close(o[3], 0.5))
    }

    /// A segment's timing function may overshoot past its keys (back-out easing, as Lottie's
    /// curves often do): the value follows it beyond the key, and a key itself shows exactly.
    @Test func overshootingTimingFunctionsGoPastTheKey() {
        freshRuntime()
        let k = KeyframeAnimation(keyPath: "position.x")
        k.values = [0.0, 100.0, 100.0]
        k.keyTimes = [0, 0.5, 1]
        let overshoot = TimingFunction(controlPoints: 0.3, 1.8, 0.6, 1.6)
        k.timingFunctions = [overshoot, .linear]
        let x = shown(k, at: [0.3, 0.5, 0.75]).map(\.position.x)
        #expect(close(x[0], 100 * overshoot.progress(at: 0.6)) && x[0] > 100, "\(x[0])")
        #expect(x[1] == 100 && x[2] == 100)
    }

    @Test func discreteHoldsEachValue() {
        freshRuntime()
        let k = KeyframeAnimation(keyPath: "opacity")
        k.values = [0.1, 0.2, 0.3]
        k.keyTimes = [0, 0.5, 0.75, 1]
        k.calculationMode = .discrete
        let o = shown(k, at: [0.1, 0.49, 0.5, 0.8, 1]).map(\.opacity)
        #expect(o == [0.1, 0.1, 0.2, 0.3, 0.3])
    }

    @Test func pacedSpreadsTimeByDistance() {
        freshRuntime()
        let k = KeyframeAnimation(keyPath: "position")
        k.values = [Point(x: 0, y: 0), Point(x: 30, y: 0), Point(x: 40, y: 0)]
        k.keyTimes = [0, 0.9, 1]                          // ignored when paced
        k.calculationMode = .paced
        let x = shown(k, at: [0.25, 0.5, 0.75, 0.9]).map(\.position.x)
        #expect(x.enumerated().allSatisfy { close($1, [10, 20, 30, 36][$0]) })
    }

    @Test func cubicPassesThroughEveryValueSmoothly() {
        freshRuntime()
        let k = KeyframeAnimation(keyPath: "position.y")
        k.values = [0.0, 10.0, 0.0, 10.0]
        k.calculationMode = .cubic
        let y = shown(k, at: [0, 1.0 / 3, 2.0 / 3, 1, 1.0 / 6]).map(\.position.y)
        #expect(close(y[0], 0) && close(y[1], 10) && close(y[2], 0) && close(y[3], 10))
        #expect(y[4] > 5)                                 // a spline bulges where a line would not
    }

    /// The Korean seed's arrow going round a circle: with rotationMode auto the layer faces the
    /// direction of travel, angle + π/2 for increasing angles, angle − π/2 for decreasing ones.
    @Test(arguments: [false, true])
    func rotationModeFollowsAnArc(clockwiseInCGTerms: Bool) {
        freshRuntime()
        let center = Point(x: 100, y: 100), r = 50.0
        var arc = Path()
        arc.addArc(center: center, radius: r, startAngle: 0, endAngle: clockwiseInCGTerms ? -.pi : .pi,
                   clockwise: clockwiseInCGTerms)
        let k = KeyframeAnimation(keyPath: "position")
        k.path = arc
        k.calculationMode = .paced
        k.rotationMode = .auto
        let times = stride(from: 0.05, through: 0.95, by: 0.1).map { $0 }
        let layers = shown(k, at: times)
        for (t, layer) in zip(times, layers) {
            let phi = (clockwiseInCGTerms ? -1.0 : 1.0) * .pi * t
            #expect(close(layer.position, Point(x: center.x + r * cos(phi), y: center.y + r * sin(phi)), 0.05), "t = \(t)")
            let expected = phi + (clockwiseInCGTerms ? -Double.pi / 2 : Double.pi / 2)
            let angle = atan2(layer.transform.b, layer.transform.a)
            #expect(abs(remainder(angle - expected, 2 * .pi)) < 0.01, "t = \(t): \(angle) vs \(expected)")
        }
    }

    @Test func autoReverseAddsAHalfTurnAndComposesWithTheTransform() {
        freshRuntime()
        var line = Path()
        line.move(to: Point(x: 0, y: 0))
        line.addLine(to: Point(x: 100, y: 0))
        let model = Layer()
        model.transform = Transform(scaleX: 2, y: 2)
        let k = KeyframeAnimation(keyPath: "position")
        k.path = line
        k.rotationMode = .autoReverse
        let layer = shown(k, at: [0.5], model: model)[0]
        let expected = Transform(rotationAngle: .pi).concatenating(Transform(scaleX: 2, y: 2))
        #expect(close(layer.transform.a, expected.a) && close(layer.transform.d, expected.d))
        #expect(close(layer.position, Point(x: 50, y: 0)))
    }

    @Test func groupRunsChildrenOnItsTimeline() throws {
        freshRuntime()
        let layer = Layer()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.beginTime = 1
        move.duration = 1
        let group = AnimationGroup([fade, move])
        group.duration = 2
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        layer.add(group, forKey: "g")
        LayerClock.advance(to: 0.5)
        var shown = try #require(layer.presentation())
        #expect(close(shown.opacity, 0.25) && shown.position.x == 0)
        LayerClock.advance(to: 1.5)
        shown = try #require(layer.presentation())
        #expect(close(shown.opacity, 0.75) && close(shown.position.x, 50))
        LayerClock.advance(to: 5)
        shown = try #require(layer.presentation())
        #expect(close(shown.opacity, 1) && close(shown.position.x, 100))
    }
}
}

extension RuntimeSuites.KeyframeAnimationTests {
    @Test func cubicPacedSpacesKeyframesByDistance() {
        freshRuntime()
        let k = KeyframeAnimation(keyPath: "position.x")
        k.values = [0.0, 30.0, 40.0]
        k.calculationMode = .cubicPaced
        let x = shown(k, at: [0.75, 1]).map(\.position.x)
        #expect(close(x[0], 30) && close(x[1], 40))           // the middle keyframe at 30/40 of the time
    }
}

extension RuntimeSuites.ModelPresentationTests {
    @Test func theClockNeverGoesBackwards() {
        freshRuntime(at: 2)
        LayerClock.advance(to: 1)
        #expect(LayerClock.currentTime == 2)
        LayerClock.advance(to: .nan)
        #expect(LayerClock.currentTime == 2)
        LayerClock.advance(to: 3)
        #expect(LayerClock.currentTime == 3)
    }
}

/// A list value whose storage counts how often it is made, to see whether an animation writes
/// its frames into kept storage or builds a new value each frame.
struct CountedList: Interpolatable {
    final class Storage: @unchecked Sendable {
        nonisolated(unsafe) static var made = 0
        var values: [Double]
        init(_ values: [Double]) {
            self.values = values
            Storage.made += 1
        }
    }
    var storage: Storage

    init(_ values: [Double]) { storage = Storage(values) }

    static func == (a: CountedList, b: CountedList) -> Bool { a.storage.values == b.storage.values }

    func interpolated(to other: CountedList, at f: Double) -> CountedList {
        CountedList(zip(storage.values, other.storage.values).map { $0 + ($1 - $0) * f })
    }
    func interpolate(to other: CountedList, at f: Double, into result: inout CountedList) {
        guard isKnownUniquelyReferenced(&result.storage), result.storage.values.count == storage.values.count else {
            result = interpolated(to: other, at: f)
            return
        }
        for i in storage.values.indices { result.storage.values[i] = storage.values[i] + (other.storage.values[i] - storage.values[i]) * f }
    }
    func adding(_ other: CountedList) -> CountedList { CountedList(zip(storage.values, other.storage.values).map(+)) }
    func subtracting(_ other: CountedList) -> CountedList { CountedList(zip(storage.values, other.storage.values).map(-)) }
    func distance(to other: CountedList) -> Double { zip(storage.values, other.storage.values).map { abs($1 - $0) }.reduce(0, +) }
}

final class CountedListLayer: Layer {
    @LayerProperty var list = CountedList([0, 0, 0])
}

extension RuntimeSuites {
@MainActor
@Suite struct KeyframeStorageTests {
    /// Between keys, a keyframe animation of a value with storage (Lottie's sampled paths,
    /// gradient colours) writes each frame into the storage of the frame before, so playing
    /// allocates nothing once warm; the values are the ones interpolated afresh.
    @Test func framesBetweenKeysReuseTheLastFramesStorage() throws {
        freshRuntime()
        let root = Layer()
        keptRoots.append(root)
        let layer = CountedListLayer()
        root.addSublayer(layer)
        let keys = (0..<5).map { k in CountedList([Double(k), Double(k * k), -Double(k)]) }
        let animation = KeyframeAnimation(keyPath: "list")
        animation.values = keys
        animation.duration = 4
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "list")
        let bitmap = try Bitmap(width: 8, height: 8)
        let renderer = LayerRenderer()
        var madeAfterFirstFrame = 0
        for frame in 0..<12 {
            let t = 0.15 + Double(frame) * 0.31          // never on a key
            LayerClock.advance(to: t)
            renderer.render(root, at: t, into: bitmap)
            let shown = try #require(layer.presentation()).list.storage.values
            let i = Int(t), u = t - Double(i)
            let expected = keys[i].interpolated(to: keys[i + 1], at: u).storage.values
            #expect(zip(shown, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "frame \(frame): \(shown) vs \(expected)")
            if frame == 0 { madeAfterFirstFrame = CountedList.Storage.made }
        }
        // The expected values above make one list a frame; the animation makes none after the first.
        #expect(CountedList.Storage.made - madeAfterFirstFrame == 11)
    }
}
}

import Testing
@testable import LiveLayers
import Raster

extension RuntimeSuites {
/// Basic animations held inline in a layer's slots give the values their evaluator objects
/// give, to the bit, for every way of setting the end points and every option.
@MainActor
@Suite struct AnimationSlotTests {
    init() { freshRuntime() }

    /// The presentation value of `keyPath` through the slots, and through the records'
    /// evaluators applied to a fresh copy, at each of `times`.
    private func compare(_ keyPath: String, on layer: Layer, times: [Double]) {
        for t in times {
            LayerClock.advance(to: t)
            let viaSlots = layer.presentationValue(forKeyPath: keyPath)
            let copy = layer.makeInstanceCopy()
            copy.state.assign(from: layer.state)
            let local = layer.localTime(fromMediaTime: t)
            for record in layer.attachedAnimations where record.isCommitted {
                record.effect?.apply(to: copy, parentTime: local)
            }
            let viaEffects = copy.value(forKeyPath: keyPath)
            #expect(String(describing: viaSlots) == String(describing: viaEffects), "\(keyPath) at \(t)")
        }
    }

    @Test func inlineSlotsMatchTheEvaluators() {
        let times = [0.0, 0.1, 0.37, 0.5, 0.99, 1.0, 1.5, 2.25, 3.7]
        let cases: [(String, any Interpolatable, any Interpolatable, any Interpolatable)] = [
            ("opacity", 0.2, 0.9, 0.3),
            ("position", Point(x: 3, y: 4), Point(x: 40, y: -7), Point(x: 10, y: 20)),
            ("position.x", 3.0, 40.0, 5.0),
            ("position.y", -2.0, 8.0, 1.5),
            ("bounds", Rect(x: 0, y: 0, width: 10, height: 20), Rect(x: 5, y: 6, width: 30, height: 7), Rect(x: 1, y: 1, width: 2, height: 2)),
            ("bounds.origin", Point(x: 1, y: 2), Point(x: 9, y: 9), Point(x: -1, y: 3)),
            ("bounds.size", Size(width: 1, height: 2), Size(width: 9, height: 9), Size(width: 4, height: 1)),
            ("anchorPoint", Point(x: 0, y: 0), Point(x: 1, y: 0.5), Point(x: 0.25, y: 0.25)),
            ("cornerRadius", 0.0, 12.0, 3.0),
            ("borderWidth", 1.0, 4.0, 0.5),
            ("borderColor", Color(red: 1, green: 0, blue: 0, alpha: 0.5), Color(red: 0, green: 0.5, blue: 1), Color(white: 0.1, alpha: 0.1)),
        ]
        // Every pairing of end points (nil means unset), each plain, additive, cumulative,
        // with and without a named curve, repeating with autoreverse or filling forwards.
        let pairings: [(Bool, Bool, Bool)] = [
            (true, true, false), (true, false, true), (false, true, true), (true, false, false),
            (false, true, false), (false, false, true), (false, false, false), (true, true, true),
        ]
        var checked = 0
        for (key, from, to, by) in cases {
            for (useFrom, useTo, useBy) in pairings {
                for variant in 0..<4 {
                    freshRuntime()
                    let layer = Layer()
                    layer.bounds = Rect(x: 0, y: 0, width: 16, height: 16)
                    layer.position = Point(x: 7, y: 9)
                    layer.opacity = 0.8
                    layer.borderColor = Color(red: 0.2, green: 0.3, blue: 0.4)
                    let animation = BasicAnimation(keyPath: key)
                    animation.fromValue = useFrom ? from : nil
                    animation.toValue = useTo ? to : nil
                    animation.byValue = useBy ? by : nil
                    animation.duration = 0.8
                    animation.isAdditive = variant == 1
                    animation.isCumulative = variant == 2
                    animation.timingFunction = variant == 3 ? .easeInEaseOut : (variant == 2 ? .default : nil)
                    if variant % 2 == 0 {
                        animation.repeatCount = 2.5
                        animation.autoreverses = variant == 0
                    } else {
                        animation.fillMode = .forwards
                        animation.isRemovedOnCompletion = false
                    }
                    // A second animation of the same key after it reads the first one's value.
                    let second = BasicAnimation(keyPath: key)
                    second.byValue = by
                    second.isAdditive = true
                    second.duration = 1.3
                    layer.add(animation, forKey: "a")
                    layer.add(second, forKey: "b")
                    LayerClock.advance(to: 0)
                    #expect(layer.animationSlots.count == 2)
                    #expect(layer.animationSlots.allSatisfy { $0.record == nil }, "\(key) is held inline")
                    compare(key, on: layer, times: times)
                    checked += 1
                }
            }
        }
        #expect(checked == cases.count * pairings.count * 4)
    }

    @Test func otherAnimationsKeepTheirEvaluators() {
        let layer = Layer()
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = 3.0
        let curved = BasicAnimation(keyPath: "opacity")
        curved.toValue = 0.0
        curved.timingFunction = TimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.9)
        let spring = SpringAnimation(keyPath: "position")
        spring.toValue = Point(x: 50, y: 50)
        let inline = BasicAnimation(keyPath: "opacity")
        inline.toValue = 0.5
        for (i, animation) in [spin, curved, spring, inline].enumerated() {
            animation.duration = 1
            layer.add(animation, forKey: "\(i)")
        }
        LayerClock.advance(to: 0)
        #expect(layer.animationSlots.map { $0.record == nil } == [false, false, false, true])
        compare("opacity", on: layer, times: [0.2, 0.6])
        compare("position", on: layer, times: [0.7])
        compare("transform.rotation.z", on: layer, times: [0.9])
    }
}
}

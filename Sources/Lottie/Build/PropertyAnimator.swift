// PropertyAnimator: turns a Lottie property into a model value or a whole-duration keyframe animation.

import LiveLayers
import Raster

/// Adds the animations of one composition's layers, in that composition's timeline.
///
/// A keyframed property becomes one `KeyframeAnimation` spanning its first to its last keyframe
/// (filled both ways, so it holds its end values outside): key times at the keyframes, one
/// cubic timing function per segment from the Bézier easing, hold keyframes as a step (two
/// keys at one time) just before the next key time. Properties that one timing function per
/// segment cannot describe (per-dimension easing, curved motion paths) and computed values
/// (paths, combined transforms) are sampled once per frame, linearly in between.
@MainActor
struct PropertyAnimator {
    let timeline: Timeline
    let budget: WorkBudget

    /// The smallest begin time used for "at time zero": Core Animation reads 0 as "now".
    static let timeZero = 1e-100

    /// Sets `property` on `layer`: the model value when constant, otherwise an animation of `key`.
    func apply<V: KeyframeValue, Out: Interpolatable>(_ property: Animatable<V>, to layer: Layer, key: String,
                                                      set: (Out) -> Void, _ convert: @escaping (V) -> Out) throws(LottieError) {
        set(convert(property.initial))
        guard property.isAnimated else { return }
        if timeline.remap == nil, let animation = try exact(property, key: key, convert) {
            layer.add(animation, forKey: key)
            return
        }
        try sample(on: layer, key: key, span: property.span) { convert(property.value(at: $0)) }
    }

    /// Animates `key` with `value(frame)` sampled once per frame over `span` (local frames), or
    /// over the context's frames under time remapping. A `nil` span means constant.
    func sample<Out: Interpolatable>(on layer: Layer, key: String, span: ClosedRange<Double>?,
                                     _ value: (Double) throws(LottieError) -> Out) throws(LottieError) {
        guard let span else { return }
        let animation = KeyframeAnimation(keyPath: key)
        var values: [any Interpolatable] = []
        var times: [Double] = []
        let first: Double, last: Double
        if let remap = timeline.remap {
            first = timeline.contextRange.lowerBound.rounded(.down)
            last = max(first + 1, timeline.contextRange.upperBound.rounded(.up))
            let count = Int(last - first) + 1
            try budget.spend(count)
            values.reserveCapacity(count)
            for i in 0..<count {
                let frame = first + Double(i)
                values.append(try value(remap(frame)))
                times.append(Double(i) / Double(count - 1))
            }
        } else {
            first = span.lowerBound.rounded(.down)
            last = max(first + 1, span.upperBound.rounded(.up))
            let count = Int(last - first) + 1
            try budget.spend(count)
            values.reserveCapacity(count)
            for i in 0..<count {
                values.append(try value(first + Double(i)))
                times.append(Double(i) / Double(count - 1))
            }
        }
        animation.values = values
        animation.keyTimes = times
        configure(animation, from: first, to: last)
        layer.add(animation, forKey: key)
    }

    /// The keyframes as they are, when one timing function per segment describes them.
    private func exact<V: KeyframeValue, Out: Interpolatable>(_ property: Animatable<V>, key: String,
                                                              _ convert: (V) -> Out) throws(LottieError) -> KeyframeAnimation? {
        let k = property.keyframes
        for frame in k.dropLast() where !frame.hold && (!frame.hasUniformEasing || frame.hasSpatialTangents) { return nil }
        guard let first = k.first?.time, let last = k.last?.time, last > first else { return nil }
        try budget.spend(k.count * 3)
        let length = last - first
        // A hold steps this far (as a fraction of the animation) before the next key time, so
        // that a tick at the key time, early by float noise, shows the new value.
        let jump = min(1e-6, 0.01 / length)
        var values: [any Interpolatable] = []
        var times: [Double] = []
        var functions: [TimingFunction] = []
        values.reserveCapacity(k.count * 3)
        for i in k.indices {
            let t = (k[i].time - first) / length
            if i > 0 {
                let previous = k[i - 1]
                if previous.hold || previous.endValue != nil {
                    // Arrive at the held (or old-style end) value just before, then step: two
                    // keys at one time, which no tick lands between. A linear jump over the
                    // millionth showed a tick landing in it, near the key time, as float noise
                    // (an in point's opacity 1 - 1e-9, which made its layer a group that frame).
                    let arrival = previous.hold ? previous.value : previous.endValue!
                    let step = max(times.last ?? 0, t - jump)
                    times.append(step)
                    values.append(convert(arrival))
                    times.append(step)
                    values.append(convert(k[i].value))
                    functions.append(previous.hold ? .linear : previous.timingFunction(dimension: 0))
                    functions.append(.linear)
                    functions.append(.linear)
                } else {
                    functions.append(previous.timingFunction(dimension: 0))
                }
            }
            times.append(t)
            values.append(convert(k[i].value))
        }
        let animation = KeyframeAnimation(keyPath: key)
        animation.values = values
        animation.keyTimes = times
        animation.timingFunctions = functions
        configure(animation, from: first, to: last)
        return animation
    }

    /// Spans the animation over frames `first...last` of its layer's time and holds both ends.
    private func configure(_ animation: KeyframeAnimation, from first: Double, to last: Double) {
        let begin = first / timeline.frameRate
        animation.beginTime = begin == 0 ? Self.timeZero : begin
        animation.duration = (last - first) / timeline.frameRate
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
    }
}

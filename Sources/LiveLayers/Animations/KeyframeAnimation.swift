// KeyframeAnimation: an animation through a sequence of values or along a path (CAKeyframeAnimation).

import Raster

/// How a keyframe animation moves between its keyframes (`CAAnimationCalculationMode`).
public enum CalculationMode: Sendable, Hashable {
    /// Straight interpolation between consecutive keyframes (the default).
    case linear
    /// No interpolation: each value holds until the next key time. `keyTimes` needs one more
    /// entry than `values`.
    case discrete
    /// Constant speed: key times are derived from the distances between values;
    /// `keyTimes` and `timingFunctions` are ignored.
    case paced
    /// A smooth Catmull-Rom spline through the values (Kochanek–Bartels with zero tension,
    /// continuity and bias), parameterised by the key times.
    case cubic
    /// The cubic spline with key times derived from the distances between values, as `paced`
    /// (the distances are the straight ones between keyframes).
    case cubicPaced
}

/// Whether an object moving along a keyframe path turns to follow it (`CAAnimationRotationMode`).
public enum RotationMode: Sendable, Hashable {
    /// The layer is rotated to the path's tangent.
    case auto
    /// The layer is rotated to the path's tangent plus a half turn.
    case autoReverse
}

/// Animates a property through a sequence of keyframes, as `CAKeyframeAnimation`.
///
/// With ``path`` set (for a point property such as `"position"`), every element of the path
/// after a move is a keyframe and the value follows the curve itself. ``rotationMode`` then
/// turns the layer to the path's tangent: the rotation is applied in the layer's own space,
/// before (inside) its `transform`, i.e. the presentation transform becomes
/// `Transform(rotationAngle: tangentAngle).concatenating(transform)`.
public class KeyframeAnimation: PropertyAnimation {
    /// The keyframe values, all of the property's type.
    public var values: [any Interpolatable] = []
    /// A path for a point property; overrides ``values``.
    public var path: Path?
    /// The time of each keyframe as a fraction 0...1 of the duration, ascending; empty spaces
    /// the keyframes evenly.
    public var keyTimes: [Double] = []
    /// One timing function per segment between keyframes; empty means linear.
    public var timingFunctions: [TimingFunction] = []
    /// How values between keyframes are computed.
    public var calculationMode: CalculationMode = .linear
    /// Whether a layer moving along ``path`` turns to follow it; `nil` keeps its orientation.
    public var rotationMode: RotationMode?

    /// Creates a keyframe animation of `keyPath`.
    public override init(keyPath: String? = nil) {
        super.init(keyPath: keyPath)
    }

    required init(copying other: Animation) {
        super.init(copying: other)
    }

    override func takeSettings(of other: Animation) {
        super.takeSettings(of: other)
        if let other = other as? KeyframeAnimation {
            values = other.values
            if let source = other.path, path != nil {
                // A reused copy fills the path it has rather than sharing the source's: the
                // adder can then build its next path in its own storage, and so can this copy.
                path!.removeAll()
                for element in source.elements { path!.append(element) }
            } else {
                path = other.path
            }
            keyTimes = other.keyTimes
            timingFunctions = other.timingFunctions
            calculationMode = other.calculationMode
            rotationMode = other.rotationMode
        }
    }

    @MainActor
    override func makeEffect<Value: Interpolatable>(accessor: PropertyAccessor<Value>, layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect? {
        if let path {
            guard let pointAccessor = accessor as? PropertyAccessor<Point> else {
                Diagnostics.warn("a keyframe path animates a point property, but '\(accessor.key)' is a \(Value.self); the animation is ignored")
                return nil
            }
            let isPaced = calculationMode == .paced || calculationMode == .cubicPaced
            // A spare evaluator's track and schedule are rebuilt in the storage they have.
            if let effect = spare as? PathKeyframeEffect {
                let built = effect.rebuild { track, schedule in
                    guard track.rebuild(from: path) else { return false }
                    fill(&schedule, count: track.segmentCount + 1, distanceCount: track.segmentCount, distance: track.length(of:))
                    return true
                }
                guard built else { return nil }
                effect.refill(accessor: pointAccessor, timing: timingModel, timingFunction: timingFunction, isPaced: isPaced,
                              rotationMode: rotationMode)
                return effect
            }
            var track = PathTrack()
            guard track.rebuild(from: path) else { return nil }
            var schedule = KeyframeSchedule()
            fill(&schedule, count: track.segmentCount + 1, distanceCount: track.segmentCount, distance: track.length(of:))
            return PathKeyframeEffect(accessor: pointAccessor, timing: timingModel, timingFunction: timingFunction,
                                      track: track, schedule: schedule, isPaced: isPaced, rotationMode: rotationMode)
        }
        var typedValues: [Value] = []
        typedValues.reserveCapacity(values.count)
        for value in values {
            guard let v = typed(value, "a keyframe value", as: Value.self), let v else { return nil }
            typedValues.append(v)
        }
        guard !typedValues.isEmpty else { return nil }
        var distances: [Double] = []
        for i in typedValues.indices.dropFirst() { distances.append(typedValues[i - 1].distance(to: typedValues[i])) }
        var schedule = KeyframeSchedule()
        fill(&schedule, count: typedValues.count, distanceCount: distances.count, distance: { distances[$0] })
        return KeyframeEffect(accessor: accessor, timing: timingModel, timingFunction: timingFunction,
                              values: typedValues, schedule: schedule,
                              mode: calculationMode, isAdditive: isAdditive, isCumulative: isCumulative)
    }

    /// Sets `schedule` to the key times and per-segment timing functions for `count` keyframes,
    /// `distance(i)` apart (i < `distanceCount`), computing the times into the storage it has.
    private func fill(_ schedule: inout KeyframeSchedule, count: Int, distanceCount: Int, distance: (Int) -> Double) {
        let segments = max(1, count - 1)
        let isPaced = calculationMode == .paced || calculationMode == .cubicPaced
        func evenly(_ n: Int, _ time: (Int) -> Double) {
            schedule.times.removeAll(keepingCapacity: true)
            for i in 0..<n { schedule.times.append(time(i)) }
        }
        switch calculationMode {
        case .paced, .cubicPaced:
            var total = 0.0
            for i in 0..<distanceCount { total += distance(i) }
            schedule.times.removeAll(keepingCapacity: true)
            schedule.times.append(0)
            var run = 0.0
            for i in 0..<distanceCount {
                run += distance(i)
                schedule.times.append(total > 0 ? run / total : Double(schedule.times.count) / Double(segments))
            }
        case .discrete:
            // Discrete needs count + 1 times: value i holds over [times[i], times[i + 1]).
            if keyTimes.count == count + 1 { schedule.times = keyTimes } else { evenly(count + 1) { Double($0) / Double(count) } }
        case .linear, .cubic:
            if keyTimes.count == count { schedule.times = keyTimes } else { evenly(count) { count > 1 ? Double($0) / Double(count - 1) : 0 } }
        }
        if !keyTimes.isEmpty && schedule.times != keyTimes && !isPaced {
            Diagnostics.warn("keyTimes of '\(keyPath ?? "")' has \(keyTimes.count) entries for \(count) keyframes; spacing them evenly")
        }
        schedule.functions = isPaced || timingFunctions.isEmpty ? [] : timingFunctions
    }
}

/// Key times and timing functions of a keyframe animation.
struct KeyframeSchedule {
    var times: [Double] = []
    var functions: [TimingFunction] = []

    /// The segment containing fraction `p` and the eased fraction within it.
    func locate(_ p: Double) -> (segment: Int, u: Double) {
        let last = times.count - 2
        guard last >= 0 else { return (0, 1) }
        let i = segment(containing: p, upTo: last)
        let span = times[i + 1] - times[i]
        var u = span > 0 ? (p - times[i]) / span : 1
        u = min(1, max(0, u))
        if !functions.isEmpty { u = functions[min(i, functions.count - 1)].progress(at: u) }
        return (i, u)
    }

    /// The last key index in `0...last` whose time is at most `p` (0 when none is): a binary
    /// search, since sampled animations (Lottie's paths) have a key for every frame.
    func segment(containing p: Double, upTo last: Int) -> Int {
        var lo = 0, hi = last
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if p >= times[mid] { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

@MainActor
final class KeyframeEffect<Value: Interpolatable>: AnimationEffect {
    let accessor: PropertyAccessor<Value>
    let timing: TimingModel
    let timingFunction: TimingFunction?
    let values: [Value]
    let schedule: KeyframeSchedule
    let mode: CalculationMode
    let isAdditive: Bool
    let isCumulative: Bool
    /// The last value interpolated between keys, kept so that values with storage (Lottie's
    /// sampled paths, gradient colours and locations) are interpolated into the same storage
    /// each frame. The presentation copy's reference is replaced from the model before each
    /// evaluation, so this one is then unique.
    private var kept: Value?

    init(accessor: PropertyAccessor<Value>, timing: TimingModel, timingFunction: TimingFunction?, values: [Value],
         schedule: KeyframeSchedule, mode: CalculationMode, isAdditive: Bool, isCumulative: Bool) {
        self.accessor = accessor
        self.timing = timing
        self.timingFunction = timingFunction
        self.values = values
        self.schedule = schedule
        self.mode = mode
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
    }

    var keyPath: String { accessor.key }
    var timingModel: TimingModel { timing }

    func apply(to layer: Layer, parentTime t: Double) {
        guard let sample = timing.sample(parentTime: t) else { return }
        let p = timingFunction?.progress(at: sample.fraction) ?? sample.fraction
        var value = self.value(at: p)
        if isCumulative && sample.cycle > 0, let first = values.first, let last = values.last {
            value = value.adding(first.interpolated(to: last, at: sample.cycle).subtracting(first))
        }
        if isAdditive { value = accessor.get(layer).adding(value) }
        accessor.set(layer, value)
    }

    func value(at p: Double) -> Value {
        let n = values.count
        if n == 1 { return values[0] }
        if mode == .discrete {
            return values[schedule.segment(containing: p, upTo: n - 1)]
        }
        let (i, u) = schedule.locate(p)
        if mode == .cubic || mode == .cubicPaced { return catmullRom(segment: i, u: u) }
        // On a key (to within a billionth of its segment) the key's value is shown as it is:
        // sampled animations (Lottie's paths and gradients, a key a frame) then allocate nothing.
        // Eased progress may overshoot either end, so only values near the keys snap.
        if abs(u) <= 1e-9 { return values[i] }
        if abs(u - 1) <= 1e-9 { return values[i + 1] }
        guard var reused = kept else {
            let value = values[i].interpolated(to: values[i + 1], at: u)
            kept = value
            return value
        }
        kept = nil
        values[i].interpolate(to: values[i + 1], at: u, into: &reused)
        kept = reused
        return reused
    }

    /// Barry–Goldman's pyramid: a Catmull-Rom spline through the values, parameterised by the
    /// key times, using only interpolation (so it works for every `Interpolatable`). The end
    /// values are repeated beyond the ends, with knots extended by the neighbouring spacing.
    private func catmullRom(segment i: Int, u: Double) -> Value {
        let times = schedule.times, n = values.count
        let p0 = values[max(0, i - 1)], p1 = values[i], p2 = values[i + 1], p3 = values[min(n - 1, i + 2)]
        let t1 = times[i], t2 = times[i + 1]
        let t0 = i > 0 ? times[i - 1] : t1 - (t2 - t1)
        let t3 = i + 2 < n ? times[i + 2] : t2 + (t2 - t1)
        guard t2 > t1, t1 > t0, t3 > t2 else { return p1.interpolated(to: p2, at: u) }
        let t = t1 + u * (t2 - t1)
        func mix(_ a: Value, _ b: Value, _ ta: Double, _ tb: Double) -> Value {
            a.interpolated(to: b, at: (t - ta) / (tb - ta))
        }
        let a1 = mix(p0, p1, t0, t1), a2 = mix(p1, p2, t1, t2), a3 = mix(p2, p3, t2, t3)
        let b1 = mix(a1, a2, t0, t2), b2 = mix(a2, a3, t1, t3)
        return mix(b1, b2, t1, t2)
    }
}

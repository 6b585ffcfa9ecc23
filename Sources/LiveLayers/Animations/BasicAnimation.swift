// BasicAnimation: a single-keyframe animation between two values (CABasicAnimation).

import Raster

/// Interpolates one property between two values, as `CABasicAnimation`.
///
/// Set at most two of `fromValue`, `toValue` and `byValue`. The underlying value is the model
/// value (or the value left by the animations added before this one):
///
/// | set | interpolates |
/// |---|---|
/// | from + to | from → to |
/// | from + by | from → from + by |
/// | by + to | to − by → to |
/// | from | from → underlying |
/// | to | underlying → to |
/// | by | underlying → underlying + by |
/// | none | the presentation value when added → underlying (implicit animations) |
///
/// With all three set, `byValue` is ignored. Values must have the property's type, for
/// example `Double` for `"opacity"` and `"transform.rotation.z"`, ``Raster/Point`` for `"position"`.
public class BasicAnimation: PropertyAnimation {
    /// The start value.
    public var fromValue: (any Interpolatable)?
    /// The end value.
    public var toValue: (any Interpolatable)?
    /// The change relative to the start (or to the end, with `toValue`).
    public var byValue: (any Interpolatable)?

    /// Creates an animation of `keyPath`.
    public override init(keyPath: String? = nil) {
        super.init(keyPath: keyPath)
    }

    required init(copying other: Animation) {
        super.init(copying: other)
    }

    override func takeSettings(of other: Animation) {
        super.takeSettings(of: other)
        if let other = other as? BasicAnimation {
            fromValue = other.fromValue
            toValue = other.toValue
            byValue = other.byValue
        }
    }

    @MainActor
    override func prepareForAdding(to layer: Layer, previousValue: (any Interpolatable)?) {
        // "None set": animate from the value shown before the change to the new model value.
        if fromValue == nil && toValue == nil && byValue == nil, let keyPath {
            fromValue = previousValue ?? layer.presentationValue(forKeyPath: keyPath)
        }
    }

    @MainActor
    override func makeEffect<Value: Interpolatable>(accessor: PropertyAccessor<Value>, layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect? {
        guard let from = typed(fromValue, "fromValue", as: Value.self),
              let to = typed(toValue, "toValue", as: Value.self),
              let by = typed(byValue, "byValue", as: Value.self) else { return nil }
        if let effect = spare as? BasicEffect<Value> {
            effect.refill(accessor: accessor, timing: timingModel, progress: progressCurve,
                          endpoints: Endpoints(from: from, to: to, by: by), isAdditive: isAdditive, isCumulative: isCumulative)
            return effect
        }
        return BasicEffect(accessor: accessor, timing: timingModel, progress: progressCurve,
                           endpoints: Endpoints(from: from, to: to, by: by),
                           isAdditive: isAdditive, isCumulative: isCumulative)
    }

    /// How an iteration's elapsed fraction becomes progress between the end points.
    var progressCurve: ProgressCurve { .timing(timingFunction) }
}

/// A basic animation's end points, resolved against the underlying value every frame.
struct Endpoints<Value: Interpolatable> {
    var from: Value?
    var to: Value?
    var by: Value?

    func resolve(underlying u: Value) -> (Value, Value) {
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, f.adding(b))
        case let (nil, t?, b?): return (t.subtracting(b), t)
        case let (f?, nil, nil): return (f, u)
        case let (nil, t?, nil): return (u, t)
        case let (nil, nil, b?): return (u, u.adding(b))
        case (nil, nil, nil): return (u, u)
        }
    }
}

/// Maps an iteration's sample to progress between the end points.
enum ProgressCurve {
    /// A timing function (nil is linear) applied to the elapsed fraction.
    case timing(TimingFunction?)
    /// A spring's displacement at the elapsed seconds; overshoots past 1.
    case spring(SpringModel, duration: Double)

    func progress(_ fraction: Double) -> Double {
        switch self {
        case let .timing(f): return f?.progress(at: fraction) ?? fraction
        case let .spring(model, duration): return model.progress(at: fraction * duration)
        }
    }
}

/// Evaluates a basic or spring animation of one property.
@MainActor
final class BasicEffect<Value: Interpolatable>: AnimationEffect {
    // Variables only for `refill`, which a retired record's evaluator gets when its layer
    // adds an animation of the same type again; unchecked like `kept`, since no access to
    // them overlaps another.
    @exclusivity(unchecked) private(set) var accessor: PropertyAccessor<Value>
    @exclusivity(unchecked) private(set) var timing: TimingModel
    @exclusivity(unchecked) private(set) var curve: ProgressCurve
    @exclusivity(unchecked) private(set) var endpoints: Endpoints<Value>
    @exclusivity(unchecked) private(set) var isAdditive: Bool
    @exclusivity(unchecked) private(set) var isCumulative: Bool
    /// The last value written, kept so that values with storage (gradient `locations` and
    /// `colors`) are interpolated into the same storage each frame. The presentation copy's own
    /// reference is replaced from the model before each evaluation, so this one is then unique.
    // Unchecked: only `evaluate` touches it, in accesses that cannot overlap; in generic code
    // its assignment calls a value witness, which made every specialized access checked at run
    // time (about 80 instructions per animation per frame).
    @exclusivity(unchecked) private var kept: Value?

    /// The value type, found once: `apply` dispatches on it to code compiled for that type.
    private let kind: ValueKind

    init(accessor: PropertyAccessor<Value>, timing: TimingModel, progress: ProgressCurve, endpoints: Endpoints<Value>,
         isAdditive: Bool, isCumulative: Bool) {
        self.accessor = accessor
        self.timing = timing
        self.curve = progress
        self.endpoints = endpoints
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.kind = ValueKind(Value.self)
    }

    /// Makes this evaluator, which nothing uses any more, evaluate another animation of a
    /// property of the same type, as a new one made with these arguments would.
    func refill(accessor: PropertyAccessor<Value>, timing: TimingModel, progress: ProgressCurve, endpoints: Endpoints<Value>,
                isAdditive: Bool, isCumulative: Bool) {
        self.accessor = accessor
        self.timing = timing
        self.curve = progress
        self.endpoints = endpoints
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        // `kept` stays: its storage serves the new values as it did the old ones.
    }

    var keyPath: String { accessor.key }
    var timingModel: TimingModel { timing }

    // Effects are created from type-erased accessors, so a generic evaluation would look up
    // generic metadata for every value it touches (most of the cost of a frame of 10,000
    // animated layers). `@_specialize` on `apply` itself did not avoid it: its type test ran
    // first and looked up `Optional<Color>`'s metadata on every call. The kind, found once,
    // picks the code compiled for the type without a lookup.
    func apply(to layer: Layer, parentTime t: Double) {
        switch kind {
        case .double: unsafeDowncast(self, to: BasicEffect<Double>.self).evaluate(layer, t)
        case .point: unsafeDowncast(self, to: BasicEffect<Point>.self).evaluate(layer, t)
        case .size: unsafeDowncast(self, to: BasicEffect<Size>.self).evaluate(layer, t)
        case .rect: unsafeDowncast(self, to: BasicEffect<Rect>.self).evaluate(layer, t)
        case .transform: unsafeDowncast(self, to: BasicEffect<Transform>.self).evaluate(layer, t)
        case .color: unsafeDowncast(self, to: BasicEffect<Color>.self).evaluate(layer, t)
        case .optionalColor: unsafeDowncast(self, to: BasicEffect<Color?>.self).evaluate(layer, t)
        case .other: evaluate(layer, t)
        }
    }

    private func evaluate(_ layer: Layer, _ t: Double) {
        guard let sample = timing.sample(parentTime: t) else { return }
        let underlying = accessor.get(layer)
        let (a, b) = endpoints.resolve(underlying: underlying)
        let value: Value
        if var reused = kept {
            kept = nil
            a.interpolate(to: b, at: curve.progress(sample.fraction), into: &reused)
            value = reused
        } else {
            value = a.interpolated(to: b, at: curve.progress(sample.fraction))
        }
        kept = value
        accessor.set(layer, value.accumulated(from: a, to: b, cycle: sample.cycle, isCumulative: isCumulative,
                                              isAdditive: isAdditive, underlying: underlying))
    }
}

extension Interpolatable {
    /// A basic animation's value from its interpolation within the cycle (`self`): a cumulative
    /// animation adds the change of each whole cycle before this one, an additive one adds the
    /// underlying value. One place for both evaluators (``BasicEffect`` and an inline
    /// ``AnimationSlot``), so their values stay the same to the bit.
    @inline(__always)
    func accumulated(from a: Self, to b: Self, cycle: Double, isCumulative: Bool, isAdditive: Bool, underlying: Self) -> Self {
        var value = self
        if isCumulative && cycle > 0 { value = value.adding(a.interpolated(to: b, at: cycle).subtracting(a)) }
        if isAdditive { value = underlying.adding(value) }
        return value
    }
}

/// The value types that effects evaluate with code compiled for them (BasicEffect.apply).
enum ValueKind {
    case double, point, size, rect, transform, color, optionalColor, other

    init<Value>(_ type: Value.Type) {
        if type == Double.self { self = .double }
        else if type == Point.self { self = .point }
        else if type == Size.self { self = .size }
        else if type == Rect.self { self = .rect }
        else if type == Transform.self { self = .transform }
        else if type == Color.self { self = .color }
        else if type == Optional<Color>.self { self = .optionalColor }
        else { self = .other }
    }
}

// AnimationSlot: a committed animation as a presentation refresh runs it, in one flat value.

import Raster

/// One committed animation of a layer, stored in the layer's buffer of slots in the order the
/// animations apply.
///
/// A basic animation of a built-in field of the state (position, opacity, bounds...) with a
/// named timing function or none is held inline: its timing, end points and target field, so that a
/// frame reads one buffer per layer, front to back, instead of following the layer's records
/// to each animation's evaluator object (with 10,000 animated layers, a cache miss at each
/// step). Its values are computed with the same code as ``BasicEffect``'s, so they are the same
/// to the bit. Any other animation is applied by its record's evaluator object.
@MainActor
struct AnimationSlot {
    // 64 bytes of record, timing and flags, then the lanes: a frame reads the first line and
    // the lanes its value type uses, nothing else.
    /// The record of an animation not held inline, whose evaluator applies it; nil for an
    /// inline one. Not retained, so that a slot is plain bytes: the layer's list of records
    /// holds it, and the slots are rebuilt whenever that list changes. (Unmanaged, not an
    /// `unowned(unsafe)` optional: as the first field of a slot inside an Optional, that one's
    /// nil read back as the Optional's none.)
    let record: Unmanaged<AttachedAnimation>?
    let timing: TimingModel
    let field: SlotField
    let start: EndpointSource
    let end: EndpointSource
    let isAdditive: Bool
    let isCumulative: Bool
    let curve: SlotCurve
    // The constant end points as lanes, the start's and end's interleaved so that a scalar's
    // two values share 16 bytes and a point's 32.
    let a0: Double, b0: Double, a1: Double, b1: Double, a2: Double, b2: Double, a3: Double, b3: Double

    init(record: AttachedAnimation, effect: AnimationEffect) {
        self.record = Unmanaged.passUnretained(record)
        timing = effect.timingModel
        field = .position
        start = .underlying
        end = .underlying
        isAdditive = false
        isCumulative = false
        curve = .linear
        (a0, b0, a1, b1, a2, b2, a3, b3) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    init<Value: SlotValue>(timing: TimingModel, field: SlotField, curve: SlotCurve, start: EndpointSource, a: Value?,
                           end: EndpointSource, b: Value?, isAdditive: Bool, isCumulative: Bool) {
        record = nil
        self.timing = timing
        self.field = field
        self.start = start
        self.end = end
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.curve = curve
        let la = a?.lanes ?? (0, 0, 0, 0), lb = b?.lanes ?? (0, 0, 0, 0)
        (a0, a1, a2, a3) = la
        (b0, b1, b2, b3) = lb
    }

    /// Writes the animated value into `layer` (a presentation copy) at parent time `t`.
    @inline(__always)
    func apply(to layer: Layer, parentTime t: Double) {
        if let record {
            record._withUnsafeGuaranteedRef { $0.effect }?.apply(to: layer, parentTime: t)
            return
        }
        switch field {
        case .position: run(layer, t, { $0.state.position }, { $0.state.position = $1 })
        case .positionX: run(layer, t, { $0.state.position.x }, { $0.state.position.x = $1 })
        case .positionY: run(layer, t, { $0.state.position.y }, { $0.state.position.y = $1 })
        case .opacity: run(layer, t, { $0.state.opacity }, { $0.state.opacity = $1 })
        case .bounds: run(layer, t, { $0.state.bounds }, { $0.state.bounds = $1 })
        case .boundsOrigin: run(layer, t, { $0.state.bounds.origin }, { $0.state.bounds.origin = $1 })
        case .boundsSize: run(layer, t, { $0.state.bounds.size }, { $0.state.bounds.size = $1 })
        case .anchorPoint: run(layer, t, { $0.state.anchorPoint }, { $0.state.anchorPoint = $1 })
        case .cornerRadius: run(layer, t, { $0.state.cornerRadius }, { $0.state.cornerRadius = $1 })
        case .borderWidth: run(layer, t, { $0.state.borderWidth }, { $0.state.borderWidth = $1 })
        case .borderColor: run(layer, t, { $0.state.borderColor }, { $0.state.borderColor = $1 })
        }
    }

    /// `BasicEffect.evaluate` for an inline slot (its `kept` value only matters for values with
    /// storage, which are never inline).
    @inline(__always)
    private func run<Value: SlotValue>(_ layer: Layer, _ t: Double, _ get: (Layer) -> Value, _ set: (Layer, Value) -> Void) {
        guard let sample = timing.sample(parentTime: t) else { return }
        let underlying = get(layer)
        let a = start == .constant ? Value.start(of: self) : underlying
        let b: Value
        switch end {
        case .constant: b = Value.end(of: self)
        case .underlying: b = underlying
        case .underlyingPlusConstant: b = underlying.adding(Value.end(of: self))
        }
        let value = a.interpolated(to: b, at: curve.progress(sample.fraction))
        set(layer, value.accumulated(from: a, to: b, cycle: sample.cycle, isCumulative: isCumulative,
                                     isAdditive: isAdditive, underlying: underlying))
    }
}

/// An inline slot's timing function: none (linear) or one of the named curves; a slot with
/// any other curve is not inline (a code, not the curve's 32 bytes, keeps the slot at 128).
enum SlotCurve: UInt8 {
    case linear, easeIn, easeOut, easeInEaseOut, `default`

    init?(_ function: TimingFunction?) {
        guard let function else { self = .linear; return }
        switch function {
        case .easeIn: self = .easeIn
        case .easeOut: self = .easeOut
        case .easeInEaseOut: self = .easeInEaseOut
        case .default: self = .default
        default: return nil
        }
    }

    /// `ProgressCurve.progress` for the curve this code names.
    @inline(__always)
    func progress(_ fraction: Double) -> Double {
        switch self {
        case .linear: return fraction
        case .easeIn: return TimingFunction.easeIn.progress(at: fraction)
        case .easeOut: return TimingFunction.easeOut.progress(at: fraction)
        case .easeInEaseOut: return TimingFunction.easeInEaseOut.progress(at: fraction)
        case .default: return TimingFunction.default.progress(at: fraction)
        }
    }
}

/// Where an inline slot's start or end value comes from each frame.
enum EndpointSource: UInt8 {
    case constant, underlying, underlyingPlusConstant
}

/// The built-in fields an inline slot can animate, by key path.
enum SlotField: UInt8 {
    case position, positionX, positionY, opacity, bounds, boundsOrigin, boundsSize, anchorPoint
    case cornerRadius, borderWidth, borderColor

    init?(keyPath: String) {
        switch keyPath {
        case "position": self = .position
        case "position.x": self = .positionX
        case "position.y": self = .positionY
        case "opacity": self = .opacity
        case "bounds": self = .bounds
        case "bounds.origin": self = .boundsOrigin
        case "bounds.size": self = .boundsSize
        case "anchorPoint": self = .anchorPoint
        case "cornerRadius": self = .cornerRadius
        case "borderWidth": self = .borderWidth
        case "borderColor": self = .borderColor
        default: return nil
        }
    }
}

/// A value an inline slot holds as up to four doubles, exactly. `start` and `end` read only
/// the lanes the type uses.
@MainActor
protocol SlotValue: Interpolatable {
    var lanes: (Double, Double, Double, Double) { get }
    static func start(of slot: AnimationSlot) -> Self
    static func end(of slot: AnimationSlot) -> Self
}

extension Double: SlotValue {
    var lanes: (Double, Double, Double, Double) { (self, 0, 0, 0) }
    static func start(of slot: AnimationSlot) -> Double { slot.a0 }
    static func end(of slot: AnimationSlot) -> Double { slot.b0 }
}

extension Point: SlotValue {
    var lanes: (Double, Double, Double, Double) { (x, y, 0, 0) }
    static func start(of slot: AnimationSlot) -> Point { Point(x: slot.a0, y: slot.a1) }
    static func end(of slot: AnimationSlot) -> Point { Point(x: slot.b0, y: slot.b1) }
}

extension Size: SlotValue {
    var lanes: (Double, Double, Double, Double) { (width, height, 0, 0) }
    static func start(of slot: AnimationSlot) -> Size { Size(width: slot.a0, height: slot.a1) }
    static func end(of slot: AnimationSlot) -> Size { Size(width: slot.b0, height: slot.b1) }
}

extension Rect: SlotValue {
    var lanes: (Double, Double, Double, Double) { (origin.x, origin.y, size.width, size.height) }
    static func start(of slot: AnimationSlot) -> Rect { Rect(x: slot.a0, y: slot.a1, width: slot.a2, height: slot.a3) }
    static func end(of slot: AnimationSlot) -> Rect { Rect(x: slot.b0, y: slot.b1, width: slot.b2, height: slot.b3) }
}

extension Color: SlotValue {
    var lanes: (Double, Double, Double, Double) { (red, green, blue, alpha) }
    static func start(of slot: AnimationSlot) -> Color { Color(red: slot.a0, green: slot.a1, blue: slot.a2, alpha: slot.a3) }
    static func end(of slot: AnimationSlot) -> Color { Color(red: slot.b0, green: slot.b1, blue: slot.b2, alpha: slot.b3) }
}

/// An effect that may be held inline in a slot.
@MainActor
protocol InlineSlotSource {
    func inlineSlot() -> AnimationSlot?
}

extension BasicEffect: InlineSlotSource {
    /// This effect as an inline slot, or nil when it cannot be one (a spring, a key that is not
    /// a plain built-in field, a value type with storage).
    func inlineSlot() -> AnimationSlot? {
        guard case let .timing(function) = curve, let code = SlotCurve(function),
              let field = SlotField(keyPath: keyPath), let type = Value.self as? any SlotValue.Type else { return nil }
        return makeSlot(as: type, field: field, curve: code)
    }

    private func makeSlot<V: SlotValue>(as _: V.Type, field: SlotField, curve: SlotCurve) -> AnimationSlot? {
        // The end points as Endpoints.resolve pairs them, with the sums it takes each frame
        // taken once: the same operations on the same values.
        func typed(_ value: Value?) -> V?? {
            guard let value else { return .some(nil) }
            guard let v = value as? V else { return nil }
            return .some(v)
        }
        guard let from = typed(endpoints.from), let to = typed(endpoints.to), let by = typed(endpoints.by) else { return nil }
        var start = EndpointSource.underlying, end = EndpointSource.underlying
        var a: V?, b: V?
        switch (from, to, by) {
        case let (f?, t?, _): (start, a, end, b) = (.constant, f, .constant, t)
        case let (f?, nil, by?): (start, a, end, b) = (.constant, f, .constant, f.adding(by))
        case let (nil, t?, by?): (start, a, end, b) = (.constant, t.subtracting(by), .constant, t)
        case let (f?, nil, nil): (start, a) = (.constant, f)
        case let (nil, t?, nil): (end, b) = (.constant, t)
        case let (nil, nil, by?): (end, b) = (.underlyingPlusConstant, by)
        case (nil, nil, nil): break
        }
        return AnimationSlot(timing: timing, field: field, curve: curve, start: start, a: a, end: end, b: b,
                             isAdditive: isAdditive, isCumulative: isCumulative)
    }
}

// AnimationEffect: an added animation resolved against its layer's property types.

/// An animation bound to a layer's properties, applied to the presentation copy each frame.
///
/// Effects are built once when the animation is committed, so evaluating one allocates nothing:
/// values are already unboxed to the property's type.
@MainActor
protocol AnimationEffect: AnyObject {
    /// The animated key path (the first child's for a group).
    var keyPath: String { get }
    /// The effect's timing in its parent's time.
    var timingModel: TimingModel { get }
    /// Writes the animated values into `layer` (a presentation copy) at parent time `t`.
    func apply(to layer: Layer, parentTime t: Double)
    /// Every key path the effect animates.
    func collectKeyPaths(into keys: inout [String])
    /// Every key path whose storage the effect writes: the animated ones, and any it changes
    /// along with them (a path animation's rotation writes the transform).
    func collectWrittenKeyPaths(into keys: inout [String])
}

extension AnimationEffect {
    func collectKeyPaths(into keys: inout [String]) { keys.append(keyPath) }
    func collectWrittenKeyPaths(into keys: inout [String]) { collectKeyPaths(into: &keys) }
}

/// Reads and writes one animatable property of a layer, with its value type known.
@MainActor
struct PropertyAccessor<Value: Interpolatable>: AnyPropertyAccessor {
    let key: String
    let get: @MainActor (Layer) -> Value
    let set: @MainActor (Layer, Value) -> Void

    func makeEffect(for animation: PropertyAnimation, on layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect? {
        animation.makeEffect(accessor: self, layer: layer, reusing: spare)
    }

    func value(of layer: Layer) -> any Interpolatable { get(layer) }

    func setValue(_ value: any Interpolatable, on layer: Layer) -> Bool {
        guard let v = value as? Value else { return false }
        set(layer, v)
        return true
    }
}

/// A property accessor with its value type erased, as found by key path.
@MainActor
protocol AnyPropertyAccessor {
    var key: String { get }
    func makeEffect(for animation: PropertyAnimation, on layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect?
    func value(of layer: Layer) -> any Interpolatable
    func setValue(_ value: any Interpolatable, on layer: Layer) -> Bool
}

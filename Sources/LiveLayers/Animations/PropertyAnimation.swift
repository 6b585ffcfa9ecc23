// PropertyAnimation: an animation of one key path of a layer (CAPropertyAnimation).

/// An animation that drives one property of a layer, named by its key path, as
/// `CAPropertyAnimation`.
///
/// Key paths are the property names (`"position"`, `"opacity"`, a custom property's name),
/// plus the transform's sub-paths `"transform.rotation.z"` (or `"transform.rotation"`),
/// `"transform.scale"`, `"transform.scale.x"`, `"transform.scale.y"`, `"transform.translation"`,
/// `"transform.translation.x"`, `"transform.translation.y"`, and `"position.x"`,
/// `"position.y"`, `"bounds.size"`, `"bounds.origin"`.
public class PropertyAnimation: Animation {
    /// The animated property's key path.
    public var keyPath: String?
    /// Whether the animated value is added to the property's underlying value (the model value,
    /// or the result of the animations added before this one) instead of replacing it.
    /// Transforms add by concatenation.
    public var isAdditive = false
    /// Whether each repeat starts where the previous one ended instead of from the start value.
    public var isCumulative = false

    /// Creates an animation of `keyPath`.
    public init(keyPath: String? = nil) {
        self.keyPath = keyPath
        super.init()
    }

    required init(copying other: Animation) {
        super.init(copying: other)
    }

    override func takeSettings(of other: Animation) {
        super.takeSettings(of: other)
        if let other = other as? PropertyAnimation {
            keyPath = other.keyPath
            isAdditive = other.isAdditive
            isCumulative = other.isCumulative
        }
    }

    @MainActor
    override func makeEffect(for layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect? {
        guard let keyPath else { return nil }
        guard let accessor = layer.accessor(forKeyPath: keyPath) else {
            Diagnostics.warn("no animatable property '\(keyPath)' on \(type(of: layer)); the animation is ignored")
            return nil
        }
        return accessor.makeEffect(for: self, on: layer, reusing: spare)
    }

    /// Builds the typed evaluator once the property's value type is known (refilling `spare`
    /// when it is of the right kind).
    @MainActor
    func makeEffect<Value: Interpolatable>(accessor: PropertyAccessor<Value>, layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect? { nil }

    /// Casts an animation value to the property's type, with a clear diagnostic when it is not.
    func typed<Value: Interpolatable>(_ value: (any Interpolatable)?, _ role: String, as _: Value.Type) -> Value?? {
        guard let value else { return .some(nil) }
        if let v = value as? Value { return .some(v) }
        Diagnostics.warn("\(role) of the animation of '\(keyPath ?? "")' is a \(type(of: value)), but the property is a \(Value.self); the animation is ignored")
        return nil
    }
}

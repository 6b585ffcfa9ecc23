// Action: what a layer does when one of its properties changes (CAAction).

/// Something a layer runs when a property changes, as `CAAction`: usually an ``Animation``,
/// which adds a copy of itself to the layer for the changed key.
///
/// A basic animation run as an action with no values set animates from the value shown before
/// the change to the new model value, which is what implicit animations do.
@MainActor
public protocol Action {
    /// Runs the action for the property `key` of `layer`, after the model value has changed.
    func run(forKey key: String, on layer: Layer)
}

/// The explicit "no action" (Core Animation's `NSNull` in an `actions` dictionary): it stops
/// the search for an action, so the change is not animated.
public struct NullAction: Action, Sendable {
    /// Creates the null action.
    public nonisolated init() {}
    public func run(forKey key: String, on layer: Layer) {}
}

extension Action where Self == NullAction {
    /// The null action: no animation for this key (`actions["position"] = .null`).
    public static var null: NullAction { NullAction() }
}

extension Animation: Action {
    /// Adds a copy of the animation to `layer` for `key`, with the key path set to `key` if the
    /// animation (a property animation) has none.
    @MainActor
    public func run(forKey key: String, on layer: Layer) {
        if let property = self as? PropertyAnimation, property.keyPath == nil {
            let copy = property.copy()
            copy.keyPath = key
            layer.add(copy, forKey: key)
        } else {
            layer.add(self, forKey: key)
        }
    }
}

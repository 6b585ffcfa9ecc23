// LayerDelegate: customises a layer's drawing and actions from outside (CALayerDelegate).

import Raster

/// An object that draws a layer's content or picks its actions without subclassing, as
/// `CALayerDelegate`. The layer does not retain its delegate. Every method is optional.
@MainActor
public protocol LayerDelegate: AnyObject {
    /// The action for `key` on `layer`: return `nil` to let the layer keep searching
    /// (its `actions`, then its class's default), or ``NullAction`` for no action.
    func action(for layer: Layer, forKey key: String) -> (any Action)?
    /// Draws `layer`'s content when the layer does not override `draw(in:)`.
    func draw(_ layer: Layer, in context: GraphicsContext)
}

extension LayerDelegate {
    public func action(for layer: Layer, forKey key: String) -> (any Action)? { nil }
    public func draw(_ layer: Layer, in context: GraphicsContext) {}
}

// ReplicatorLayer: draws its sublayers several times, each copy transformed, delayed and tinted (CAReplicatorLayer).

import Raster

/// A layer that draws ``instanceCount`` copies of its sublayers, as `CAReplicatorLayer`.
///
/// Copy `i` (from 0) is drawn with ``instanceTransform`` applied `i` times, about the layer's
/// anchor point as `sublayerTransform` is; its sublayers' animations run ``instanceDelay``·`i`
/// seconds late; and its colours are multiplied by ``instanceColor`` plus `i` times the red,
/// green, blue and alpha offsets (each clamped to 0...1). The tint multiplies background,
/// border and shape colours; its alpha multiplies the copy's opacity. Bitmap content (contents
/// and drawn backing stores) takes the alpha only, and masks inside the copies are not drawn.
///
/// The classic activity indicator: one dot near the top, twelve instances turned by 30°, and a
/// repeating opacity animation on the dot offset by `instanceDelay = duration / 12`.
///
/// `instanceTransform`, `instanceDelay`, `instanceColor` and the four offsets animate.
open class ReplicatorLayer: Layer {
    /// How many copies are drawn (0 draws no sublayers). Default 1.
    @LayerProperty public var instanceCount = 1
    /// The transform taking each copy to the next, applied about the anchor point.
    @LayerProperty public var instanceTransform = Transform.identity
    /// How many seconds later each copy's animations run than the previous copy's. Default 0.
    @LayerProperty public var instanceDelay = 0.0
    /// The tint of copy 0. Default opaque white (no change).
    @LayerProperty public var instanceColor = Color.white
    /// Added to the tint's red for each further copy. Default 0.
    @LayerProperty public var instanceRedOffset = 0.0
    /// Added to the tint's green for each further copy. Default 0.
    @LayerProperty public var instanceGreenOffset = 0.0
    /// Added to the tint's blue for each further copy. Default 0.
    @LayerProperty public var instanceBlueOffset = 0.0
    /// Added to the tint's alpha for each further copy. Default 0.
    @LayerProperty public var instanceAlphaOffset = 0.0

    /// Presentation copies of every descendant for each instance, kept from frame to frame.
    var instanceCopies: [ObjectIdentifier: [Layer]] = [:]

    /// Creates a replicator with one instance.
    public required init() {
        super.init()
    }

    static let replicatorKeys: Set<String> = [
        "instanceCount", "instanceTransform", "instanceDelay", "instanceColor",
        "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset",
    ]

    open override class func needsDisplay(forKey key: String) -> Bool {
        replicatorKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    open override class func defaultAction(forKey key: String) -> (any Action)? {
        if replicatorKeys.contains(key) && key != "instanceCount" { return Layer.implicitAnimation(forKey: key) }
        return super.defaultAction(forKey: key)
    }

    /// The tint of copy `index`: ``instanceColor`` plus `index` times the offsets, clamped.
    public func instanceTint(at index: Int) -> Color {
        func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        let i = Double(index)
        return Color(red: clamp(instanceColor.red + i * instanceRedOffset),
                     green: clamp(instanceColor.green + i * instanceGreenOffset),
                     blue: clamp(instanceColor.blue + i * instanceBlueOffset),
                     alpha: clamp(instanceColor.alpha + i * instanceAlphaOffset))
    }

    /// The transform of copy `index` in the layer's own coordinates: ``instanceTransform``
    /// applied `index` times about the anchor point.
    public func instanceTransform(at index: Int) -> Transform {
        guard index > 0 else { return .identity }
        var t = instanceTransform
        for _ in 1..<index { t = t.concatenating(instanceTransform) }
        let b = bounds
        let ax = b.minX + anchorPoint.x * b.width, ay = b.minY + anchorPoint.y * b.height
        return Transform(translationX: -ax, y: -ay).concatenating(t).concatenating(Transform(translationX: ax, y: ay))
    }
}

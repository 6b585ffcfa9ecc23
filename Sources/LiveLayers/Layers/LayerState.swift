// LayerState: the built-in properties of a layer, as one value copied into presentation copies.

import Raster

/// How a layer's `contents` bitmap is placed in its bounds (`CALayerContentsGravity`).
public enum ContentsGravity: Sendable, Hashable {
    /// Stretched to fill the bounds (the default).
    case resize
    /// Scaled to fit inside the bounds, keeping its aspect ratio, centred.
    case resizeAspect
    /// Scaled to cover the bounds, keeping its aspect ratio, centred and cropped.
    case resizeAspectFill
    /// Unscaled, centred.
    case center
    /// Unscaled, centred horizontally at the top edge.
    case top
    /// Unscaled, centred horizontally at the bottom edge.
    case bottom
    /// Unscaled, centred vertically at the left edge.
    case left
    /// Unscaled, centred vertically at the right edge.
    case right
    /// Unscaled, in the top-left corner.
    case topLeft
    /// Unscaled, in the top-right corner.
    case topRight
    /// Unscaled, in the bottom-left corner.
    case bottomLeft
    /// Unscaled, in the bottom-right corner.
    case bottomRight

    /// The rectangle, in layer coordinates, that a contents image of `size` pixels occupies
    /// in `bounds` (y grows downward, so "top" is the minimum y).
    public func rect(forContentsOf size: Size, in bounds: Rect) -> Rect {
        let b = bounds.standardized
        guard size.width > 0, size.height > 0 else { return b }
        func placed(_ w: Double, _ h: Double, _ fx: Double, _ fy: Double) -> Rect {
            Rect(x: b.minX + (b.width - w) * fx, y: b.minY + (b.height - h) * fy, width: w, height: h)
        }
        switch self {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            let sx = b.width / size.width, sy = b.height / size.height
            let s = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            return placed(size.width * s, size.height * s, 0.5, 0.5)
        case .center: return placed(size.width, size.height, 0.5, 0.5)
        case .top: return placed(size.width, size.height, 0.5, 0)
        case .bottom: return placed(size.width, size.height, 0.5, 1)
        case .left: return placed(size.width, size.height, 0, 0.5)
        case .right: return placed(size.width, size.height, 1, 0.5)
        case .topLeft: return placed(size.width, size.height, 0, 0)
        case .topRight: return placed(size.width, size.height, 1, 0)
        case .bottomLeft: return placed(size.width, size.height, 0, 1)
        case .bottomRight: return placed(size.width, size.height, 1, 1)
        }
    }
}

/// The built-in properties of a layer. Kept together so that a presentation copy takes them
/// in one assignment and the renderer compares them in one comparison.
struct LayerState: Equatable {
    // The most animated fields first, next to the layer's hot fields: a frame of moving,
    // fading layers reads and writes them and often nothing else of the state.
    var position = Point.zero
    var opacity = 1.0
    var bounds = Rect.zero
    var anchorPoint = Point(x: 0.5, y: 0.5)
    var transform = Transform.identity
    var isHidden = false
    var backgroundColor: Color?
    var cornerRadius = 0.0
    var borderWidth = 0.0
    var borderColor = Color.black
    var masksToBounds = false
    var contentsGravity = ContentsGravity.resize
    /// Shadows, grouping, blending, ordering and the rest of the kit (Layer+Effects), behind
    /// one reference that every layer using none of them shares: inline they were more than
    /// half of the state's bytes, read and written for the model, the presentation copy and
    /// the renderer's signature of each layer every frame.
    /// Read by the renderer's signature, which keeps the box rather than a copy of its value,
    /// and by its per-layer reads (`layer.state.effectsBox.value.zPosition`): `effects` on a
    /// layer's state takes the state by value, a copy of all of it and a retain of the box.
    private(set) var effectsBox = LayerEffectsBox.defaults

    var effects: LayerEffects {
        _read { yield effectsBox.value }
        _modify {
            // Copy on write: the box may be shared with the defaults, the model or a copy.
            if !isKnownUniquelyReferenced(&effectsBox) { effectsBox = LayerEffectsBox(effectsBox.value) }
            yield &effectsBox.value
        }
    }

    /// Sets every field to `other`'s. A presentation copy whose animations wrote an effect
    /// keeps its own box, filled with the model's values, so that they write it again in
    /// place rather than copying a box shared with the model on every full refresh.
    mutating func assign(from other: LayerState) {
        var own = effectsBox
        self = other
        if own !== other.effectsBox, own !== LayerEffectsBox.defaults, isKnownUniquelyReferenced(&own) {
            own.value = other.effectsBox.value
            effectsBox = own
        }
    }

    /// Makes the effects box this state's alone before its fields are written in place. The
    /// renderer's signature of the last frame holds the box it had, so the values go into
    /// `spare`, the box before that, once nothing else holds it (else into a new box), and the
    /// one given up becomes the spare: two boxes take turns instead of a new one every frame.
    mutating func ownEffects(spare: inout LayerEffectsBox?) {
        guard !isKnownUniquelyReferenced(&effectsBox) else { return }
        let shared = effectsBox
        if spare != nil, isKnownUniquelyReferenced(&spare!) {
            spare!.value = shared.value
            effectsBox = spare!
        } else {
            effectsBox = LayerEffectsBox(shared.value)
        }
        spare = shared === LayerEffectsBox.defaults ? nil : shared
    }

    static func == (a: LayerState, b: LayerState) -> Bool {
        a.bounds == b.bounds && a.position == b.position && a.anchorPoint == b.anchorPoint
            && a.transform == b.transform && a.opacity == b.opacity && a.isHidden == b.isHidden
            && a.backgroundColor == b.backgroundColor && a.cornerRadius == b.cornerRadius
            && a.borderWidth == b.borderWidth && a.borderColor == b.borderColor
            && a.masksToBounds == b.masksToBounds && a.contentsGravity == b.contentsGravity
            && (a.effectsBox === b.effectsBox || a.effectsBox.value == b.effectsBox.value)
    }

    /// Whether the two draw the same pixels into a group picture: `==` without the opacity.
    func drawsSamePicture(as b: LayerState) -> Bool {
        bounds == b.bounds && position == b.position && anchorPoint == b.anchorPoint
            && transform == b.transform && isHidden == b.isHidden
            && backgroundColor == b.backgroundColor && cornerRadius == b.cornerRadius
            && borderWidth == b.borderWidth && borderColor == b.borderColor
            && masksToBounds == b.masksToBounds && contentsGravity == b.contentsGravity
            && (effectsBox === b.effectsBox || effectsBox.value.drawsSamePicture(as: b.effectsBox.value))
    }
}

/// The box holding a state's effects.
final class LayerEffectsBox: @unchecked Sendable {
    // Unchecked: a box is written only through `LayerState.effects`, copying it first unless
    // the state holds the only reference, so a shared box (the defaults among them) is never written.
    // Unchecked exclusivity too: the state's own copy-on-write is the guarantee, and a dynamic
    // check on each read (zPosition, sublayerTransform, maskMode for every layer every frame)
    // cost more instructions than the smaller state saved.
    @exclusivity(unchecked) var value: LayerEffects

    init(_ value: LayerEffects) { self.value = value }

    static let defaults = LayerEffectsBox(LayerEffects())
}

/// The layer properties beyond the basic ones, together so that a layer that uses none of them
/// costs one comparison of defaults.
struct LayerEffects: Equatable {
    var shadowColor = Color.black
    var shadowOpacity = 0.0
    var shadowOffset = Size(width: 0, height: -3)
    var shadowRadius = 3.0
    var shadowPath: Path?
    var allowsGroupOpacity = true
    var compositingFilter: BlendFunction?
    var zPosition = 0.0
    var sublayerTransform = Transform.identity
    var maskedCorners = CornerMask.all
    var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1)
    var maskMode = MaskMode.alpha

    /// Whether a shadow is drawn.
    var hasShadow: Bool { shadowOpacity > 0 && shadowColor.alpha > 0 }

    /// Whether the two draw the same pixels into a group picture: what applies only when the
    /// picture is composited (the blend mode, the shadow beside it, the order among siblings) aside.
    func drawsSamePicture(as b: LayerEffects) -> Bool {
        allowsGroupOpacity == b.allowsGroupOpacity && sublayerTransform == b.sublayerTransform
            && maskedCorners == b.maskedCorners && contentsRect == b.contentsRect
            && contentsCenter == b.contentsCenter && maskMode == b.maskMode
    }
}

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
    var bounds = Rect.zero
    var position = Point.zero
    var anchorPoint = Point(x: 0.5, y: 0.5)
    var transform = Transform.identity
    var opacity = 1.0
    var isHidden = false
    var backgroundColor: Color?
    var cornerRadius = 0.0
    var borderWidth = 0.0
    var borderColor = Color.black
    var masksToBounds = false
    var contentsGravity = ContentsGravity.resize
    /// Shadows, grouping, blending, ordering and the rest of the kit (Layer+Effects).
    var effects = LayerEffects()
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
}

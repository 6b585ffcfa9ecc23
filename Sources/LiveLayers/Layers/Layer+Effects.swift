// Layer+Effects: shadows, group opacity, blend modes, masked corners, contents rectangles,
// z ordering and the sublayer transform (the rest of CALayer's properties).

import Raster

/// Which corners ``Layer/cornerRadius`` rounds (`CACornerMask`); y grows downward, so "min y"
/// is the top.
public struct CornerMask: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Top left.
    public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
    /// Top right.
    public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
    /// Bottom left.
    public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
    /// Bottom right.
    public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
    /// All four (the default).
    public static let all: CornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// How a ``Layer/mask`` layer's pixels decide what shows (a LiveLayers extension: Core Animation
/// masks by alpha only; Lottie's mattes need the others).
public enum MaskMode: Sendable, Hashable {
    /// The mask's alpha (Core Animation's behaviour).
    case alpha
    /// One minus the mask's alpha: what the mask covers is cut out.
    case invertedAlpha
    /// The mask's luminance (0.3 R + 0.59 G + 0.11 B of its premultiplied colour).
    case luminance
    /// One minus the luminance.
    case invertedLuminance
}

extension Layer {
    /// The shadow's colour. Default opaque black. Animatable.
    public var shadowColor: Color {
        get { state.effects.shadowColor }
        set { set(\.effects.shadowColor, newValue, key: "shadowColor") }
    }

    /// The shadow's opacity, 0...1; 0 (the default) draws no shadow. Animatable.
    public var shadowOpacity: Double {
        get { state.effects.shadowOpacity }
        set { set(\.effects.shadowOpacity, newValue, key: "shadowOpacity") }
    }

    /// How far the shadow is moved from the layer, in its coordinates. Default (0, −3), as in
    /// Core Animation. Animatable.
    public var shadowOffset: Size {
        get { state.effects.shadowOffset }
        set { set(\.effects.shadowOffset, newValue, key: "shadowOffset") }
    }

    /// The shadow's blur radius. Default 3. The blur is a Gaussian with standard deviation half
    /// the radius, approximated by three box blurs each way. Animatable.
    public var shadowRadius: Double {
        get { state.effects.shadowRadius }
        set { set(\.effects.shadowRadius, newValue, key: "shadowRadius") }
    }

    /// The shadow's shape, in the layer's coordinates; `nil` (the default) casts the shadow of
    /// the layer's composited pixels (its content and sublayers), which costs an offscreen pass
    /// whenever they change. Animatable between paths of the same shape.
    public var shadowPath: Path? {
        get { state.effects.shadowPath }
        set { set(\.effects.shadowPath, newValue, key: "shadowPath") }
    }

    /// Whether a layer with sublayers and an opacity below 1 is composited as one picture, so
    /// that overlapping sublayers do not show through each other. Default `true`, as on iOS.
    public var allowsGroupOpacity: Bool {
        get { state.effects.allowsGroupOpacity }
        set { set(\.effects.allowsGroupOpacity, newValue, key: "allowsGroupOpacity") }
    }

    /// How the layer (with its sublayers, composited as one picture) blends with what is
    /// behind it; `nil` (the default) is plain source-over. Core Animation takes a `CIFilter`
    /// (`multiplyBlendMode`…); here it is the blend function itself.
    public var compositingFilter: BlendFunction? {
        get { state.effects.compositingFilter }
        set { set(\.effects.compositingFilter, newValue, key: "compositingFilter") }
    }

    /// The layer's place on the z axis: sublayers are drawn in increasing `zPosition`, those
    /// with equal values in their order in ``sublayers``. Default 0. Animatable.
    public var zPosition: Double {
        get { state.effects.zPosition }
        set { set(\.effects.zPosition, newValue, key: "zPosition") }
    }

    /// A transform applied to the sublayers, about the anchor point, on top of their own.
    /// Default identity. Animatable.
    public var sublayerTransform: Transform {
        get { state.effects.sublayerTransform }
        set { set(\.effects.sublayerTransform, newValue, key: "sublayerTransform") }
    }

    /// The corners ``cornerRadius`` rounds. Default all four.
    public var maskedCorners: CornerMask {
        get { state.effects.maskedCorners }
        set { set(\.effects.maskedCorners, newValue, key: "maskedCorners") }
    }

    /// The part of ``contents`` shown, in unit coordinates of the image. Default (0, 0, 1, 1).
    /// Animatable.
    public var contentsRect: Rect {
        get { state.effects.contentsRect }
        set { set(\.effects.contentsRect, newValue, key: "contentsRect") }
    }

    /// The part of ``contents`` that stretches when the image is resized (nine-slice), in unit
    /// coordinates of the image; the parts outside it keep their size. Default (0, 0, 1, 1):
    /// the whole image stretches. Animatable.
    public var contentsCenter: Rect {
        get { state.effects.contentsCenter }
        set { set(\.effects.contentsCenter, newValue, key: "contentsCenter") }
    }

    /// How this layer's ``mask`` decides what shows. Default `.alpha` (Core Animation's).
    public var maskMode: MaskMode {
        get { state.effects.maskMode }
        set { set(\.effects.maskMode, newValue, key: "maskMode") }
    }
}

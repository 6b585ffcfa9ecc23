// PropertyAnimator+Transform: a Lottie transform (anchor, position, scale, rotation, skew, opacity) on a layer.

#if canImport(Glibc)
import Glibc
#endif
import LiveLayers
import Raster

extension PropertyAnimator {
    /// Puts a Lottie transform on `layer`: the anchor becomes the bounds' origin (a zero-size
    /// bounds, so sublayers sit relative to it), the position the layer's position, and scale,
    /// skew and rotation its transform, applied in Lottie's order (scale, skew, rotation).
    func applyTransform(_ model: TransformModel?, to layer: Layer, opacity includesOpacity: Bool, autoOrient: Bool = false) throws(LottieError) {
        layer.anchorPoint = .zero
        guard let model else { return }
        if let anchor = model.anchor {
            try apply(anchor, to: layer, key: "bounds.origin", set: { layer.bounds = Rect(origin: $0, size: .zero) }) { Point(x: $0[0], y: $0[1]) }
        }
        if let x = model.positionX, let y = model.positionY {
            try apply(x, to: layer, key: "position.x", set: { layer.position.x = $0 }) { $0.value }
            try apply(y, to: layer, key: "position.y", set: { layer.position.y = $0 }) { $0.value }
        } else if let position = model.position {
            try apply(position, to: layer, key: "position", set: { layer.position = $0 }) { Point(x: $0[0], y: $0[1]) }
        }
        if includesOpacity, let opacity = model.opacity {
            try apply(opacity, to: layer, key: "opacity", set: { layer.opacity = $0 }) { $0.value / 100 }
        }
        let scale = model.scale ?? Animatable(constant: Vector([100, 100]))
        let rotation = model.rotation ?? Animatable(constant: Scalar(0))
        let hasSkew = (model.skew.map { $0.isAnimated || $0.initial.value != 0 } ?? false)
        let mirrors = scale.keyframes.contains { $0.value[0] < 0 || $0.value[1] < 0 }
        if hasSkew || mirrors || autoOrient {
            // Component key paths cannot carry a mirror or a skew: sample the whole transform.
            let skew = model.skew ?? Animatable(constant: Scalar(0)), axis = model.skewAxis ?? Animatable(constant: Scalar(0))
            let position = model.position
            func matrix(_ f: Double) -> Transform {
                var angle = rotation.value(at: f).value * .pi / 180
                if autoOrient, let position {
                    let a = position.value(at: f - 0.05), b = position.value(at: f + 0.05)
                    if a[0] != b[0] || a[1] != b[1] { angle += atan2(b[1] - a[1], b[0] - a[0]) }
                }
                let s = scale.value(at: f)
                return Self.matrix(scale: (s[0] / 100, s[1] / 100), skew: skew.value(at: f).value, skewAxis: axis.value(at: f).value, rotation: angle)
            }
            layer.transform = matrix(scale.keyframes[0].time)
            let spans = [scale.span, rotation.span, skew.span, axis.span, autoOrient ? position?.span : nil].compactMap { $0 }
            guard let first = spans.map(\.lowerBound).min(), let last = spans.map(\.upperBound).max() else { return }
            try sample(on: layer, key: "transform", span: first...last, matrix)
            return
        }
        let s = scale.initial, r = rotation.initial.value
        layer.transform = Transform(scaleX: s[0] / 100, y: s[1] / 100).concatenating(Transform(rotationAngle: r * .pi / 180))
        if scale.isAnimated {
            try apply(scale, to: layer, key: "transform.scale.x", set: { _ in }) { $0[0] / 100 }
            try apply(scale, to: layer, key: "transform.scale.y", set: { _ in }) { $0[1] / 100 }
        }
        if rotation.isAnimated {
            try apply(rotation, to: layer, key: "transform.rotation.z", set: { _ in }) { $0.value * .pi / 180 }
        }
    }

    /// Scale, then skew (`skew` degrees along the axis at `skewAxis` degrees), then rotation.
    static func matrix(scale: (Double, Double), skew: Double, skewAxis: Double, rotation: Double) -> Transform {
        var t = Transform(scaleX: scale.0, y: scale.1)
        if skew != 0 {
            let axis = skewAxis * .pi / 180
            let shear = Transform(a: 1, b: 0, c: tan(-skew * .pi / 180), d: 1, tx: 0, ty: 0)
            t = t.concatenating(Transform(rotationAngle: axis)).concatenating(shear).concatenating(Transform(rotationAngle: -axis))
        }
        return t.concatenating(Transform(rotationAngle: rotation))
    }
}

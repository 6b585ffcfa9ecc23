// BuiltInKeys: the animatable key paths of every layer, including the transform's sub-paths.

import Raster

/// Accessors for the built-in animatable key paths.
///
/// The transform's sub-paths read and write one component of the decomposed transform
/// (``TransformComponents``) and recompose it, as Core Animation's value functions do:
/// animating `transform.rotation.z` from 0 to 2π turns the layer a full turn even though the
/// start and end matrices are equal.
@MainActor
enum BuiltInKeys {
    static let accessors: [String: AnyPropertyAccessor] = {
        var table: [String: AnyPropertyAccessor] = [:]
        @MainActor func add<V: Interpolatable>(_ key: String, get: @escaping @MainActor @Sendable (LayerState) -> V,
                                    set: @escaping @MainActor @Sendable (inout LayerState, V) -> Void) {
            table[key] = PropertyAccessor<V>(key: key, get: { get($0.state) }, set: { layer, value in
                var state = layer.state
                set(&state, value)
                layer.state = state
            })
        }
        @MainActor func component(_ key: String, get: @escaping @Sendable (TransformComponents) -> Double,
                       set: @escaping @Sendable (inout TransformComponents, Double) -> Void) {
            add(key, get: { get(TransformComponents($0.transform)) },
                set: { state, value in
                    var c = TransformComponents(state.transform)
                    set(&c, value)
                    state.transform = c.transform
                })
        }
        add("bounds", get: { $0.bounds }, set: { $0.bounds = $1 })
        add("bounds.origin", get: { $0.bounds.origin }, set: { $0.bounds.origin = $1 })
        add("bounds.size", get: { $0.bounds.size }, set: { $0.bounds.size = $1 })
        add("bounds.size.width", get: { $0.bounds.size.width }, set: { $0.bounds.size.width = $1 })
        add("bounds.size.height", get: { $0.bounds.size.height }, set: { $0.bounds.size.height = $1 })
        add("position", get: { $0.position }, set: { $0.position = $1 })
        add("position.x", get: { $0.position.x }, set: { $0.position.x = $1 })
        add("position.y", get: { $0.position.y }, set: { $0.position.y = $1 })
        add("anchorPoint", get: { $0.anchorPoint }, set: { $0.anchorPoint = $1 })
        add("transform", get: { $0.transform }, set: { $0.transform = $1 })
        add("opacity", get: { $0.opacity }, set: { $0.opacity = $1 })
        add("backgroundColor", get: { $0.backgroundColor }, set: { $0.backgroundColor = $1 })
        add("cornerRadius", get: { $0.cornerRadius }, set: { $0.cornerRadius = $1 })
        add("borderWidth", get: { $0.borderWidth }, set: { $0.borderWidth = $1 })
        add("borderColor", get: { $0.borderColor }, set: { $0.borderColor = $1 })
        add("shadowColor", get: { $0.effects.shadowColor }, set: { $0.effects.shadowColor = $1 })
        add("shadowOpacity", get: { $0.effects.shadowOpacity }, set: { $0.effects.shadowOpacity = $1 })
        add("shadowOffset", get: { $0.effects.shadowOffset }, set: { $0.effects.shadowOffset = $1 })
        add("shadowRadius", get: { $0.effects.shadowRadius }, set: { $0.effects.shadowRadius = $1 })
        add("shadowPath", get: { $0.effects.shadowPath }, set: { $0.effects.shadowPath = $1 })
        add("zPosition", get: { $0.effects.zPosition }, set: { $0.effects.zPosition = $1 })
        add("sublayerTransform", get: { $0.effects.sublayerTransform }, set: { $0.effects.sublayerTransform = $1 })
        add("contentsRect", get: { $0.effects.contentsRect }, set: { $0.effects.contentsRect = $1 })
        add("contentsCenter", get: { $0.effects.contentsCenter }, set: { $0.effects.contentsCenter = $1 })
        component("transform.rotation.z", get: { $0.rotation }, set: { $0.rotation = $1 })
        component("transform.rotation", get: { $0.rotation }, set: { $0.rotation = $1 })
        component("transform.scale.x", get: { $0.scaleX }, set: { $0.scaleX = $1 })
        component("transform.scale.y", get: { $0.scaleY }, set: { $0.scaleY = $1 })
        component("transform.scale", get: { ($0.scaleX + $0.scaleY) / 2 }, set: { $0.scaleX = $1; $0.scaleY = $1 })
        component("transform.translation.x", get: { $0.translation.x }, set: { $0.translation.x = $1 })
        component("transform.translation.y", get: { $0.translation.y }, set: { $0.translation.y = $1 })
        add("transform.translation", get: { Point(x: $0.transform.tx, y: $0.transform.ty) },
            set: { state, p in state.transform.tx = p.x; state.transform.ty = p.y })
        return table
    }()
}

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
        @MainActor func add<V: Interpolatable>(_ key: String, _ keyPath: any WritableKeyPath<LayerState, V> & Sendable) {
            table[key] = PropertyAccessor<V>(key: key, get: { $0.state[keyPath: keyPath] },
                                             set: { $0.state[keyPath: keyPath] = $1 })
        }
        @MainActor func add<V: Interpolatable>(_ key: String, get: @escaping @Sendable @MainActor (LayerState) -> V,
                                    set: @escaping @Sendable @MainActor (inout LayerState, V) -> Void) {
            table[key] = PropertyAccessor<V>(key: key, get: { get($0.state) }, set: { set(&$0.state, $1) })
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
        add("bounds", \.bounds)
        add("bounds.origin", \.bounds.origin)
        add("bounds.size", \.bounds.size)
        add("bounds.size.width", \.bounds.size.width)
        add("bounds.size.height", \.bounds.size.height)
        add("position", \.position)
        add("position.x", \.position.x)
        add("position.y", \.position.y)
        add("anchorPoint", \.anchorPoint)
        add("transform", \.transform)
        add("opacity", \.opacity)
        add("backgroundColor", \.backgroundColor)
        add("cornerRadius", \.cornerRadius)
        add("borderWidth", \.borderWidth)
        add("borderColor", \.borderColor)
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

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
        // The closures read and write the one field in place: going through a copy of the
        // whole LayerState (about 500 bytes, with its references retained) cost three copies
        // per animation per layer per frame.
        @MainActor func add<V: Interpolatable>(_ key: String, get: @escaping @MainActor @Sendable (Layer) -> V,
                                    set: @escaping @MainActor @Sendable (Layer, V) -> Void) {
            table[key] = PropertyAccessor<V>(key: key, get: get, set: set)
        }
        @MainActor func component(_ key: String, get: @escaping @Sendable (TransformComponents) -> Double,
                       set: @escaping @Sendable (inout TransformComponents, Double) -> Void) {
            add(key, get: { get(TransformComponents($0.state.transform)) },
                set: { layer, value in
                    var c = TransformComponents(layer.state.transform)
                    set(&c, value)
                    layer.state.transform = c.transform
                })
        }
        add("bounds", get: { $0.state.bounds }, set: { $0.state.bounds = $1 })
        add("bounds.origin", get: { $0.state.bounds.origin }, set: { $0.state.bounds.origin = $1 })
        add("bounds.size", get: { $0.state.bounds.size }, set: { $0.state.bounds.size = $1 })
        add("bounds.size.width", get: { $0.state.bounds.size.width }, set: { $0.state.bounds.size.width = $1 })
        add("bounds.size.height", get: { $0.state.bounds.size.height }, set: { $0.state.bounds.size.height = $1 })
        add("position", get: { $0.state.position }, set: { $0.state.position = $1 })
        add("position.x", get: { $0.state.position.x }, set: { $0.state.position.x = $1 })
        add("position.y", get: { $0.state.position.y }, set: { $0.state.position.y = $1 })
        add("anchorPoint", get: { $0.state.anchorPoint }, set: { $0.state.anchorPoint = $1 })
        add("transform", get: { $0.state.transform }, set: { $0.state.transform = $1 })
        add("opacity", get: { $0.state.opacity }, set: { $0.state.opacity = $1 })
        add("backgroundColor", get: { $0.state.backgroundColor }, set: { $0.state.backgroundColor = $1 })
        add("cornerRadius", get: { $0.state.cornerRadius }, set: { $0.state.cornerRadius = $1 })
        add("borderWidth", get: { $0.state.borderWidth }, set: { $0.state.borderWidth = $1 })
        add("borderColor", get: { $0.state.borderColor }, set: { $0.state.borderColor = $1 })
        add("shadowColor", get: { $0.state.effects.shadowColor }, set: { $0.state.effects.shadowColor = $1 })
        add("shadowOpacity", get: { $0.state.effects.shadowOpacity }, set: { $0.state.effects.shadowOpacity = $1 })
        add("shadowOffset", get: { $0.state.effects.shadowOffset }, set: { $0.state.effects.shadowOffset = $1 })
        add("shadowRadius", get: { $0.state.effects.shadowRadius }, set: { $0.state.effects.shadowRadius = $1 })
        add("shadowPath", get: { $0.state.effects.shadowPath }, set: { $0.state.effects.shadowPath = $1 })
        add("zPosition", get: { $0.state.effects.zPosition }, set: { $0.state.effects.zPosition = $1 })
        add("sublayerTransform", get: { $0.state.effects.sublayerTransform }, set: { $0.state.effects.sublayerTransform = $1 })
        add("contentsRect", get: { $0.state.effects.contentsRect }, set: { $0.state.effects.contentsRect = $1 })
        add("contentsCenter", get: { $0.state.effects.contentsCenter }, set: { $0.state.effects.contentsCenter = $1 })
        component("transform.rotation.z", get: { $0.rotation }, set: { $0.rotation = $1 })
        component("transform.rotation", get: { $0.rotation }, set: { $0.rotation = $1 })
        component("transform.scale.x", get: { $0.scaleX }, set: { $0.scaleX = $1 })
        component("transform.scale.y", get: { $0.scaleY }, set: { $0.scaleY = $1 })
        component("transform.scale", get: { ($0.scaleX + $0.scaleY) / 2 }, set: { $0.scaleX = $1; $0.scaleY = $1 })
        component("transform.translation.x", get: { $0.translation.x }, set: { $0.translation.x = $1 })
        component("transform.translation.y", get: { $0.translation.y }, set: { $0.translation.y = $1 })
        add("transform.translation", get: { Point(x: $0.state.transform.tx, y: $0.state.transform.ty) },
            set: { layer, p in layer.state.transform.tx = p.x; layer.state.transform.ty = p.y })
        return table
    }()
}

/// Fields of a layer's state, by the key paths that write them: which fields the animations
/// of a layer can change in its presentation copy (Layer+Presentation).
struct StateFields: OptionSet {
    let rawValue: UInt32
    static let bounds = StateFields(rawValue: 1 << 0)
    static let position = StateFields(rawValue: 1 << 1)
    static let anchorPoint = StateFields(rawValue: 1 << 2)
    static let transform = StateFields(rawValue: 1 << 3)
    static let opacity = StateFields(rawValue: 1 << 4)
    static let backgroundColor = StateFields(rawValue: 1 << 5)
    static let cornerRadius = StateFields(rawValue: 1 << 6)
    static let borderWidth = StateFields(rawValue: 1 << 7)
    static let borderColor = StateFields(rawValue: 1 << 8)
    static let shadowColor = StateFields(rawValue: 1 << 9)
    static let shadowOpacity = StateFields(rawValue: 1 << 10)
    static let shadowOffset = StateFields(rawValue: 1 << 11)
    static let shadowRadius = StateFields(rawValue: 1 << 12)
    static let shadowPath = StateFields(rawValue: 1 << 13)
    static let zPosition = StateFields(rawValue: 1 << 14)
    static let sublayerTransform = StateFields(rawValue: 1 << 15)
    static let contentsRect = StateFields(rawValue: 1 << 16)
    static let contentsCenter = StateFields(rawValue: 1 << 17)
    /// The fields kept in the state's effects box.
    static let effects: StateFields = [.shadowColor, .shadowOpacity, .shadowOffset, .shadowRadius, .shadowPath, .zPosition,
                                       .sublayerTransform, .contentsRect, .contentsCenter]

    /// The field a built-in key path writes (its first component names it), or nil for a
    /// key that is not built in.
    @MainActor
    static func written(byKeyPath key: String) -> StateFields? {
        if let fields = byKey[key] { return fields }
        guard BuiltInKeys.accessors[key] != nil, let dot = key.firstIndex(of: ".") else { return nil }
        return byKey[String(key[..<dot])]
    }

    private static let byKey: [String: StateFields] = [
        "bounds": .bounds,
        "position": .position,
        "anchorPoint": .anchorPoint,
        "transform": .transform,
        "opacity": .opacity,
        "backgroundColor": .backgroundColor,
        "cornerRadius": .cornerRadius,
        "borderWidth": .borderWidth,
        "borderColor": .borderColor,
        "shadowColor": .shadowColor,
        "shadowOpacity": .shadowOpacity,
        "shadowOffset": .shadowOffset,
        "shadowRadius": .shadowRadius,
        "shadowPath": .shadowPath,
        "zPosition": .zPosition,
        "sublayerTransform": .sublayerTransform,
        "contentsRect": .contentsRect,
        "contentsCenter": .contentsCenter,
    ]

    /// Sets these fields of `copy`'s state to `model`'s.
    @MainActor
    static func restore(_ fields: StateFields, of copy: Layer, from model: Layer) {
        if fields.contains(.bounds) { copy.state.bounds = model.state.bounds }
        if fields.contains(.position) { copy.state.position = model.state.position }
        if fields.contains(.anchorPoint) { copy.state.anchorPoint = model.state.anchorPoint }
        if fields.contains(.transform) { copy.state.transform = model.state.transform }
        if fields.contains(.opacity) { copy.state.opacity = model.state.opacity }
        if fields.contains(.backgroundColor) { copy.state.backgroundColor = model.state.backgroundColor }
        if fields.contains(.cornerRadius) { copy.state.cornerRadius = model.state.cornerRadius }
        if fields.contains(.borderWidth) { copy.state.borderWidth = model.state.borderWidth }
        if fields.contains(.borderColor) { copy.state.borderColor = model.state.borderColor }
        if fields.contains(.shadowColor) { copy.state.effects.shadowColor = model.state.effects.shadowColor }
        if fields.contains(.shadowOpacity) { copy.state.effects.shadowOpacity = model.state.effects.shadowOpacity }
        if fields.contains(.shadowOffset) { copy.state.effects.shadowOffset = model.state.effects.shadowOffset }
        if fields.contains(.shadowRadius) { copy.state.effects.shadowRadius = model.state.effects.shadowRadius }
        if fields.contains(.shadowPath) { copy.state.effects.shadowPath = model.state.effects.shadowPath }
        if fields.contains(.zPosition) { copy.state.effects.zPosition = model.state.effects.zPosition }
        if fields.contains(.sublayerTransform) { copy.state.effects.sublayerTransform = model.state.effects.sublayerTransform }
        if fields.contains(.contentsRect) { copy.state.effects.contentsRect = model.state.effects.contentsRect }
        if fields.contains(.contentsCenter) { copy.state.effects.contentsCenter = model.state.effects.contentsCenter }
    }
}

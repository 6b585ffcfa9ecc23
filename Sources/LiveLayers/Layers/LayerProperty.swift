// LayerProperty: custom layer properties, copied into presentation copies by construction.

/// Declares a custom property of a ``Layer`` subclass: the Swift counterpart of an `@dynamic`
/// (`@NSManaged`) property of a `CALayer` subclass.
///
/// ```swift
/// final class ArrowLayer: Layer {
///     @LayerProperty var lengthRadians = 0.0       // animatable: Double is Interpolatable
///     @LayerProperty var lineJoin: LineJoin = .round // copied, not animatable
/// }
/// ```
///
/// The property's key (for animations, actions and ``Layer/needsDisplay(forKey:)``) is its
/// name. Values live in the layer's keyed storage, which every presentation copy duplicates,
/// so there is no `init(layer:)` to forget: the copy is made with the subclass's `required
/// init()` (which the compiler insists on) and then receives every declared property.
/// Properties whose type is ``Interpolatable`` can be animated; others are copied only.
///
/// Setting the property goes through the layer, like any built-in property: it joins the
/// current transaction, runs the action for the key (none by default for custom properties,
/// as in Core Animation, unless ``Layer/actions`` or ``Layer/action(forKey:)`` provides one)
/// and asks for redisplay when ``Layer/needsDisplay(forKey:)`` is `true` for it.
@propertyWrapper
public struct LayerProperty<Value: Sendable>: AnyLayerPropertyDeclaration {
    @usableFromInline let box: PropertyBox<Value>
    let accessorFactory: (@MainActor @Sendable (String, Int) -> AnyPropertyAccessor)?

    /// A property that is copied into presentation copies but cannot be animated.
    public init(wrappedValue: Value) {
        box = PropertyBox(wrappedValue)
        accessorFactory = nil
    }

    /// An animatable property.
    public init(wrappedValue: Value) where Value: Interpolatable {
        box = PropertyBox(wrappedValue)
        accessorFactory = { key, slot in
            PropertyAccessor<Value>(key: key,
                                    get: { layer in unsafeDowncast(layer.propertyBoxes[slot], to: PropertyBox<Value>.self).value },
                                    set: { layer, value in unsafeDowncast(layer.propertyBoxes[slot], to: PropertyBox<Value>.self).value = value })
        }
    }

    /// Only available inside a ``Layer`` subclass.
    @available(*, unavailable, message: "@LayerProperty can only be used on properties of a Layer subclass")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    /// Reads and writes the value through the owning layer.
    @MainActor
    public static subscript<Owner: Layer>(
        _enclosingInstance layer: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        // Inlinable, so the reading module folds the key path into a load of the storage: read
        // through the key path at run time (swift_getAtKeyPath), the arrow's ten reads a frame
        // cost about 1,000 instructions each.
        @inlinable get { layer[keyPath: storageKeyPath].box.value }
        set {
            let box = layer[keyPath: storageKeyPath].box
            layer.customPropertyWillChange(box)
            box.value = newValue
            layer.customPropertyDidChange(box)
        }
    }

    var anyBox: AnyPropertyBox { box }
}

/// What the layer finds, by reflection, among its stored properties.
protocol AnyLayerPropertyDeclaration {
    var anyBox: AnyPropertyBox { get }
    var accessorFactory: (@MainActor @Sendable (String, Int) -> AnyPropertyAccessor)? { get }
}

/// One custom property's value in one layer.
@usableFromInline
class AnyPropertyBox {
    /// The slot in the layer's storage, set when the layer discovers it.
    var slot = -1

    /// Copies the value of the box in the same slot of another layer of the same class.
    func assign(from other: AnyPropertyBox) {}
}

@usableFromInline
final class PropertyBox<Value>: AnyPropertyBox {
    // Unchecked exclusivity: the value is read or written in one statement each time (the
    // property's getter and setter, `assign`, the accessors' closures), never held across a
    // call; a dynamic check on each access cost about 80 instructions (16 copies a frame into
    // the arrow's presentation copy).
    @exclusivity(unchecked) @usableFromInline var value: Value

    init(_ value: Value) {
        self.value = value
    }

    override func assign(from other: AnyPropertyBox) {
        value = unsafeDowncast(other, to: PropertyBox<Value>.self).value
    }
}

/// The custom properties of one layer class, found once by reflection.
@MainActor
final class LayerSchema {
    let keys: [String]
    let slots: [String: Int]
    let accessors: [AnyPropertyAccessor?]

    init(keys: [String], accessors: [AnyPropertyAccessor?]) {
        self.keys = keys
        self.accessors = accessors
        var slots: [String: Int] = [:]
        for (i, k) in keys.enumerated() where slots[k] == nil { slots[k] = i }
        self.slots = slots
    }

    private static var cache: [ObjectIdentifier: LayerSchema] = [:]

    /// The custom property boxes of `layer`, in slot order, and its class's schema.
    ///
    /// Reflection (`Mirror`) plays the part of the seed's `class_copyPropertyList`: it lists the
    /// `@LayerProperty` storage of the class and of its superclasses.
    static func discover(in layer: Layer) -> (LayerSchema, [AnyPropertyBox]) {
        let id = ObjectIdentifier(type(of: layer))
        if let schema = cache[id], schema.keys.isEmpty { return (schema, []) }
        var keys: [String] = [], boxes: [AnyPropertyBox] = [], factories: [(@MainActor @Sendable (String, Int) -> AnyPropertyAccessor)?] = []
        var mirror: Mirror? = Mirror(reflecting: layer)
        while let m = mirror {
            for child in m.children {
                guard let declaration = child.value as? AnyLayerPropertyDeclaration else { continue }
                var key = child.label ?? "property\(keys.count)"
                if key.hasPrefix("_") { key.removeFirst() }
                keys.append(key)
                boxes.append(declaration.anyBox)
                factories.append(declaration.accessorFactory)
            }
            mirror = m.superclassMirror
        }
        for (i, box) in boxes.enumerated() { box.slot = i }
        if let schema = cache[id] { return (schema, boxes) }
        let accessors = factories.enumerated().map { i, factory in factory?(keys[i], i) }
        let schema = LayerSchema(keys: keys, accessors: accessors)
        cache[id] = schema
        return (schema, boxes)
    }
}

// Layer: a node of the layer tree with Core Animation's model/presentation split (CALayer).

import Raster

/// A rectangle of content in a tree of layers, animated with Core Animation's semantics,
/// as `CALayer`.
///
/// ## Model and presentation
/// Setting a property sets the **model** value. Animations never change it: they are applied to
/// a **presentation copy** (``presentation()``, `nil` while nothing is animating), which holds
/// the values on screen at the current media time (``LayerClock``). Rendering uses the
/// presentation copies.
///
/// ## Geometry
/// ``position`` is where the ``anchorPoint`` (normalised, default (0.5, 0.5)) of the
/// ``bounds`` sits in the superlayer; ``transform`` is applied about the anchor point. The
/// y axis grows downward, as on iOS.
///
/// ## Subclassing
/// Declare custom properties with ``LayerProperty`` and override ``needsDisplay(forKey:)`` to
/// redraw when they change or animate, and `draw(in:)` to draw. Presentation copies are made
/// with the `required init()`, so a subclass that declares a designated initializer must also
/// implement `init()`; the compiler enforces it.
@MainActor
open class Layer {
    // MARK: Storage

    // The fields a frame reads for every animated layer come first, in the order it reads
    // them, and the state right after them, its animated fields first: the layer and its
    // presentation copy take three cache lines each (with 10,000 layers the tree no longer fits
    // in the cache, and each line a frame touches is a miss). What a frame reads only in rarer
    // cases (a mask's owner, a timing that is not the identity) comes after the state.
    let isPresentationCopy: Bool
    var hasBeenCommitted = false
    /// Whether `attachedAnimations` is not empty, whether one of them is committed, and whether
    /// a committed one redraws the layer: kept here so that a frame reads no list or record
    /// (each in another object: a miss apiece with 10,000 layers). Set by `animationsChanged`.
    var hasAttachedAnimations = false
    var hasCommittedAnimation = false
    var hasRedrawingAnimation = false
    /// Whether `timing` is the identity, so that `localTime` need not read it.
    var hasIdentityTiming = true
    var needsDisplayFlag = false
    /// Set by the default `draw(in:)` when there is no delegate: nothing to keep a backing store for.
    var drawsNothing = false
    /// The renderer's per-layer record (backing store, last device bounds), on the first line
    /// with the sublayers and mask: drawing a leaf reads nothing else of the layer.
    var renderRecord: AnyObject?
    var sublayerStorage: [Layer] = []
    var maskStorage: Layer?
    var presentationCopy: Layer?
    // Back-pointers are unowned(unsafe), not weak: a weak reference gives its target a side
    // table, which makes every retain of a layer slow. They are kept valid by hand instead:
    // a layer's deinit clears the pointers of the layers that point at it (see `deinit`).
    unowned(unsafe) var superlayerStorage: Layer?
    /// The committed animations' evaluators in the order they apply, in one buffer: what a
    /// presentation refresh runs (see `animationsChanged`).
    var animationSlots: ContiguousArray<AnimationSlot> = []
    var presentationStamp = (time: Double.nan, version: -1, epoch: -1)
    /// The last `localTime(fromMediaTime:)`: its timing epoch, media time (bit pattern, so that
    /// -0 and NaN are told apart) and answer. Every layer under a Lottie root asks it at each
    /// frame (the root's time offset moves), each through all its ancestors: with the answer
    /// kept, each ancestor works it out once a frame.
    var localTimeCache = (epoch: -1, mediaTime: UInt64(0), localTime: 0.0)
    /// Whether this layer or an ancestor has speed 0, at the timing epoch `pausedCache.epoch`.
    var pausedCache = (epoch: -1, isPaused: false)
    /// The copy's `modelVersion` at its last full refresh (a write to the copy itself bumps
    /// it), and the state fields the committed animations write into the copy, found then
    /// (nil: some animation writes something else).
    var copyVersionAtRefresh = -1
    var animatedFields: StateFields?
    /// A presentation copy's other effects box, for animations that write effects: while
    /// the renderer keeps the box of the last frame, the next frame's values go into this one
    /// (see `LayerState.ownEffects`).
    var spareEffectsBox: LayerEffectsBox?
    /// The storage of ``contents``, internal so that the renderer's reads need no dynamic
    /// exclusivity check (see LayerTiming).
    var contentsStorage: Bitmap?
    /// On the line of the contents and the state's animated fields, the only line of a
    /// presentation copy that its refresh reads past the first: on the line above, reading the
    /// copy's version cost a miss a layer with 10,000.
    var modelVersion = 0
    private(set) var propertyBoxes: [AnyPropertyBox] = []
    /// The serial of ``contents`` (bumped each time it is set, even to the same bitmap): read by
    /// every frame a renderer prepares, before the state.
    var contentsSerial = 0
    /// Unchecked exclusivity: the effects' copy-on-write accessor inside some writes of the
    /// state made the optimizer keep a dynamic check on every access to it, reads included
    /// (four per animated layer a frame, 750 instructions). Nothing here holds an access to
    /// the state across a call that could reach the same layer's state.
    @exclusivity(unchecked) final var state = LayerState()
    /// The layer this one masks.
    unowned(unsafe) var maskOwner: Layer?
    /// The storage of the three timing properties (read for every ancestor by `localTime`
    /// unless `hasIdentityTiming`).
    var timing = LayerTiming()
    private(set) var schema: LayerSchema
    var attachedAnimations: [AttachedAnimation] = []

    unowned(unsafe) var modelLayer: Layer?
    /// Bumped on every change that can alter what the layer or its subtree draws.
    var renderVersion = 0
    var isQueuedForCommit = false
    /// Where the layer is in the runtime's watch list, or -1: taking a freed layer off the list
    /// is then a swap, not a search (freeing a tree of n animated layers searched n times).
    var watchIndex = -1
    var isWatched: Bool { watchIndex >= 0 }
    private var pendingChange: (key: String, previous: any Interpolatable)?

    static var creatingPresentationCopy = false

    // MARK: Life cycle

    /// Creates a layer with Core Animation's defaults: zero bounds at the origin, anchor point
    /// (0.5, 0.5), opacity 1, no background.
    public required init() {
        isPresentationCopy = Layer.creatingPresentationCopy
        schema = LayerSchema.empty
        let (schema, boxes) = LayerSchema.discover(in: self)
        self.schema = schema
        propertyBoxes = boxes
        if !isPresentationCopy { LayerRuntime.shared.touch(self) }
    }

    isolated deinit {
        if !isPresentationCopy, !attachedAnimations.isEmpty || isWatched { LayerRuntime.shared.unwatch(self) }
        // The layers it leaves without a superlayer or owner keep time differently now.
        if !isPresentationCopy, !sublayerStorage.isEmpty || maskStorage != nil { LayerRuntime.shared.timingEpoch &+= 1 }
        for sublayer in sublayerStorage where sublayer.superlayerStorage === self {
            sublayer.superlayerStorage = nil
            sublayer.presentationCopy?.superlayerStorage = nil
        }
        if let mask = maskStorage, mask.maskOwner === self { mask.maskOwner = nil }
        presentationCopy?.modelLayer = nil
        if let owner = maskOwner, owner.maskStorage === self { owner.maskStorage = nil }
    }

    /// A debugging name.
    public var name: String?

    /// The object that may draw the content and pick actions; not retained.
    public weak var delegate: (any LayerDelegate)? {
        didSet { presentationCopy?.delegate = delegate }
    }

    /// Actions by key, searched after the delegate: map a key to an ``Animation`` to customise
    /// its implicit animation, or to ``NullAction`` to turn it off.
    public var actions: [String: any Action] = [:]

    // MARK: Built-in properties

    /// The layer's own coordinate space: its origin is the top-left of the content and its size
    /// the layer's size. Animatable.
    public var bounds: Rect {
        get { state.bounds }
        set { set(\.bounds, newValue, key: "bounds") }
    }

    /// Where the anchor point lies in the superlayer's coordinates. Animatable.
    public var position: Point {
        get { state.position }
        set { set(\.position, newValue, key: "position") }
    }

    /// The point of the bounds, in unit coordinates, that sits at ``position`` and that the
    /// transform turns about. Default (0.5, 0.5). Animatable.
    public var anchorPoint: Point {
        get { state.anchorPoint }
        set { set(\.anchorPoint, newValue, key: "anchorPoint") }
    }

    /// The transform applied about the anchor point. Animatable, also through the key paths
    /// `transform.rotation.z`, `transform.scale(.x/.y)` and `transform.translation(.x/.y)`.
    public var transform: Transform {
        get { state.transform }
        set { set(\.transform, newValue, key: "transform") }
    }

    /// The opacity, 0...1. With ``allowsGroupOpacity`` (the default, as on iOS) a layer with
    /// sublayers is composited as one picture at this opacity; otherwise it multiplies into each
    /// sublayer's. Animatable.
    public var opacity: Double {
        get { state.opacity }
        set { set(\.opacity, newValue, key: "opacity") }
    }

    /// Whether the layer and its sublayers are not drawn.
    public var isHidden: Bool {
        get { state.isHidden }
        set { set(\.isHidden, newValue, key: "hidden") }
    }

    /// The colour filling the bounds (with rounded corners) behind the content. Animatable.
    public var backgroundColor: Color? {
        get { state.backgroundColor }
        set { set(\.backgroundColor, newValue, key: "backgroundColor") }
    }

    /// The radius of the corners of the background, border and ``masksToBounds`` clip. Animatable.
    public var cornerRadius: Double {
        get { state.cornerRadius }
        set { set(\.cornerRadius, newValue, key: "cornerRadius") }
    }

    /// The width of the border drawn inside the bounds, above the content and sublayers. Animatable.
    public var borderWidth: Double {
        get { state.borderWidth }
        set { set(\.borderWidth, newValue, key: "borderWidth") }
    }

    /// The border's colour. Default opaque black. Animatable.
    public var borderColor: Color {
        get { state.borderColor }
        set { set(\.borderColor, newValue, key: "borderColor") }
    }

    /// Whether sublayers and content are clipped to the bounds (with rounded corners).
    public var masksToBounds: Bool {
        get { state.masksToBounds }
        set { set(\.masksToBounds, newValue, key: "masksToBounds") }
    }

    /// How ``contents`` is placed in the bounds.
    public var contentsGravity: ContentsGravity {
        get { state.contentsGravity }
        set { set(\.contentsGravity, newValue, key: "contentsGravity") }
    }

    /// An image shown in the bounds, placed by ``contentsGravity``, above the background.
    /// A layer that draws (`draw(in:)`) keeps its drawing here instead. Setting the same
    /// bitmap again after changing its pixels marks it changed.
    public var contents: Bitmap? {
        get { contentsStorage }
        set {
            contentsStorage = newValue
            guard !isPresentationCopy else { return }
            contentsSerial &+= 1
            didChange(key: "contents", previous: nil)
        }
    }

    /// Whether a bounds change asks for redisplay. Default `false`.
    public var needsDisplayOnBoundsChange = false

    /// The layer that masks this one: its alpha multiplies this layer's. It is positioned in
    /// this layer's coordinates and must not have a superlayer (it is removed from it).
    public var mask: Layer? {
        get { maskStorage }
        set {
            guard newValue !== maskStorage else { return }
            if let newValue {
                if newValue === self {
                    Diagnostics.warn("a layer cannot mask itself; ignored")
                    return
                }
                newValue.removeFromSuperlayer()
                newValue.maskOwner?.maskStorage = nil
                newValue.maskOwner = self
            }
            maskStorage?.maskOwner = nil
            maskStorage = newValue
            LayerRuntime.shared.timingEpoch &+= 1
            didChange(key: "mask", previous: nil)
        }
    }

    // MARK: Layer timing (CAMediaTiming on layers)

    /// When the layer's timeline begins, in its superlayer's time. Default 0.
    public var beginTime: Double {
        get { timing.beginTime }
        set { timing.beginTime = newValue; didChangeTiming() }
    }
    /// How fast the layer's time runs relative to its superlayer's; 0 pauses its animations.
    public var speed: Double {
        get { timing.speed }
        set { timing.speed = newValue; didChangeTiming() }
    }
    /// Added to the layer's time after `speed` (the pause/resume idiom of Technical Q&A QA1673).
    public var timeOffset: Double {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue; didChangeTiming() }
    }

    // MARK: Class-level customisation

    /// Whether a change to (or an animation of) the property `key` redraws the layer; while such
    /// an animation runs, the layer is redrawn every frame. Override for custom properties.
    /// Default `false`, and Apple advises not to return `true` for the built-in properties.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// The action used when nothing else provides one for `key`: an implicit
    /// ``BasicAnimation`` (transaction duration and timing function) for the built-in
    /// animatable properties, `nil` for the rest, including custom properties.
    open class func defaultAction(forKey key: String) -> (any Action)? {
        guard Layer.implicitlyAnimatedKeys.contains(key) else { return nil }
        return Layer.implicitAnimation(forKey: key)
    }

    /// The action for `key`: the delegate's, then ``actions``, then ``defaultAction(forKey:)``.
    /// ``NullAction`` anywhere stops the search and gives `nil`.
    open func action(forKey key: String) -> (any Action)? {
        if let action = delegate?.action(for: self, forKey: key) {
            return action is NullAction ? nil : action
        }
        if let action = actions[key] {
            return action is NullAction ? nil : action
        }
        return type(of: self).defaultAction(forKey: key)
    }

    static let implicitlyAnimatedKeys: Set<String> = [
        "bounds", "position", "anchorPoint", "transform", "opacity", "backgroundColor",
        "cornerRadius", "borderWidth", "borderColor",
        "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath", "zPosition",
        "sublayerTransform", "contentsRect", "contentsCenter",
    ]

    /// The implicit animation Core Animation uses: a basic animation from the shown value to
    /// the new one, with the transaction's duration and timing function (default curve).
    public static func implicitAnimation(forKey key: String) -> BasicAnimation {
        let animation = BasicAnimation(keyPath: key)
        animation.duration = Transaction.animationDuration
        animation.timingFunction = Transaction.animationTimingFunction ?? .default
        return animation
    }

    // MARK: Change handling

    func set<V: Equatable>(_ keyPath: WritableKeyPath<LayerState, V>, _ value: V, key: String) {
        // Written through a local copy: a key-path write into the stored property would be an
        // access that could overlap others, and would cost every read of `state` a dynamic
        // exclusivity check (see LayerTiming).
        var changed = state
        changed[keyPath: keyPath] = value
        if isPresentationCopy {
            state = changed
            modelVersion &+= 1          // the next refresh copies the whole state again
            return
        }
        let previous = previousValueForAction(key: key)
        state = changed
        didChange(key: key, previous: previous)
        if key == "bounds" && needsDisplayOnBoundsChange { setNeedsDisplay() }
    }

    func customPropertyWillChange(_ box: AnyPropertyBox) {
        guard !isPresentationCopy else { return }
        pendingChange = nil
        if let previous = previousValueForAction(key: schema.keys[box.slot]) {
            pendingChange = (schema.keys[box.slot], previous)
        }
    }

    func customPropertyDidChange(_ box: AnyPropertyBox) {
        guard !isPresentationCopy else { return }
        let key = schema.keys[box.slot]
        let previous = pendingChange?.key == key ? pendingChange?.previous : nil
        pendingChange = nil
        didChange(key: key, previous: previous)
    }

    /// Whether a change now would look for an action: the layer has been committed, is not a
    /// root layer (it has a superlayer) and actions are enabled.
    var runsActions: Bool {
        !isPresentationCopy && hasBeenCommitted && superlayerStorage != nil && !Transaction.disableActions
    }

    /// The value on screen for `key` before a change, for the animation the change may start.
    func previousValueForAction(key: String) -> (any Interpolatable)? {
        guard runsActions else { return nil }
        return presentationValue(forKeyPath: key)
    }

    func didChange(key: String, previous: (any Interpolatable)?) {
        modelVersion &+= 1
        renderVersion &+= 1
        LayerRuntime.shared.touch(self)
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        guard runsActions, let action = action(forKey: key) else { return }
        if let previous { pendingChange = (key, previous) }
        action.run(forKey: key, on: self)
        pendingChange = nil
    }

    /// The value shown before the change being handled, if `key` is the key changing.
    func previousValue(forChangeOf key: String) -> (any Interpolatable)? {
        pendingChange?.key == key ? pendingChange?.previous : nil
    }

    private func didChangeTiming() {
        hasIdentityTiming = timing.isIdentity
        guard !isPresentationCopy else { return }
        LayerRuntime.shared.timingEpoch &+= 1
        modelVersion &+= 1
        renderVersion &+= 1
        LayerRuntime.shared.touch(self)
    }

    // MARK: Hit-testing

    /// Whether `point`, in this layer's own coordinate space, lies inside its ``bounds``
    /// (the minimum edges included, the maximum ones not), as `CALayer.contains(_:)`.
    /// ``hitTest(_:)`` asks it; override it to give a layer another hit shape.
    open func contains(_ point: Point) -> Bool { state.bounds.contains(point) }

    // MARK: Display

    /// Draws the layer's content, in its own coordinates (the bounds), into its backing store.
    ///
    /// Called by the renderer after ``setNeedsDisplay()``, and every frame while a property for
    /// which ``needsDisplay(forKey:)`` is `true` animates; then it is called on the presentation
    /// copy, so the properties it reads hold the animated values. Drawing is clipped to the
    /// bounds. The default asks the delegate to draw. As in Core Animation, a layer is not
    /// drawn until it is first marked as needing display.
    open func draw(in context: GraphicsContext) {
        if let delegate {
            delegate.draw(self, in: context)
        } else {
            drawsNothing = true
        }
    }

    /// Content drawn straight into the destination each time the layer is composited, instead
    /// of through a backing store (``ShapeLayer``): vector content stays sharp under any
    /// transform and may extend beyond the bounds.
    func drawDirectContent(in context: GraphicsContext) {}

    /// The extent of the direct content in layer coordinates, or `nil` when there is none.
    var directContentBounds: Rect? { nil }

    /// Marks the layer's drawn content stale: it is redrawn (`draw(in:)`) before the next render.
    public func setNeedsDisplay() {
        guard !isPresentationCopy else { return }
        if !needsDisplayFlag {
            needsDisplayFlag = true
            renderVersion &+= 1
            LayerRuntime.shared.displayRequested = true
        }
    }

    /// Whether the layer is waiting to be redrawn.
    public func needsDisplay() -> Bool { needsDisplayFlag }
}

extension LayerSchema {
    static let empty = LayerSchema(keys: [], accessors: [])
}

// RenderRecord: what the renderer remembers about one layer between frames.

import Raster

/// Everything that decides a layer's pixels, compared frame to frame for damage.
///
/// The layer's own fields that decide them, not a copy of its state: the position, anchor point
/// and transform reach the pixels only through the device transform, and the state's opacity
/// only through the opacity down the tree and whether the layer is a group, which are here. A
/// copy (330 bytes with them) was read and written for every layer every frame.
struct RenderSignature {
    var deviceTransform = Transform.identity
    var opacity = 1.0
    var bounds = Rect.zero
    var backgroundColor: Color?
    var cornerRadius = 0.0
    var borderWidth = 0.0
    var borderColor = Color.black
    var contentsSerial = 0
    var contentVersion = 0
    var clipKey = 0
    /// The layer's place in painting order: moving a layer in front of or behind a sibling
    /// changes it, and with it the pixels where the two overlap.
    var paintOrder = 0
    var effectsBox = LayerEffectsBox.defaults
    var contentsGravity = ContentsGravity.resize
    var masksToBounds = false
    var hasMask = false
    var isGroup = false

    init() {}

    /// The signature of `shown`, a visible layer, read field by field (a copy of its state
    /// would read and retain all of it).
    @MainActor
    init(of shown: Layer, deviceTransform: Transform, opacity: Double, isGroup: Bool, contentsSerial: Int,
         contentVersion: Int, clipKey: Int, hasMask: Bool, paintOrder: Int) {
        self.deviceTransform = deviceTransform
        self.opacity = opacity
        bounds = shown.state.bounds
        backgroundColor = shown.state.backgroundColor
        cornerRadius = shown.state.cornerRadius
        borderWidth = shown.state.borderWidth
        borderColor = shown.state.borderColor
        self.contentsSerial = contentsSerial
        self.contentVersion = contentVersion
        self.clipKey = clipKey
        self.paintOrder = paintOrder
        effectsBox = shown.state.effectsBox
        contentsGravity = shown.state.contentsGravity
        masksToBounds = shown.state.masksToBounds
        self.hasMask = hasMask
        self.isGroup = isGroup
    }

    var effects: LayerEffects { effectsBox.value }


    /// Whether a layer with this signature draws the same pixels into its group picture as one
    /// with `other`: what applies only when the picture is composited (opacity, blend mode, the
    /// clip from above, the painting order among siblings) or beside it (the shadow) aside.
    func drawsSamePicture(as other: RenderSignature) -> Bool {
        deviceTransform == other.deviceTransform && contentsSerial == other.contentsSerial
            && contentVersion == other.contentVersion && hasMask == other.hasMask
            && bounds == other.bounds && backgroundColor == other.backgroundColor
            && cornerRadius == other.cornerRadius && borderWidth == other.borderWidth
            && borderColor == other.borderColor && masksToBounds == other.masksToBounds
            && contentsGravity == other.contentsGravity
            && (effectsBox === other.effectsBox || effectsBox.value.drawsSamePicture(as: other.effectsBox.value))
    }
}

/// What drawing a sublayer that paints only a fill needs, kept by its superlayer's record in
/// painting order: a frame walks them in one array instead of reading each sublayer and its
/// record (two objects, five cache lines and two retains a sublayer, each a miss with 10,000).
struct SublayerPaint {
    enum Kind: UInt8 {
        /// Nothing to draw: hidden, or transparent down the tree.
        case none
        /// `color` over `bounds` (no fill when `hasColor` is false), at `transform` and `opacity`.
        case fill
        /// Anything else: drawn through the sublayer.
        case layer
    }

    /// The device pixels the fill can touch (its subtree's too: a leaf without effects).
    var deviceRect = IntRect.zero
    var transform = Transform.identity
    var opacity = 1.0
    var color = Color.clear
    var bounds = Rect.zero
    var kind = Kind.layer
    var hasColor = false
}

/// The renderer's per-layer memory: the layer as shown this frame, where it landed, its
/// backing store, and last frame's signature and device rectangle.
@MainActor
final class RenderRecord {
    // What drawing a leaf reads comes first, on the object's first four cache lines (with
    // 10,000 layers each line a frame touches is a miss), then what preparing a frame reads or
    // writes for every layer, the signature last of it; sublayers, groups, shadows, replicas,
    // masks and pictures after them.
    /// The renderer this record belongs to: its identifier, compared on every lookup, and a weak
    /// reference that tells when it is gone. Another renderer's record follows in `next`.
    let rendererID: Int
    var isVisible = false
    /// Effects (LayerRenderer+Effects): whether the subtree is one offscreen picture.
    var isGroup = false
    /// Whether anything in the layer's subtree (its own signature included) changed this frame.
    var hasChanged = true
    var hasSignature = false
    /// Drawn content recorded as path fills (instead of a backing store) while `hasFills`.
    var hasFills = false
    /// Whether the layer paints nothing but its background, a plain rectangle (`fillColor`
    /// over `fillBounds`, none when nil): no sublayers, mask, clip, border, corner radius,
    /// contents, drawing or direct content. Drawing such a layer reads this record and not the
    /// shown layer, whose state lies on lines of their own (10,000 leaves, each a miss).
    var paintsOnlyFill = false
    /// Whether the sublayers were prepared this frame (not under a hidden layer or one at zero
    /// opacity, or the layer is a replicator).
    var preparedSublayers = false
    var opacity = 1.0
    /// The layer's and its visible descendants' pixels, for skipping subtrees outside damage
    /// (drawing and the occlusion search ask it first, of every layer, for each damaged rectangle).
    var subtreeRect = IntRect.zero
    /// Where the cached shadow lands (empty without one).
    var shadowRect = IntRect.zero
    /// The layer's own pixels in device space, this frame and last frame.
    var deviceRect = IntRect.zero
    var deviceTransform = Transform.identity
    var fillColor: Color?
    var fillBounds = Rect.zero
    // What preparing a frame reads or writes for every layer, the signature with it: with the
    // above, ten cache lines, where the rarer fields between them spread it over twelve.
    /// The layer whose values are drawn this frame: the presentation copy or the model.
    unowned(unsafe) var shown: Layer
    /// The frame this record was last visited in.
    var generation = 0
    var backingStore: Bitmap?
    var fills: FillRecording?
    /// The sublayers in drawing order when some have a non-zero zPosition; empty otherwise.
    var drawOrder: [Layer] = []
    var contentVersion = 0
    /// How many layers (masks included) the subtree had last frame: one fewer means one was removed.
    var subtreeCount = 0
    /// What decided the group's alpha and blend.
    var groupKey = 0
    var previousRect = IntRect.zero
    /// The subtree's pixels before effects (shadow) are added.
    var contentRect = IntRect.zero
    /// Last frame's signature.
    var signature = RenderSignature()

    // What only layers with sublayers, effects, replicas or masks need.
    /// The widest and the tallest of the sublayers' `subtreeRect`s: a damaged rectangle larger
    /// than both lies in no sublayer's subtree, so the occlusion search need not look at them
    /// (a whole-frame rectangle over 10,000 small leaves read each one's record and missed).
    var sublayerExtent = (width: 0, height: 0)
    /// The sublayers' paints (see `SublayerPaint`), in `sublayerStorage` order, as prepared in
    /// frame `sublayerPaintsFrame`. Exclusivity unchecked: only the renderer's frame methods
    /// touch it, and an append would otherwise be checked at run time for each sublayer.
    @exclusivity(unchecked) var sublayerPaints: ContiguousArray<SublayerPaint> = []
    var sublayerPaintsFrame = -1
    /// The occlusion pass (LayerRenderer+Occlusion) in which this layer was an ancestor of the
    /// occluder, and the same for the lower band of a frame drawn on two threads (its own, so
    /// the threads never write one field).
    var occlusionPass = 0
    var bandOcclusionPass = 0
    var backingContext: GraphicsContext?
    /// A replicator's instances: their device extent and what decided their pixels, last frame.
    var replicaRect = IntRect.zero
    var replicaKey = 0
    /// The cached shadow.
    var shadowKey = 0
    var shadowIsStale = true
    var shadowBlur: AlphaBlur?
    var shadowShift = (dx: 0, dy: 0, sigma: 0.0)
    /// The device pixel at pixel (0, 0) of the picture the shadow was blurred from.
    var shadowOrigin = (x: 0, y: 0)
    /// A group's picture, kept while nothing in its subtree changes: the device rectangle it
    /// holds and the last frame it is up to date with.
    var picture: OffscreenPicture?
    var pictureRect = IntRect.zero
    var pictureFrame = Int.min
    /// A mask layer's picture drawn into alpha, kept like a group's (LayerRenderer+MaskPictures).
    var maskPicture: OffscreenPicture?
    var maskPictureRect = IntRect.zero
    var maskPictureFrame = Int.min
    var maskPictureMode = MaskMode.alpha
    weak var renderer: LayerRenderer?
    var next: RenderRecord?

    init(shown: Layer, renderer: LayerRenderer) {
        self.shown = shown
        self.rendererID = renderer.identifier
        self.renderer = renderer
    }

    private var fillRecorder: GraphicsContext?
    /// False once the layer's drawing turned out not to be only solid fills.
    var isRecordable = true
    /// The content version the backing store was last rasterized from the fills at.
    var storeVersion = -1
    /// A mask layer's coverage in device space, while `tracksCoverage`.
    var coverage: TrackedCoverage?
    var tracksCoverage = false
    var coverageKey: CoverageKey?
    /// A mask layer's own damage this frame (old and new rectangles), for its owner to add
    /// when the mask is drawn into pixels rather than tracked as coverage.
    var maskSelfDamage = (IntRect.zero, IntRect.zero)
    /// A gradient layer's shading as last prepared, and a spare refilled for the next change
    /// (LayerRenderer+Gradients).
    var gradientShading: Shading?
    var spareGradientShading: Shading?

    /// Whether last frame's signature is `b`. Field by field from the stored one: a method of
    /// the signature, or `==`, takes it by value, a copy out of the record (and a retain of its
    /// effects box) for every layer every frame.
    func hasSignature(equalTo b: RenderSignature) -> Bool {
        signature.deviceTransform == b.deviceTransform && signature.opacity == b.opacity
            && signature.bounds == b.bounds && signature.backgroundColor == b.backgroundColor
            && signature.cornerRadius == b.cornerRadius && signature.borderWidth == b.borderWidth
            && signature.borderColor == b.borderColor && signature.contentsSerial == b.contentsSerial
            && signature.contentVersion == b.contentVersion && signature.clipKey == b.clipKey
            && signature.paintOrder == b.paintOrder && signature.contentsGravity == b.contentsGravity
            && signature.masksToBounds == b.masksToBounds && signature.hasMask == b.hasMask
            && signature.isGroup == b.isGroup
            && (signature.effectsBox === b.effectsBox || signature.effectsBox.value == b.effectsBox.value)
    }

    /// Folds what a mask layer's owner draws differently for into `hasher`: field by field from
    /// the stored signature, as `hasSignature(equalTo:)` (a copy of it read about 200 bytes and
    /// retained and released its effects box, for each layer of a mask's subtree every frame).
    func combineMaskFields(into hasher: inout Hasher) {
        hasher.combine(signature.contentVersion)
        hasher.combine(signature.contentsSerial)
        hasher.combine(signature.opacity)
        hasher.combine(signature.deviceTransform)
        hasher.combine(signature.bounds)
    }

    /// The pixel size of a backing store for `bounds`, or nil when it would be empty or too big.
    static func storeRect(for bounds: Rect) -> IntRect? {
        let w = bounds.width.rounded(.up), h = bounds.height.rounded(.up)
        guard w > 0, h > 0, w <= Double(Bitmap.maximumSide), h <= Double(Bitmap.maximumSide) else { return nil }
        return IntRect(x: 0, y: 0, width: Int(w), height: Int(h))
    }

    /// A context recording into ``fills``, restarted for a drawing clipped to `clip`.
    func recorder(clip: IntRect) -> GraphicsContext {
        if let fillRecorder {
            fillRecorder.restartRecording(clip: clip)
            return fillRecorder
        }
        let recording = FillRecording()
        let context = GraphicsContext(recordingInto: recording, clip: clip)
        fills = recording
        fillRecorder = context
        return context
    }

    /// The backing store sized for `bounds`, reusing the old one when the size is unchanged.
    func backing(for bounds: Rect) -> (Bitmap, GraphicsContext)? {
        guard let size = Self.storeRect(for: bounds) else {
            backingStore = nil
            backingContext = nil
            return nil
        }
        let w = size.width, h = size.height
        if let store = backingStore, let context = backingContext, store.width == w, store.height == h {
            return (store, context)
        }
        guard let store = try? Bitmap(width: w, height: h) else { return nil }
        let context = GraphicsContext(bitmap: store)
        backingStore = store
        backingContext = context
        return (store, context)
    }
}

extension Layer {
    /// This layer's record in `renderer`, created on first use.
    ///
    /// Each renderer keeps its own records (last frame's signature, backing store, damage), so
    /// two renderers of one tree never see each other's frames as their own. The layer keeps
    /// them in a short chain, the first renderer's first; records of renderers that are gone
    /// are dropped while looking.
    func record(in renderer: LayerRenderer) -> RenderRecord {
        let id = renderer.identifier
        // No closure here: the lower band of a frame drawn on two threads looks records up
        // off the main thread, where a main-actor closure handed to the standard library
        // would fail its isolation check.
        guard let stored = renderRecord else {
            let made = RenderRecord(shown: self, renderer: renderer)
            renderRecord = made
            return made
        }
        let head = unsafeDowncast(stored, to: RenderRecord.self)
        if head.rendererID == id { return head }
        return otherRecord(in: renderer, after: head)
    }

    /// The chain past its head: another renderer's record, or a new one at the end.
    private func otherRecord(in renderer: LayerRenderer, after head: RenderRecord) -> RenderRecord {
        if head.renderer == nil, let next = head.next {
            renderRecord = next
            return record(in: renderer)
        }
        var previous = head
        while let current = previous.next {
            if current.rendererID == renderer.identifier { return current }
            if current.renderer == nil { previous.next = current.next } else { previous = current }
        }
        let made = RenderRecord(shown: self, renderer: renderer)
        if head.renderer == nil {
            renderRecord = made
        } else {
            previous.next = made
        }
        return made
    }
}

// RenderRecord: what the renderer remembers about one layer between frames.

import Raster

/// Everything that decides a layer's pixels, compared frame to frame for damage.
struct RenderSignature: Equatable {
    var state = LayerState()
    var deviceTransform = Transform.identity
    var opacity = 1.0
    var contentsSerial = 0
    var contentVersion = 0
    var clipKey = 0
    var hasMask = false
    /// The layer's place in painting order: moving a layer in front of or behind a sibling
    /// changes it, and with it the pixels where the two overlap.
    var paintOrder = 0

    /// Whether a layer with this signature draws the same pixels into its group picture as one
    /// with `other`: what applies only when the picture is composited (opacity, blend mode, the
    /// clip from above, the painting order among siblings) or beside it (the shadow) aside.
    func drawsSamePicture(as other: RenderSignature) -> Bool {
        // Field by field: clearing the compositing fields of copies, as before, would copy
        // the shared effects box of both.
        deviceTransform == other.deviceTransform && contentsSerial == other.contentsSerial
            && contentVersion == other.contentVersion && hasMask == other.hasMask
            && state.drawsSamePicture(as: other.state)
    }
}

/// The renderer's per-layer memory: the layer as shown this frame, where it landed, its
/// backing store, and last frame's signature and device rectangle.
@MainActor
final class RenderRecord {
    // What preparing and drawing a frame read or write for every layer comes first, on the
    // object's first cache lines (with 10,000 layers each line a frame touches is a miss);
    // groups, shadows, replicas, masks and pictures after it, and the signature last.
    /// The layer whose values are drawn this frame: the presentation copy or the model.
    unowned(unsafe) var shown: Layer
    /// The renderer this record belongs to: its identifier, compared on every lookup, and a weak
    /// reference that tells when it is gone. Another renderer's record follows in `next`.
    let rendererID: Int
    /// The frame this record was last visited in.
    var generation = 0
    var isVisible = false
    /// Effects (LayerRenderer+Effects): whether the subtree is one offscreen picture.
    var isGroup = false
    /// Whether anything in the layer's subtree (its own signature included) changed this frame.
    var hasChanged = true
    var hasSignature = false
    /// Drawn content recorded as path fills (instead of a backing store) while `hasFills`.
    var hasFills = false
    var opacity = 1.0
    /// The layer's and its visible descendants' pixels, for skipping subtrees outside damage
    /// (drawing and the occlusion search ask it first, of every layer, for each damaged rectangle).
    var subtreeRect = IntRect.zero
    /// Where the cached shadow lands (empty without one).
    var shadowRect = IntRect.zero
    /// The layer's own pixels in device space, this frame and last frame.
    var deviceRect = IntRect.zero
    var deviceTransform = Transform.identity
    var backingStore: Bitmap?
    var fills: FillRecording?
    /// The sublayers in drawing order when some have a non-zero zPosition; empty otherwise.
    var drawOrder: [Layer] = []
    /// The occlusion pass (LayerRenderer+Occlusion) in which this layer was an ancestor of the
    /// occluder, and the same for the lower band of a frame drawn on two threads (its own, so
    /// the threads never write one field).
    var occlusionPass = 0
    var bandOcclusionPass = 0
    var previousRect = IntRect.zero
    /// The subtree's pixels before effects (shadow) are added.
    var contentRect = IntRect.zero
    var contentVersion = 0
    /// How many layers (masks included) the subtree had last frame: one fewer means one was removed.
    var subtreeCount = 0
    /// What decided the group's alpha and blend.
    var groupKey = 0

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
    /// Last frame's signature, stored last: at about 330 bytes it would put the fields that
    /// the drawing and occlusion walks read for every layer on different cache lines.
    var signature = RenderSignature()

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

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
}

/// The renderer's per-layer memory: the layer as shown this frame, where it landed, its
/// backing store, and last frame's signature and device rectangle.
@MainActor
final class RenderRecord {
    /// The layer whose values are drawn this frame: the presentation copy or the model.
    unowned(unsafe) var shown: Layer
    var deviceTransform = Transform.identity
    var opacity = 1.0
    var isVisible = false
    /// The layer's own pixels in device space, this frame and last frame.
    var deviceRect = IntRect.zero
    var previousRect = IntRect.zero
    /// The layer's and its visible descendants' pixels, for skipping subtrees outside damage.
    var subtreeRect = IntRect.zero
    var signature = RenderSignature()
    var hasSignature = false
    var contentVersion = 0
    var backingStore: Bitmap?
    var backingContext: GraphicsContext?
    /// The owner's device transform, for a mask layer.
    var generation = 0
    /// A replicator's instances: their device extent and what decided their pixels, last frame.
    var replicaRect = IntRect.zero
    var replicaKey = 0

    init(shown: Layer) {
        self.shown = shown
    }

    /// The backing store sized for `bounds`, reusing the old one when the size is unchanged.
    func backing(for bounds: Rect) -> (Bitmap, GraphicsContext)? {
        let w = Int(bounds.width.rounded(.up)), h = Int(bounds.height.rounded(.up))
        guard w > 0, h > 0, w <= Bitmap.maximumSide, h <= Bitmap.maximumSide else {
            backingStore = nil
            backingContext = nil
            return nil
        }
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
    /// The renderer's record for this layer, created on first use.
    var record: RenderRecord {
        if let existing = renderRecord { return unsafeDowncast(existing, to: RenderRecord.self) }
        let made = RenderRecord(shown: self)
        renderRecord = made
        return made
    }
}

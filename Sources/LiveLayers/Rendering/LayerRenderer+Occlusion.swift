// LayerRenderer+Occlusion: layers hidden under an opaque layer above them are not drawn.

import Raster

/// Per damage rectangle: the layer whose opaque background covers the whole rectangle and is
/// painted last, and which layers are its ancestors this pass.
///
/// Everything painted before that layer's background is overwritten by it inside the rectangle,
/// so drawing starts there: earlier layers are skipped, and its ancestors keep only what they
/// do for it (transform, clip) and what they paint after it (later sublayers, borders).
struct OcclusionState {
    /// The occluding layer's record while drawing has not reached it yet. Unretained: it is
    /// this frame's (kept by its layer and the renderer's `visited`) and forgotten when the
    /// rectangle is drawn; held strongly, each layer's visit retained and released it to compare,
    /// and kept the visited record retained across the visit (clearing it could release).
    var pending: Unmanaged<RenderRecord>?
    /// Stamped into the records of the occluder's ancestors for this pass.
    var pass = 0
    /// Layers (subtrees) skipped because they lie under the occluder, counted over the last frame.
    var skipped = 0

    /// What drawing does with a layer met while this state's occluder is pending.
    enum Visit { case whole, sublayers, skipped }

    /// Whether `record` is drawn whole, drawn only for its sublayers (it is an ancestor of the
    /// occluder: its own paint lies under it), or skipped; `stamp` is the record's pass stamp
    /// for this state's thread.
    @inline(__always)   // inlined, the caller's access to the state makes no call: no dynamic exclusivity check per layer
    mutating func visit(_ record: RenderRecord, stamp: Int) -> Visit {
        guard let occluder = pending else { return .whole }
        if Unmanaged.passUnretained(record).toOpaque() == occluder.toOpaque() {
            pending = nil
            return .whole
        }
        if stamp == pass { return .sublayers }
        skipped += 1
        return .skipped
    }
}

extension LayerRenderer {
    /// The layer, painted last among those that can, whose opaque background covers every pixel
    /// of `rect`; its ancestors are stamped with this pass. Nil when no layer covers `rect`.
    ///
    /// A layer qualifies when its background is an opaque colour with no rounded corners, its
    /// device transform keeps axes (no rotation or skew), its opacity down the tree is 1, and no
    /// mask, group opacity, blend mode or shadow composites it: then its background's inner
    /// pixels come out that colour whatever was under them. Subtrees drawn some other way
    /// (through a mask, an offscreen group, a shadow or replicator instances) are not searched,
    /// nor are clips other than plain rectangles; a layer under a rectangular clip counts only
    /// for the part inside it.
    ///
    /// A frame drawn in two bands at once (LayerRenderer+Bands) searches each band on its own
    /// thread: the lower band keeps its state in `bands.occlusion` and its stamps in
    /// `RenderRecord.bandOcclusionPass`, so the two never write the same memory.
    func findOccluder(covering rect: IntRect, in root: Layer) -> RenderRecord? {
        let onBand = isOnBandThread
        if onBand { bands.occlusion.pass &+= 1 } else { occlusion.pass &+= 1 }
        return occluder(covering: rect, in: root, onBand: onBand)
    }

    /// Finds the occluder of `rect` and makes it pending for this thread's drawing; false when
    /// culling is off or nothing covers `rect` (then it must be cleared first).
    func beginOcclusion(covering rect: IntRect, in root: Layer) -> Bool {
        let found = isOcclusionCullingEnabled ? findOccluder(covering: rect, in: root) : nil
        // No closure (Optional.map): the lower band runs this off the main thread.
        var pending: Unmanaged<RenderRecord>?
        if let found { pending = Unmanaged.passUnretained(found) }
        if isOnBandThread { bands.occlusion.pending = pending } else { occlusion.pending = pending }
        return found != nil
    }

    /// Forgets this thread's pending occluder once its rectangle is drawn.
    func endOcclusion() {
        if isOnBandThread { bands.occlusion.pending = nil } else { occlusion.pending = nil }
    }

    /// Whether this thread's drawing has an occluder still to reach.
    var isOcclusionPending: Bool {
        if bands.isSplit, isOnBandThread { return bands.occlusion.pending != nil }
        return occlusion.pending != nil
    }

    /// What drawing does with `record` on this thread (``OcclusionState/visit(_:stamp:)``).
    func occlusionVisit(_ record: RenderRecord) -> OcclusionState.Visit {
        // The stamp is read only while an occluder is pending: it lies on a line of the record
        // that drawing a leaf otherwise leaves alone.
        if bands.isSplit, isOnBandThread {
            guard bands.occlusion.pending != nil else { return .whole }
            return bands.occlusion.visit(record, stamp: record.bandOcclusionPass)
        }
        guard occlusion.pending != nil else { return .whole }
        return occlusion.visit(record, stamp: record.occlusionPass)
    }

    private func occluder(covering rect: IntRect, in layer: Layer, onBand: Bool) -> RenderRecord? {
        let record = layer.record(in: self)
        guard record.isVisible, record.opacity >= 1, layer.maskStorage == nil, !record.isGroup,
              record.shadowRect.isEmpty, record.subtreeRect.contains(rect) else { return nil }
        let state = record.shown.state
        // What lies inside a clip that is not a plain device rectangle cannot cover the rectangle.
        let searchesSublayers = record.sublayerExtent.width >= rect.width && record.sublayerExtent.height >= rect.height
            && !(layer is ReplicatorLayer) && !layer.sublayerStorage.isEmpty
            && (!state.masksToBounds || (state.cornerRadius <= 0 && innerDeviceRect(of: record).contains(rect)))
        if searchesSublayers {
            let order = record.drawOrder.isEmpty ? layer.sublayerStorage : record.drawOrder
            for sublayer in order.reversed() {
                if let found = occluder(covering: rect, in: sublayer, onBand: onBand) {
                    if onBand { record.bandOcclusionPass = bands.occlusion.pass } else { record.occlusionPass = occlusion.pass }
                    return found
                }
            }
        }
        guard state.cornerRadius <= 0, let background = state.backgroundColor,
              background.premultipliedPixel >> 24 == 255, innerDeviceRect(of: record).contains(rect) else { return nil }
        return record
    }

    /// The device pixels lying wholly inside the layer's bounds, or empty when its transform
    /// turns the axes.
    func innerDeviceRect(of record: RenderRecord) -> IntRect {
        let t = record.deviceTransform
        guard t.b == 0, t.c == 0 else { return .zero }
        let b = record.shown.state.bounds.standardized
        let xa = b.minX * t.a + t.tx, xb = b.maxX * t.a + t.tx
        let ya = b.minY * t.d + t.ty, yb = b.maxY * t.d + t.ty
        let x0 = min(xa, xb).rounded(.up), x1 = max(xa, xb).rounded(.down)
        let y0 = min(ya, yb).rounded(.up), y1 = max(ya, yb).rounded(.down)
        guard x1 > x0, y1 > y0, abs(x0) < 1e9, abs(x1) < 1e9, abs(y0) < 1e9, abs(y1) < 1e9 else { return .zero }
        return IntRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}

extension IntRect {
    /// Whether every pixel of `other` is in this rectangle (an empty `other` is contained).
    func contains(_ other: IntRect) -> Bool {
        other.isEmpty || (x <= other.x && y <= other.y && maxX >= other.maxX && maxY >= other.maxY)
    }
}

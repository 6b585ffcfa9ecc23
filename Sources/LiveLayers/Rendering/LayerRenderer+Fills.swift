// LayerRenderer+Fills: drawn content kept as recorded path fills instead of a backing store,
// and masks kept as 8-bit coverage that is rewritten and damaged only where it changed.

import Raster

extension LayerRenderer {
    /// Records `shown.draw(in:)` as solid path fills. Returns false, recording nothing more for
    /// this layer, when the drawing does something else (an image, a gradient, a clip…): the
    /// layer then keeps a backing store as before.
    ///
    /// Replaying fills costs one rasterization each time the layer's pixels are redrawn; a
    /// backing store costs clearing and rasterizing into it whenever the content changes, plus
    /// compositing it each time the pixels are redrawn. For content that changes every frame
    /// (animated custom properties) the fills win outright; see BENCHMARKS.md for the arrow.
    func recordFills(of layer: Layer, shown: Layer, record: RenderRecord) -> Bool {
        guard record.isRecordable, let clip = RenderRecord.storeRect(for: shown.state.bounds) else { return false }
        let recorder = record.recorder(clip: clip)
        let b = shown.state.bounds
        recorder.translateBy(x: -b.minX, y: -b.minY)
        shown.draw(in: recorder)
        guard let fills = record.fills, fills.isComplete else {
            record.isRecordable = false
            record.hasFills = false
            return false
        }
        record.hasFills = true
        record.backingStore = nil
        record.backingContext = nil
        return true
    }

    /// Where the recorded fills land in device space when they can be drawn straight into the
    /// target with the same pixels a backing store would give: the device transform is a
    /// whole-pixel translation of the store (so nothing is resampled). The offset of the store's
    /// pixel (0, 0) in device pixels, or nil.
    static func storeOffset(bounds: Rect, transform t: Transform) -> (x: Int, y: Int)? {
        guard t.a == 1, t.b == 0, t.c == 0, t.d == 1 else { return nil }
        let ox = t.tx + bounds.standardized.minX, oy = t.ty + bounds.standardized.minY
        guard ox == ox.rounded(), oy == oy.rounded(), abs(ox) < 1e9, abs(oy) < 1e9 else { return nil }
        return (Int(ox), Int(oy))
    }

    /// Draws a layer's recorded fills: straight into the target when that gives the pixels the
    /// backing store would, otherwise through a backing store rasterized from them (kept until
    /// the content changes).
    func drawFills(_ fills: FillRecording, of shown: Layer, record: RenderRecord, in context: GraphicsContext) {
        let bounds = shown.state.bounds
        // Several overlapping fills under a group opacity composite differently one by one.
        if let (ox, oy) = Self.storeOffset(bounds: bounds, transform: context.ctm),
           fills.fills.count <= 1 || context.globalAlpha >= 1 {
            let clip = fills.clip
            context.replay(fills, transform: Transform(translationX: Double(ox), y: Double(oy)),
                           clip: IntRect(x: ox + clip.x, y: oy + clip.y, width: clip.width, height: clip.height))
            return
        }
        // Both bands of a frame drawn on two threads may come here for one layer.
        alone {
            guard record.storeVersion != record.contentVersion || record.backingStore == nil,
                  let (store, storeContext) = record.backing(for: bounds) else { return }
            store.clear()
            storeContext.replay(fills, transform: .identity, clip: store.bounds)
            record.storeVersion = record.contentVersion
        }
        guard let store = record.backingStore else { return }
        let b = bounds.standardized
        context.draw(store, in: Rect(x: b.minX, y: b.minY, width: Double(store.width), height: Double(store.height)))
    }

    /// Keeps `mask`'s coverage as 8-bit coverage in device space when the mask is one layer of
    /// recorded fills at a whole-pixel offset, damaging only the pixels whose coverage changed.
    /// Returns false when the mask needs the general route (drawn into pixels each frame).
    func trackCoverage(of mask: Layer, width: Int, height: Int) -> Bool {
        let record = mask.record(in: self)
        let state = record.shown.state
        guard mask.sublayerStorage.isEmpty, mask.maskStorage == nil, record.hasFills, let fills = record.fills,
              state.backgroundColor.map({ $0.alpha <= 0 }) ?? true, record.shown.contents == nil,
              state.borderWidth <= 0 || state.borderColor.alpha <= 0,
              !state.masksToBounds || state.cornerRadius <= 0, !(mask is ReplicatorLayer),
              let (ox, oy) = Self.storeOffset(bounds: state.bounds, transform: record.deviceTransform),
              width > 0, height > 0 else {
            record.tracksCoverage = false
            return false
        }
        if record.coverage?.mask.width != width || record.coverage?.mask.height != height {
            record.coverage = try? TrackedCoverage(width: width, height: height)
            record.coverageKey = nil
        }
        guard let coverage = record.coverage else { record.tracksCoverage = false; return false }
        record.tracksCoverage = true
        let alpha = record.isVisible ? UInt32((record.opacity * 255).rounded()) : 0
        let key = CoverageKey(contentVersion: record.contentVersion, x: ox, y: oy, alpha: alpha)
        guard key != record.coverageKey else { return true }
        record.coverageKey = key
        let clip = fills.clip
        coverage.update(fills, transform: Transform(translationX: Double(ox), y: Double(oy)), alpha: alpha,
                        clip: IntRect(x: ox + clip.x, y: oy + clip.y, width: clip.width, height: clip.height)) { rect in
            damage(rect)
        }
        return true
    }
}

/// What decides a tracked mask's coverage, besides its fills' content version.
struct CoverageKey: Equatable {
    var contentVersion: Int
    var x: Int, y: Int
    var alpha: UInt32
}

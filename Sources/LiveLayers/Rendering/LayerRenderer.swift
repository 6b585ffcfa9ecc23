// LayerRenderer: draws the presentation tree into a bitmap, redrawing only what changed.

import Raster

/// Renders a layer tree, as it appears at the current media time, into a ``Raster/Bitmap``,
/// the way `CARenderer` renders offscreen.
///
/// Each call to ``render(_:at:into:)``:
/// 1. advances the ``LayerClock`` to the frame's time (committing changes and delivering
///    did-start, did-stop and completion callbacks);
/// 2. evaluates every layer's presentation values and redraws the backing stores of layers that
///    need display, or whose `needsDisplay(forKey:)` properties animate;
/// 3. compares each layer with the previous frame and collects the old and new device bounds
///    of every layer that changed: the **damage**;
/// 4. clears and redraws only the damaged rectangles, and returns them, so the presenter can
///    copy just those pixels to the screen.
///
/// A frame in which nothing changed draws nothing and returns no rectangle. Drawing follows
/// Core Animation's order for each layer: background (with rounded corners), contents
/// (placed by `contentsGravity`), drawn content, sublayers, then the border; `masksToBounds`
/// clips the content and sublayers to the rounded bounds; a `mask` layer's alpha multiplies
/// the layer and its sublayers; opacity multiplies down the tree.
///
/// Once warm (same bitmap, same tree), a frame allocates nothing in the renderer itself.
@MainActor
public final class LayerRenderer {
    /// Whether only changed regions are redrawn. When `false`, every frame redraws and
    /// reports the whole bitmap (for comparison and debugging).
    public var isDamageTrackingEnabled = true

    /// Whether a frame with a large damaged area is drawn as two horizontal bands at once, the
    /// lower one on a second thread (started on first use and kept while the renderer lives),
    /// when the process may run on more than one CPU. The pixels are the same either way; a
    /// frame that draws groups, shadows, replicas or masks drawn into pixels uses one thread.
    public var drawsInParallel = true

    /// The colour damaged regions are cleared to before redrawing. Default transparent.
    public var clearColor: Color = .clear

    /// Whether layers hidden under an opaque layer above them are skipped (LayerRenderer+Occlusion).
    /// The pixels are the same either way; off only to compare.
    var isOcclusionCullingEnabled = true
    /// Exclusivity unchecked: asked for each layer drawn, and each access would be checked at
    /// run time (releasing the pending record inside an access could run a deinit). Only
    /// the main thread touches it; the lower band has its own (`bands.occlusion`).
    @exclusivity(unchecked) var occlusion = OcclusionState()

    private var context: GraphicsContext?
    /// One picture per depth of masks inside masks, holding the damaged rectangle being drawn.
    private var maskPictures: [OffscreenPicture?] = []
    /// The device pixel at pixel (0, 0) of the bitmap being drawn into: (0, 0) for the frame,
    /// an offscreen picture's origin while drawing into it.
    var origin = (x: 0, y: 0)
    var maskDepth = 0
    /// How deep masks of masks are drawn; deeper ones are ignored.
    static let maskNestingLimit = 4
    // Unchecked, as `visited`: only this renderer's frame methods touch it, on the main thread.
    @exclusivity(unchecked) private var damage = DamageRegion()
    private(set) var output: [IntRect] = []
    private weak var lastRoot: Layer?
    private(set) var frameNumber = 0
    /// The records visited this frame (the first `visitCount`), over last frame's: while a frame
    /// visits the records in last frame's order, each is only compared with the one there,
    /// and nothing is written or retained. Moving this frame's records to the front of one
    /// array of both frames' retained and released every record again, and checking each of
    /// last frame's read it: with 10,000 layers, two more misses a layer. From the first
    /// record visited out of order, the rest of last frame's move to `dropCandidates`.
    ///
    /// Exclusivity is unchecked (and for `damage`): only this renderer's frame methods touch
    /// them, never across a call that could reach them again; as their changes call into the
    /// standard library (`append`, `DamageRegion.add`), the compiler would check each access at
    /// run time, several times per layer per frame.
    @exclusivity(unchecked) private var visited: [RenderRecord] = []
    private var visitCount = 0
    /// Last frame's records not met in order this frame: those not visited at all belong to
    /// layers that dropped out of the tree (removed, or under a removed subtree).
    @exclusivity(unchecked) private var dropCandidates: [RenderRecord] = []
    private var pathScratch = Path()
    /// The second thread's share of a frame (LayerRenderer+Bands).
    let bands = BandState()
    /// Offscreen pictures for groups and shadows (LayerRenderer+Effects).
    let effects = EffectsScratch()
    /// The size of the bitmap being rendered into (tracked mask coverage matches it).
    private(set) var targetSize = (width: 0, height: 0)
    /// Folded into the clip key of a layer whose mask's coverage is tracked.
    private static let trackedMaskMarker = 0x6D61_736B

    /// Tells this renderer's records in the layers from any other renderer's.
    let identifier: Int
    private static var renderersMade = 0

    /// Creates a renderer. Several renderers may draw the same tree (into different bitmaps):
    /// each keeps its own per-layer records, so each one's damage is its own.
    public init() {
        Self.renderersMade += 1
        identifier = Self.renderersMade
        output.reserveCapacity(DamageRegion.maximumCount)
    }

    /// Advances the layer clock to `time`, committing pending changes and calling animation
    /// and transaction callbacks (the per-frame update step; ``render(_:at:into:)`` does it).
    public func update(at time: Double) {
        LayerClock.advance(to: time)
    }

    /// The next media time at which the picture will change: ``LayerClock/nextFrameTime``, the
    /// one answer the clock, the renderer and the hosts share.
    public var nextFrameTime: Double { LayerClock.nextFrameTime }

    /// Whether a frame rendered now could differ from the last one: ``LayerClock/isAnimating``.
    public var isAnimating: Bool { LayerClock.isAnimating }

    /// Renders `root` as it appears at media time `time` (the current media time when `nil`)
    /// into `bitmap`, whose pixel (0, 0) is the root's superlayer-space origin. Returns the
    /// rectangles redrawn; pixels outside them are unchanged from the previous frame.
    @discardableResult
    public func render(_ root: Layer, at time: Double? = nil, into bitmap: Bitmap) -> [IntRect] {
        if let time { update(at: time) } else { LayerClock.advance(to: LayerClock.currentTime) }
        let now = LayerClock.currentTime
        frameNumber &+= 1
        damage.removeAll()
        let fullFrame = context?.bitmap !== bitmap || lastRoot !== root || !isDamageTrackingEnabled
        if context?.bitmap !== bitmap {
            // Every damage rectangle is drawn between a save and a restore, which writes any
            // background held back: opaque backgrounds are written with what is drawn over them.
            context = GraphicsContext(bitmap: bitmap)
            context?.defersOpaqueFills = true
        }
        targetSize = (bitmap.width, bitmap.height)
        lastRoot = root
        origin = (0, 0)
        effects.pixelsRedrawn = 0

        visitCount = 0
        bands.isFrameSafe = true
        prepare(root, parentTransform: .identity, parentOpacity: 1, clipKey: 0, visible: true, time: now)
        if visitCount < visited.count { dropVisits(from: visitCount) }
        if !dropCandidates.isEmpty {
            // Layers seen last frame but not this one (removed, or under a removed subtree).
            for record in dropCandidates where record.generation != frameNumber {
                damage.add(record.previousRect)
                damage.add(record.replicaRect)
                record.replicaRect = .zero
                record.previousRect = .zero
                record.hasSignature = false
            }
            dropCandidates.removeAll(keepingCapacity: true)
        }
        LayerRuntime.shared.displayRequested = false

        output.removeAll(keepingCapacity: true)
        if fullFrame {
            output.append(bitmap.bounds)
        } else {
            damage.clip(to: bitmap.bounds)
            output.append(contentsOf: damage.rects)
        }
        guard let context, !output.isEmpty else { return output }
        occlusion.skipped = 0
        bands.occlusion.skipped = 0
        if let split = bandSplit(), let worker = bandWorker(), let bandContext = bandContext(for: bitmap) {
            bands.isSplit = true
            bands.lower = (root, split..<Int.max, bandContext, bitmap)
            worker.run({
                drawDamage(root, rows: Int.min..<split, in: context, target: bitmap)
            }, alongside: lowerBandDrawing())
            bands.lower = nil
            bands.isSplit = false
        } else {
            drawDamage(root, rows: Int.min..<Int.max, in: context, target: bitmap)
        }
        return output
    }

    /// Clears and draws this frame's damage in `rows` (the whole of it, or one band).
    func drawDamage(_ root: Layer, rows: Range<Int>, in context: GraphicsContext, target bitmap: Bitmap) {
        for damaged in output {
            let top = max(damaged.y, rows.lowerBound), bottom = min(damaged.maxY, rows.upperBound)
            guard bottom > top else { continue }
            let rect = IntRect(x: damaged.x, y: top, width: damaged.width, height: bottom - top)
            // Under an opaque layer covering the whole rectangle, neither the clear nor the
            // layers painted before it would leave a pixel: drawing starts at that layer.
            if !beginOcclusion(covering: rect, in: root) { bitmap.fill(rect, with: clearColor.premultipliedPixel) }
            context.saveGState()
            context.clip(to: rect.rect)
            draw(root, in: context, damage: rect, target: bitmap)
            context.restoreGState()
            endOcclusion()
        }
    }

    /// Adds `rect` to this frame's damage.
    func damage(_ rect: IntRect) { damage.add(rect) }

    // MARK: Preparing a frame

    /// Evaluates `layer` and its subtree for this frame: presentation values, device transform,
    /// backing stores, signature and damage.
    private func prepare(_ layer: Layer, parentTransform: Transform, parentOpacity: Double, clipKey: Int,
                         visible: Bool, time: Double, isMaskRoot: Bool = false) {
        let record = layer.record(in: self)
        record.generation = frameNumber
        noteVisit(of: record)
        let shown = layer.hasBeenCommitted && layer.hasAttachedAnimations
            ? layer.updatedPresentation(atMediaTime: time) : layer
        record.shown = shown
        // The shown layer's state is read field by field, never copied: a copy read all of it
        // (about 230 bytes), wrote it to the stack and retained its effects box.
        let isVisible = visible && !shown.state.isHidden
        record.isVisible = isVisible
        record.deviceTransform = shown.transformToSuperlayer.concatenating(parentTransform)
        record.opacity = parentOpacity * Self.drawnOpacity(shown.state.opacity)
        // A group's sublayers are drawn into its picture at their opacity relative to it.
        record.isGroup = isVisible && Self.drawsAsGroup(layer, shown: shown)

        if isVisible { display(layer, shown: shown, record: record, time: time) }

        // Damage added while preparing the subtree, the layer's own change aside, and the
        // number of layers in it tell whether a group's cached picture still holds.
        let damageMark = damage.additions, visitMark = visitCount
        if isMaskRoot { record.maskSelfDamage = (.zero, .zero) }
        var signature = isVisible
            ? RenderSignature(of: shown, deviceTransform: record.deviceTransform, opacity: record.opacity,
                              isGroup: record.isGroup, contentsSerial: layer.contentsSerial,
                              contentVersion: record.contentVersion, clipKey: clipKey,
                              hasMask: layer.maskStorage != nil, paintOrder: visitCount)
            : RenderSignature()
        record.deviceRect = isVisible ? deviceRect(of: shown, transform: record.deviceTransform) : .zero

        var childClipKey = clipKey
        if shown.state.masksToBounds || layer.maskStorage != nil {
            // Children's visible pixels depend on this clip: fold it into their signatures.
            var hasher = Hasher()
            hasher.combine(clipKey)
            hasher.combine(record.deviceRect)
            hasher.combine(shown.state.cornerRadius)
            childClipKey = hasher.finalize()
        }
        if let mask = layer.maskStorage {
            // The mask is drawn in this layer's space; any change to it changes this layer.
            prepare(mask, parentTransform: record.deviceTransform, parentOpacity: 1, clipKey: 0, visible: isVisible, time: time,
                    isMaskRoot: true)
            var hasher = Hasher()
            let maskMode = shown.state.effectsBox.value.maskMode
            if maskMode != .alpha { mask.record(in: self).tracksCoverage = false }
            if maskMode == .alpha, trackCoverage(of: mask, width: targetSize.width, height: targetSize.height) {
                // The coverage's own changes are damaged where they happen, not over the whole layer.
                hasher.combine(childClipKey)
                hasher.combine(Self.trackedMaskMarker)
                signature.clipKey = hasher.finalize()
                childClipKey = signature.clipKey
            } else {
            // A mask drawn into pixels is drawn through the renderer's one mask picture.
            if isVisible { bands.isFrameSafe = false }
            // A mask drawn into pixels damages its own old and new rectangles.
            damage.add(mask.record(in: self).maskSelfDamage.0)
            damage.add(mask.record(in: self).maskSelfDamage.1)
            hasher = Hasher()
            hasher.combine(childClipKey)
            hasher.combine(mask.record(in: self).signature.contentVersion)
            hasher.combine(mask.record(in: self).deviceRect)
            hasher.combine(maskMode)                    // the mode changes the sublayers' pixels too
            subtreeSignature(of: mask, into: &hasher)
            signature.clipKey = hasher.finalize()
            childClipKey = signature.clipKey
            }
        }

        let ownMark = damage.additions
        var changesPicture = !record.hasSignature
        let ownChanged = !record.hasSignature || !record.hasSignature(equalTo: signature)
        if ownChanged {
            // Only a group keeps a picture to change (prepareEffects): comparing without the
            // compositing fields copies both signatures, which most layers need not pay.
            if record.isGroup && !changesPicture {
                changesPicture = !signature.drawsSamePicture(as: record.signature)
            }
            if isMaskRoot {
                // A mask is never drawn itself: its owner decides what its change damages.
                record.maskSelfDamage = (record.previousRect, record.deviceRect)
            } else if !(layer is GradientLayer && isVisible
                        && damageGradientChange(of: layer, shown: shown, record: record, signature: signature)) {
                damage.add(record.previousRect)
                damage.add(record.deviceRect)
            }
            record.signature = signature
            record.hasSignature = true
        }
        record.previousRect = record.deviceRect
        let afterOwnMark = damage.additions

        var subtree = record.deviceRect
        let sublayerTransform = Self.sublayerDeviceTransform(of: shown, deviceTransform: record.deviceTransform)
        // Whether a sublayer has a zPosition is noted while its record is at hand: a second
        // walk over the sublayers for it alone missed the cache for each of 10,000 leaves.
        var anyZ = false
        var extent = (width: 0, height: 0)
        // A leaf leaves the sublayers' fields alone: they lie on lines it otherwise never touches.
        let hasSublayers = !layer.sublayerStorage.isEmpty
        if hasSublayers { record.sublayerPaints.removeAll(keepingCapacity: true) }
        // Under a hidden layer or one at zero opacity nothing draws (Lottie's layers outside
        // their in and out points are such subtrees, most of a long composition's): the subtree
        // is not prepared. Its records, not visited, are dropped at the end of the frame, which
        // damages what they drew; shown again, they are prepared as new. A replicator's
        // instances are keyed on its sublayers' records, so its subtree is always prepared.
        let isReplicator = layer is ReplicatorLayer
        let preparesSublayers = isVisible && record.opacity > 0 || isReplicator
        record.preparedSublayers = preparesSublayers
        for sublayer in layer.sublayerStorage where preparesSublayers {
            prepare(sublayer, parentTransform: sublayerTransform, parentOpacity: record.isGroup ? 1 : record.opacity,
                    clipKey: childClipKey, visible: isVisible, time: time)
            let sublayerRecord = sublayer.record(in: self)
            let sublayerSubtree = sublayerRecord.subtreeRect
            subtree = subtree.union(sublayerSubtree)
            extent = (max(extent.width, sublayerSubtree.width), max(extent.height, sublayerSubtree.height))
            if sublayerRecord.shown.state.effectsBox.value.zPosition != 0 { anyZ = true }
            record.sublayerPaints.append(Self.paint(of: sublayerRecord))
        }
        if hasSublayers {
            record.sublayerExtent = extent
            record.sublayerPaintsFrame = frameNumber
        }
        if shown.state.masksToBounds { subtree = subtree.intersection(record.deviceRect) }
        if let replicator = layer as? ReplicatorLayer {
            subtree = subtree.union(prepareReplicas(of: replicator, record: record, time: time, frame: frameNumber))
        }
        orderByZ(layer, record: record, anyZ: anyZ)
        let count = visitCount - visitMark
        let changedBelow = ownMark != damageMark || damage.additions != afterOwnMark || count != record.subtreeCount
        changesPicture = changesPicture || changedBelow
        record.subtreeCount = count
        record.hasChanged = ownChanged || changedBelow
        subtree = prepareEffects(of: layer, record: record, shown: shown, subtree: subtree, changesPicture: changesPicture)
        record.subtreeRect = subtree
        if let mask = layer.maskStorage { keepMaskPicture(of: mask.record(in: self), owner: record) }
        noteBandSafety(of: layer, record: record, shown: shown)
        notePaint(of: layer, shown: shown, record: record)
    }

    /// How `draw` would draw the layer of `record`, prepared this frame, when nothing occludes it.
    private static func paint(of record: RenderRecord) -> SublayerPaint {
        var paint = SublayerPaint()
        if !record.isVisible || !(record.opacity > 0) {
            paint.kind = .none
        } else if record.paintsOnlyFill && !record.isGroup && record.shadowRect.isEmpty {
            // Its subtree's pixels are its own: no sublayers, clip or shadow.
            paint.kind = .fill
            paint.deviceRect = record.deviceRect
            paint.transform = record.deviceTransform
            paint.opacity = record.opacity
            if let color = record.fillColor {
                paint.color = color
                paint.hasColor = true
            }
            paint.bounds = record.fillBounds
        }
        return paint
    }

    /// Notes in the record whether the layer paints only its background, and which (see
    /// `RenderRecord.paintsOnlyFill`); drawing then needs nothing else.
    private func notePaint(of layer: Layer, shown: Layer, record: RenderRecord) {
        guard record.isVisible, layer.sublayerStorage.isEmpty, layer.maskStorage == nil, !shown.state.masksToBounds,
              !(shown.state.borderWidth > 0 && shown.state.borderColor.alpha > 0), !(shown.state.cornerRadius > 0),
              shown.contents == nil, !(record.hasFills && record.fills != nil), record.backingStore == nil,
              layer.directContentBounds == nil, shown.directContentBounds == nil else {
            record.paintsOnlyFill = false
            return
        }
        record.paintsOnlyFill = true
        if let background = shown.state.backgroundColor, background.alpha > 0 {
            record.fillColor = background
        } else {
            record.fillColor = nil
        }
        record.fillBounds = shown.state.bounds
    }

    /// Counts `record` as this frame's next visit (see `visited`).
    @inline(__always)
    private func noteVisit(of record: RenderRecord) {
        if visitCount < visited.count {
            // Compared as addresses: neither record is retained to be compared.
            if Unmanaged.passUnretained(visited[visitCount]).toOpaque() == Unmanaged.passUnretained(record).toOpaque() {
                visitCount += 1
                return
            }
            dropVisits(from: visitCount)
        }
        visited.append(record)
        visitCount += 1
    }

    /// Moves last frame's records from `index` on to `dropCandidates`.
    private func dropVisits(from index: Int) {
        dropCandidates.append(contentsOf: visited[index...])
        visited.removeSubrange(index...)
    }

    /// Folds the mask subtree's signatures into `hasher`.
    func subtreeSignature(of layer: Layer, into hasher: inout Hasher) {
        let record = layer.record(in: self)
        record.combineMaskFields(into: &hasher)
        // Sublayers not prepared this frame draw nothing into the mask, and their records still
        // hold the last signatures they were prepared with (Lottie layers outside their in and
        // out points, most of a long composition's): they are left out. Left out or folded in,
        // the words hashed differ, so the key changes when they start or stop drawing. Only
        // layers prepared this frame are reached: a mask always is, a sublayer when its
        // superlayer prepared the sublayers.
        if record.preparedSublayers {
            for sublayer in layer.sublayerStorage { subtreeSignature(of: sublayer, into: &hasher) }
        }
        if let mask = layer.maskStorage {
            hasher.combine(record.signature.effectsBox.value.maskMode)
            subtreeSignature(of: mask, into: &hasher)
        }
    }

    /// Redraws the backing store when the layer needs display or a redrawing property animates.
    private func display(_ layer: Layer, shown: Layer, record: RenderRecord, time: Double) {
        let animating = layer.redrawingAnimationChanged(atMediaTime: time)
        guard layer.needsDisplayFlag || animating else { return }
        layer.needsDisplayFlag = false
        record.contentVersion &+= 1
        if layer.directContentBounds != nil || layer is ShapeLayer { return }
        guard !layer.drawsNothing else { return }
        if recordFills(of: layer, shown: shown, record: record) {
            if shown.drawsNothing { layer.drawsNothing = true; record.hasFills = false }
            return
        }
        record.hasFills = false
        guard let (store, context) = record.backing(for: shown.state.bounds) else { return }
        store.clear()
        context.saveGState()
        let b = shown.state.bounds
        context.translateBy(x: -b.minX, y: -b.minY)
        shown.draw(in: context)
        context.restoreGState()
        if shown.drawsNothing {
            layer.drawsNothing = true
            record.backingStore = nil
            record.backingContext = nil
        }
    }

    /// The device pixels the layer's own drawing can touch, one pixel wider for anti-aliasing.
    func deviceRect(of layer: Layer, transform: Transform) -> IntRect {
        if layer.state.masksToBounds, layer.state.cornerRadius > 0, layer.state.effectsBox.value.maskedCorners == .all,
           let box = roundedBoundingBox(of: layer.state.bounds.standardized, radius: layer.state.cornerRadius, under: transform) {
            // Everything the layer draws is clipped to its rounded bounds: a turning circle (the
            // gallery's conic gradient) touches its own square, not the turned bounds' box.
            let r = IntRect(enclosing: box)
            return IntRect(x: r.x - 1, y: r.y - 1, width: r.width + 2, height: r.height + 2)
        }
        var local = layer.state.bounds.standardized
        if let contents = layer.contents, layer.state.contentsGravity != .resize {
            let size = Size(width: Double(contents.width), height: Double(contents.height))
            local = local.union(layer.state.contentsGravity.rect(forContentsOf: size, in: layer.state.bounds))
        }
        if !layer.state.masksToBounds, let direct = layer.directContentBounds { local = local.union(direct) }
        guard local.width > 0 || local.height > 0 else { return .zero }
        let r = IntRect(enclosing: boundingBox(of: local, under: transform))
        return IntRect(x: r.x - 1, y: r.y - 1, width: r.width + 2, height: r.height + 2)
    }

    /// The bounding box of `rect` with all four corners rounded by `radius` (as `roundedRect`
    /// clips) under `t`: the box of the rectangle inset by the radius, grown by the extents of the
    /// corner circle's image, an ellipse. Nil for no radius, or a radius or transform that is not finite.
    private func roundedBoundingBox(of rect: Rect, radius: Double, under t: Transform) -> Rect? {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0, r.isFinite, rect.width.isFinite, rect.height.isFinite,
              t.a.isFinite, t.b.isFinite, t.c.isFinite, t.d.isFinite, t.tx.isFinite, t.ty.isFinite else { return nil }
        let inner = boundingBox(of: rect.insetBy(dx: r, dy: r), under: t)
        // The path's corners are Bézier arcs, which run outside the circle by less than 0.03 %
        // of the radius; 0.1 % more covers them.
        let ex = r * 1.001 * (t.a * t.a + t.c * t.c).squareRoot(), ey = r * 1.001 * (t.b * t.b + t.d * t.d).squareRoot()
        // Never past the bounds' own box (the same box when nothing turns).
        let outer = boundingBox(of: rect, under: t)
        let x0 = max(outer.minX, inner.minX - ex), y0 = max(outer.minY, inner.minY - ey)
        let x1 = min(outer.maxX, inner.maxX + ex), y1 = min(outer.maxY, inner.maxY + ey)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The bounding box of `rect`'s corners under `t` (`Rect.applying` without its array).
    private func boundingBox(of rect: Rect, under t: Transform) -> Rect {
        let p0 = Point(x: rect.minX, y: rect.minY).applying(t), p1 = Point(x: rect.maxX, y: rect.minY).applying(t)
        let p2 = Point(x: rect.minX, y: rect.maxY).applying(t), p3 = Point(x: rect.maxX, y: rect.maxY).applying(t)
        let x0 = min(p0.x, p1.x, p2.x, p3.x), y0 = min(p0.y, p1.y, p2.y, p3.y)
        let x1 = max(p0.x, p1.x, p2.x, p3.x), y1 = max(p0.y, p1.y, p2.y, p3.y)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Drawing

    /// Draws `layer` and its subtree into `context`, clipped to `damage`.
    func draw(_ layer: Layer, in context: GraphicsContext, damage: IntRect, target: Bitmap) {
        let record = layer.record(in: self)
        var drawsOwnContent = true
        switch occlusionVisit(record) {
        case .whole: break
        case .sublayers: drawsOwnContent = false    // an ancestor of the occluder: painted under it
        case .skipped: return                       // painted before the occluder, all under it
        }
        guard record.isVisible, record.opacity > 0, !record.subtreeRect.intersection(damage).isEmpty else { return }
        if (record.isGroup || !record.shadowRect.isEmpty),
           drawEffects(of: layer, record: record, in: context, damage: damage, target: target) { return }
        if record.paintsOnlyFill {
            // Read into locals first: no reference to the record is then held across the
            // context's calls.
            let deviceRect = record.deviceRect, transform = record.deviceTransform, alpha = record.opacity
            let fillColor = record.fillColor, fillBounds = record.fillBounds
            guard !deviceRect.intersection(damage).isEmpty else { return }
            resetTransform(of: context)
            context.concatenate(transform)
            context.setAlpha(alpha)
            if let fillColor {
                context.setFillColor(fillColor)
                context.fill(fillBounds)
            }
            return
        }
        let shown = record.shown
        let state = shown.state
        if layer.sublayerStorage.isEmpty, layer.maskStorage == nil, !state.masksToBounds,
           !(state.borderWidth > 0 && state.borderColor.alpha > 0), layer.directContentBounds == nil {
            // A leaf that paints only its background, contents or backing store changes just
            // the transform, alpha and fill, which every layer sets for itself before drawing:
            // no graphics state to save and restore (most layers of a big tree are such leaves).
            guard !record.deviceRect.intersection(damage).isEmpty else { return }
            resetTransform(of: context)
            context.concatenate(record.deviceTransform)
            context.setAlpha(record.opacity)
            drawOwnContent(of: layer, shown: shown, state: state, record: record, in: context)
            return
        }
        context.saveGState()
        // A mask layer may have its own mask (and so on, to maskNestingLimit).
        // Tracked coverage is in device pixels: usable as it is only where they are the bitmap's.
        if let mask = layer.maskStorage, maskDepth == 0, origin == (0, 0), mask.record(in: self).tracksCoverage,
           let coverage = mask.record(in: self).coverage {
            context.clip(toMask: coverage.mask)
        } else if let mask = layer.maskStorage, maskDepth < Self.maskNestingLimit {
            guard let picture = updatedMaskPicture(of: mask, owner: record, mode: state.effects.maskMode) else {
                context.restoreGState()
                return
            }
            resetTransform(of: context)
            context.clip(toMask: picture.bitmap, in: picture.deviceBounds.rect)
        }
        resetTransform(of: context)
        context.concatenate(record.deviceTransform)
        context.setAlpha(record.opacity)
        let bounds = state.bounds
        if state.masksToBounds {
            if state.cornerRadius > 0 {
                context.beginPath()
                context.addPath(roundedRect(bounds, radius: state.cornerRadius, corners: state.effects.maskedCorners))
                context.clip()
            } else {
                context.clip(to: bounds)
            }
        }
        if drawsOwnContent, !record.deviceRect.intersection(damage).isEmpty {
            drawOwnContent(of: layer, shown: shown, state: state, record: record, in: context)
        }
        if let replicator = layer as? ReplicatorLayer {
            drawReplicas(of: replicator, record: record, in: context, damage: damage)
        } else {
            if record.drawOrder.isEmpty, record.sublayerPaintsFrame == frameNumber,
               record.sublayerPaints.count == layer.sublayerStorage.count {
                drawSublayers(of: layer, paints: record.sublayerPaints, in: context, damage: damage, target: target)
            } else {
                for sublayer in record.drawOrder.isEmpty ? layer.sublayerStorage : record.drawOrder {
                    draw(sublayer, in: context, damage: damage, target: target)
                }
            }
        }
        if state.borderWidth > 0, state.borderColor.alpha > 0 {
            resetTransform(of: context)
            context.concatenate(record.deviceTransform)
            context.setAlpha(record.opacity)
            let w = state.borderWidth
            context.setStrokeColor(state.borderColor)
            context.setStrokeStyle(StrokeStyle(lineWidth: w, lineJoin: .miter))
            let inset = bounds.standardized.insetBy(dx: w / 2, dy: w / 2).standardized
            let radius = max(0, state.cornerRadius - w / 2)
            if radius > 0 {
                context.stroke(roundedRect(inset, radius: radius, corners: state.effects.maskedCorners))
            } else {
                context.stroke(inset)               // square corners: a frame, covered analytically
            }
        }
        context.restoreGState()
    }

    /// Draws the sublayers of `layer` in order, those that paint only a fill from `paints`, as
    /// `draw` would while no occluder is pending (with one, each goes through `draw`).
    private func drawSublayers(of layer: Layer, paints: ContiguousArray<SublayerPaint>, in context: GraphicsContext,
                               damage: IntRect, target: Bitmap) {
        let sublayers = layer.sublayerStorage
        for i in paints.indices {
            let paint = paints[i]
            if paint.kind == .layer || isOcclusionPending {
                draw(sublayers[i], in: context, damage: damage, target: target)
                continue
            }
            guard paint.kind == .fill, !paint.deviceRect.intersection(damage).isEmpty else { continue }
            resetTransform(of: context)
            context.concatenate(paint.transform)
            context.setAlpha(paint.opacity)
            if paint.hasColor {
                context.setFillColor(paint.color)
                context.fill(paint.bounds)
            }
        }
    }

    func drawOwnContent(of layer: Layer, shown: Layer, record: RenderRecord, in context: GraphicsContext) {
        drawOwnContent(of: layer, shown: shown, state: shown.state, record: record, in: context)
    }

    /// The same, with the shown layer's state at hand.
    func drawOwnContent(of layer: Layer, shown: Layer, state: LayerState, record: RenderRecord, in context: GraphicsContext) {
        let bounds = state.bounds
        if let background = state.backgroundColor, background.alpha > 0 {
            context.setFillColor(background)
            if state.cornerRadius > 0 {
                context.fill(roundedRect(bounds, radius: state.cornerRadius, corners: state.effects.maskedCorners))
            } else {
                context.fill(bounds)
            }
        }
        if let contents = shown.contents {
            drawContents(contents, state: state, in: context)
        }
        if record.hasFills, let fills = record.fills {
            drawFills(fills, of: shown, record: record, in: context)
        } else if let store = record.backingStore {
            let b = bounds.standardized
            context.draw(store, in: Rect(x: b.minX, y: b.minY, width: Double(store.width), height: Double(store.height)))
        }
        shown.drawDirectContent(in: context)
    }

    /// The mask picture of the current depth over `damage`, drawn by `body` into the context it
    /// is given and turned into alpha as `mode` says.
    func maskPicture(mode: MaskMode, damage: IntRect, _ body: (GraphicsContext) -> Void) -> OffscreenPicture? {
        while maskPictures.count <= maskDepth { maskPictures.append(nil) }
        guard let picture = OffscreenPicture.reused(maskPictures[maskDepth], for: damage, shrinks: false) else { return nil }
        maskPictures[maskDepth] = picture
        picture.clear(damage)
        maskDepth += 1
        defer { maskDepth -= 1 }
        drawing(into: picture, region: damage) { body(picture.context) }
        if mode != .alpha { Self.convertMask(picture.bitmap, in: picture.local(damage), mode: mode) }
        return picture
    }

    /// Runs `body`, which draws into `picture`, with device coordinates shifted to the picture's
    /// pixels and its context clipped to `region` (device pixels).
    func drawing(into picture: OffscreenPicture, region: IntRect, _ body: () -> Void) {
        let saved = origin
        origin = picture.origin
        let context = picture.context
        context.saveGState()
        resetTransform(of: context)
        context.clip(to: region.rect)
        body()
        context.restoreGState()
        origin = saved
    }

    /// Sets the context's transform back to device space: the identity, or the shift to the
    /// offscreen picture being drawn (the clip, in device space, stays). Exactly: a layer's
    /// pixels must not depend on which layers were drawn before it.
    func resetTransform(of context: GraphicsContext) {
        // Frames drawn in two bands never draw into offscreen pictures (noteBandSafety), so
        // both bands find the origin at (0, 0) and only read it.
        context.ctm = origin == (0, 0) ? .identity : Transform(translationX: Double(-origin.x), y: Double(-origin.y))
    }

    /// `rect` with rounded corners, built in a reused buffer (a fresh path would allocate for
    /// every rounded layer every frame). Valid until the next call.
    func roundedRect(_ rect: Rect, radius: Double, corners: CornerMask = .all) -> Path {
        if let worker = bands.worker, worker.isCurrent { return bandRoundedRect(rect, radius: radius, corners: corners) }
        pathScratch.removeAll()
        Self.addRoundedRect(rect, radius: radius, corners: corners, to: &pathScratch)
        return pathScratch
    }
}

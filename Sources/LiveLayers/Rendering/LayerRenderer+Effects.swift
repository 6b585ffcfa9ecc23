// LayerRenderer+Effects: group opacity, compositing filters and shadows, drawn through offscreen pictures.

import Raster

/// Offscreen pictures and the group being drawn, kept by the renderer from frame to frame.
@MainActor
final class EffectsScratch {
    /// One target-sized picture per nesting depth of groups.
    var offscreens: [(bitmap: Bitmap, context: GraphicsContext)] = []
    var depth = 0
    /// The layer whose effects are being applied: drawing it again draws it plainly.
    unowned(unsafe) var active: Layer?

    /// Views of contents images (contentsRect and contentsCenter slices), kept while in use.
    private var views: [ViewKey: Bitmap] = [:]

    private struct ViewKey: Hashable {
        var image: ObjectIdentifier
        var rect: IntRect
    }

    /// A view of `rect` of `image`, made once and kept (the cache starts over past 256 views).
    func view(of image: Bitmap, _ rect: IntRect) -> Bitmap? {
        if rect == image.bounds { return image }
        let key = ViewKey(image: ObjectIdentifier(image), rect: rect)
        if let view = views[key], view.width == rect.width { return view }
        guard let view = image.view(of: rect) else { return nil }
        if views.count >= 256 { views.removeAll(keepingCapacity: true) }
        views[key] = view
        return view
    }

    /// The picture for the current depth, the size of `target`.
    func offscreen(like target: Bitmap) -> (bitmap: Bitmap, context: GraphicsContext)? {
        if depth < offscreens.count, offscreens[depth].bitmap.width == target.width, offscreens[depth].bitmap.height == target.height {
            return offscreens[depth]
        }
        guard let bitmap = try? Bitmap(width: target.width, height: target.height) else { return nil }
        let made = (bitmap, GraphicsContext(bitmap: bitmap))
        if depth < offscreens.count { offscreens[depth] = made } else { offscreens.append(made) }
        return made
    }
}

extension LayerRenderer {
    /// Whether the layer's subtree is composited as one picture: a compositing filter, or an
    /// opacity below 1 over sublayers with group opacity allowed.
    static func drawsAsGroup(_ layer: Layer, _ state: LayerState) -> Bool {
        state.effects.compositingFilter != nil
            || (state.opacity < 1 && state.effects.allowsGroupOpacity && !layer.sublayerStorage.isEmpty)
    }

    /// Whether the layer casts a shadow (Core Animation clips it away with masksToBounds).
    static func castsShadow(_ state: LayerState) -> Bool {
        state.effects.hasShadow && !state.masksToBounds && state.effects.shadowRadius.isFinite
    }

    /// After the subtree is prepared: damage for group and shadow changes. Returns the subtree's
    /// extent grown by the shadow.
    func prepareEffects(of layer: Layer, record: RenderRecord, subtree: IntRect) -> IntRect {
        let state = record.shown.state
        record.contentRect = subtree
        let extent = subtree
        if record.isGroup || record.groupKey != 0 {
            var hasher = Hasher()
            hasher.combine(record.isGroup)
            hasher.combine(record.opacity)
            hasher.combine(state.effects.compositingFilter)
            let key = record.isGroup ? hasher.finalize() : 0
            if key != record.groupKey {
                // The group's alpha or blend changes every pixel of its picture.
                damage(record.subtreeRect)
                damage(subtree)
                record.groupKey = key
            }
        }
        let casts = record.isVisible && Self.castsShadow(state)
        guard casts || !record.shadowRect.isEmpty else { return extent }
        var shadowRect = IntRect.zero
        var key = 0
        if casts {
            let fx = state.effects
            let t = record.deviceTransform
            let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
            let sigma = fx.shadowRadius * scale / 2
            let reach = AlphaBlur.reach(sigma: sigma)
            let dx = Int((t.a * fx.shadowOffset.width + t.c * fx.shadowOffset.height).rounded())
            let dy = Int((t.b * fx.shadowOffset.width + t.d * fx.shadowOffset.height).rounded())
            record.shadowShift = (dx, dy, sigma)
            let source = shadowSourceRect(of: layer, record: record)
            shadowRect = IntRect(x: source.x + dx - reach, y: source.y + dy - reach,
                                 width: source.width + 2 * reach, height: source.height + 2 * reach)
            // The offset moves the cached blur without changing it; it is not part of the key.
            var hasher = Hasher()
            hasher.combine(source)
            hasher.combine(sigma)
            hasher.combine(fx.shadowPath)
            hasher.combine(record.opacity)
            hasher.combine(fx.shadowColor)
            hasher.combine(fx.shadowOpacity)
            hasher.combine(record.deviceTransform)
            if fx.shadowPath == nil {
                // The shadow is cast by the pixels: any change in the subtree recasts it.
                hasher.combine(record.signature.contentVersion)
                hasher.combine(record.signature.contentsSerial)
                hasher.combine(record.signature.state.backgroundColor)
                hasher.combine(record.signature.state.cornerRadius)
                hasher.combine(record.signature.state.borderWidth)
                for sublayer in layer.sublayerStorage { subtreeSignature(of: sublayer, into: &hasher) }
            }
            key = hasher.finalize()
        }
        if key != record.shadowKey || shadowRect != record.shadowRect {
            damage(record.shadowRect)
            damage(shadowRect)
            if key != record.shadowKey { record.shadowIsStale = true }
            record.shadowKey = key
        }
        record.shadowRect = shadowRect
        return extent.union(shadowRect)
    }

    /// The device pixels that cast the shadow: the shadow path's, or the layer's and its sublayers'.
    private func shadowSourceRect(of layer: Layer, record: RenderRecord) -> IntRect {
        guard let path = record.shown.state.effects.shadowPath else { return record.contentRect }
        let box = path.boundingBox
        guard box.width > 0 || box.height > 0 else { return .zero }
        let r = IntRect(enclosing: box.applying(record.deviceTransform))
        return IntRect(x: r.x - 1, y: r.y - 1, width: r.width + 2, height: r.height + 2)
    }

    /// Draws the layer's shadow and then the layer, through an offscreen picture when it is a
    /// group. Returns false when the layer has no effect to apply (draw it plainly).
    func drawEffects(of layer: Layer, record: RenderRecord, in context: GraphicsContext, damage: IntRect, target: Bitmap) -> Bool {
        guard effects.active !== layer, record.isGroup || !record.shadowRect.isEmpty else { return false }
        let previous = effects.active
        effects.active = layer
        defer { effects.active = previous }
        if !record.shadowRect.intersection(damage).isEmpty {
            drawShadow(of: layer, record: record, in: context, damage: damage, target: target)
        }
        guard record.isGroup else {
            draw(layer, in: context, damage: damage, target: target)
            return true
        }
        let region = damage.intersection(record.contentRect)
        guard !region.isEmpty, let picture = renderOffscreen(layer, record: record, region: region, like: target) else {
            return true
        }
        context.composite(picture, region: region, alpha: record.opacity, blend: record.shown.state.effects.compositingFilter ?? .normal)
        return true
    }

    /// Draws `layer`'s subtree at full opacity into the offscreen picture of the current depth,
    /// over `region`.
    private func renderOffscreen(_ layer: Layer, record: RenderRecord, region: IntRect, like target: Bitmap) -> Bitmap? {
        guard let (picture, pictureContext) = effects.offscreen(like: target) else { return nil }
        picture.fill(region, with: 0)
        let opacity = record.opacity
        record.opacity = 1
        effects.depth += 1
        pictureContext.saveGState()
        pictureContext.clip(to: region.rect)
        draw(layer, in: pictureContext, damage: region, target: picture)
        pictureContext.restoreGState()
        effects.depth -= 1
        record.opacity = opacity
        return picture
    }

    private func drawShadow(of layer: Layer, record: RenderRecord, in context: GraphicsContext, damage: IntRect, target: Bitmap) {
        let fx = record.shown.state.effects
        if record.shadowIsStale || record.shadowBlur == nil {
            let blur = record.shadowBlur ?? AlphaBlur()
            record.shadowBlur = blur
            let source = shadowSourceRect(of: layer, record: record).intersection(target.bounds)
            if let path = fx.shadowPath {
                guard let (picture, pictureContext) = effects.offscreen(like: target) else { return }
                picture.fill(source, with: 0)
                pictureContext.saveGState()
                pictureContext.clip(to: source.rect)
                resetTransform(of: pictureContext)
                pictureContext.concatenate(record.deviceTransform)
                pictureContext.setFillColor(.black)
                pictureContext.fill(path)
                pictureContext.restoreGState()
                blur.blur(alphaOf: picture, in: source, sigma: record.shadowShift.sigma)
            } else if let picture = renderOffscreen(layer, record: record, region: source, like: target) {
                blur.blur(alphaOf: picture, in: source, sigma: record.shadowShift.sigma)
            }
            record.shadowIsStale = false
        }
        guard let blur = record.shadowBlur else { return }
        context.saveGState()
        context.setAlpha(record.opacity)
        context.drawShadow(blur, color: fx.shadowColor.withAlpha(fx.shadowColor.alpha * min(1, fx.shadowOpacity)),
                           dx: record.shadowShift.dx, dy: record.shadowShift.dy)
        context.restoreGState()
    }
}

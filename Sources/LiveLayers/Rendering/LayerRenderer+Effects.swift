// LayerRenderer+Effects: group opacity, compositing filters and shadows, drawn through offscreen pictures.

import Raster

/// Scratch pictures and the group being drawn, kept by the renderer from frame to frame.
@MainActor
final class EffectsScratch {
    /// The pixels casting the shadow being blurred.
    var shadowSource: OffscreenPicture?
    /// How many pixels of kept group and mask pictures the last frame redrew (for tests).
    var pixelsRedrawn = 0
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
}

extension LayerRenderer {
    /// Whether the layer's subtree is composited as one picture: a compositing filter, or an
    /// opacity below 1 over sublayers with group opacity allowed.
    /// `shown` is the layer as shown this frame.
    static func drawsAsGroup(_ layer: Layer, shown: Layer) -> Bool {
        shown.state.effectsBox.value.compositingFilter != nil
            || (drawnOpacity(shown.state.opacity) < 1 && shown.state.effectsBox.value.allowsGroupOpacity
                && !layer.sublayerStorage.isEmpty)
    }

    /// A layer's own opacity as drawn: clamped to 0...1 (NaN is 0), and 1 from half a `Float`
    /// step below it, as Core Animation's opacity (a `Float`) holds it. A value short of 1 by
    /// float noise (1 - 1e-9) is opaque there, not a group composited at the same 8-bit alpha,
    /// which rounds translucent sublayers differently and draws a first picture for the frame.
    @inline(__always)
    static func drawnOpacity(_ opacity: Double) -> Double {
        opacity >= 1 - 0x1p-25 ? 1 : max(0, opacity)
    }

    /// Whether the layer casts a shadow (Core Animation clips it away with masksToBounds).
    static func castsShadow(_ shown: Layer) -> Bool {
        shown.state.effectsBox.value.hasShadow && !shown.state.masksToBounds && shown.state.effectsBox.value.shadowRadius.isFinite
    }

    /// After the subtree is prepared: damage for group and shadow changes, and whether a group's
    /// picture still holds (`changesPicture`: something in the subtree, or the layer's own
    /// drawing, changed this frame). Returns the subtree's extent grown by the shadow.
    /// `shown` is the layer as shown this frame.
    func prepareEffects(of layer: Layer, record: RenderRecord, shown: Layer, subtree: IntRect, changesPicture: Bool) -> IntRect {
        record.contentRect = subtree
        let extent = subtree
        if record.isGroup, !changesPicture, record.pictureFrame == frameNumber - 1, pictureRect(of: record) == record.pictureRect {
            record.pictureFrame = frameNumber
        }
        if record.isGroup || record.groupKey != 0 {
            var hasher = Hasher()
            hasher.combine(record.isGroup)
            hasher.combine(record.opacity)
            hasher.combine(shown.state.effects.compositingFilter)
            let key = record.isGroup ? hasher.finalize() : 0
            if key != record.groupKey {
                // The group's alpha or blend changes every pixel of its picture.
                damage(record.subtreeRect)
                damage(subtree)
                record.groupKey = key
            }
        }
        let casts = record.isVisible && Self.castsShadow(shown)
        guard casts || !record.shadowRect.isEmpty else { return extent }
        var shadowRect = IntRect.zero
        var key = 0
        if casts {
            let fx = shown.state.effects
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
                hasher.combine(record.signature.backgroundColor)
                hasher.combine(record.signature.cornerRadius)
                hasher.combine(record.signature.borderWidth)
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
        guard !region.isEmpty, let picture = updatedPicture(of: layer, record: record) else { return true }
        context.composite(picture.bitmap, origin: (picture.origin.x - origin.x, picture.origin.y - origin.y),
                          region: IntRect(x: region.x - origin.x, y: region.y - origin.y, width: region.width, height: region.height),
                          alpha: record.opacity, blend: record.shown.state.effects.compositingFilter ?? .normal)
        return true
    }

    /// The size a picture of `content` needs, whatever part of it is inside the frame.
    func pictureRoom(for content: IntRect) -> (width: Int, height: Int) {
        (min(content.width, targetSize.width), min(content.height, targetSize.height))
    }

    /// The device pixels a group's picture holds: its subtree's, inside the frame.
    func pictureRect(of record: RenderRecord) -> IntRect {
        record.contentRect.intersection(IntRect(x: 0, y: 0, width: targetSize.width, height: targetSize.height))
    }

    /// Redraws a kept picture's `rect`: only where this frame damaged it when the picture was
    /// up to date last frame over the same rectangle (every pixel its source changed is in this
    /// frame's damage), else all of it.
    func redraw(_ rect: IntRect, partially: Bool, _ draw: (IntRect) -> Void) {
        guard partially else {
            draw(rect)
            effects.pixelsRedrawn += rect.area
            return
        }
        for damaged in output {
            let region = damaged.intersection(rect)
            guard !region.isEmpty else { continue }
            draw(region)
            effects.pixelsRedrawn += region.area
        }
    }

    /// The group's picture, up to date with this frame. It is redrawn only where this frame
    /// damaged it, and only when something in the subtree changed (or all of it, when it was
    /// not kept up to date last frame or its rectangle changed): a frame that changes nothing
    /// in the subtree composites the picture as it is.
    private func updatedPicture(of layer: Layer, record: RenderRecord) -> OffscreenPicture? {
        if record.pictureFrame == frameNumber, let picture = record.picture { return picture }
        let rect = pictureRect(of: record)
        let isPartial = record.pictureFrame == frameNumber - 1 && rect == record.pictureRect && record.picture != nil
        guard let picture = OffscreenPicture.reused(record.picture, for: rect, room: pictureRoom(for: record.contentRect),
                                                    shrinks: true) else {
            record.picture = nil
            return nil
        }
        record.picture = picture
        redraw(rect, partially: isPartial) { region in
            renderSubtree(layer, record: record, into: picture, region: region)
        }
        record.pictureRect = rect
        record.pictureFrame = frameNumber
        return picture
    }

    /// Draws `layer`'s subtree at full opacity into `picture` over `region` (device pixels).
    private func renderSubtree(_ layer: Layer, record: RenderRecord, into picture: OffscreenPicture, region: IntRect) {
        picture.clear(region)
        let opacity = record.opacity
        record.opacity = 1
        drawing(into: picture, region: region) {
            draw(layer, in: picture.context, damage: region, target: picture.bitmap)
        }
        record.opacity = opacity
    }

    /// The device pixels the layer's own opaque background covers at full coverage, drawn right
    /// after its shadow (the shadow need not be drawn under them): the background's rectangle
    /// inset by the corner radius and a pixel more, when the layer is opaque, unmasked, drawn
    /// plainly (not a group) and not turned or flipped. Empty otherwise.
    static func opaqueInterior(of layer: Layer, record: RenderRecord) -> IntRect {
        let state = record.shown.state
        let t = record.deviceTransform
        guard record.opacity >= 1, !record.isGroup, layer.maskStorage == nil, let background = state.backgroundColor,
              background.alpha >= 1, t.b == 0, t.c == 0, t.a > 0, t.d > 0 else { return .zero }
        let b = state.bounds.standardized
        let radius = max(0, min(state.cornerRadius, b.width / 2, b.height / 2))
        let inner = b.insetBy(dx: radius, dy: radius)
        let x0 = (t.a * inner.minX + t.tx).rounded(.up) + 1, y0 = (t.d * inner.minY + t.ty).rounded(.up) + 1
        let x1 = (t.a * inner.maxX + t.tx).rounded(.down) - 1, y1 = (t.d * inner.maxY + t.ty).rounded(.down) - 1
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x1 > x0, y1 > y0,
              abs(x0) < 1e9, abs(y0) < 1e9, abs(x1) < 1e9, abs(y1) < 1e9 else { return .zero }
        return IntRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    private func drawShadow(of layer: Layer, record: RenderRecord, in context: GraphicsContext, damage: IntRect, target: Bitmap) {
        let fx = record.shown.state.effects
        if record.shadowIsStale || record.shadowBlur == nil {
            let blur = record.shadowBlur ?? AlphaBlur()
            record.shadowBlur = blur
            let frame = IntRect(x: 0, y: 0, width: targetSize.width, height: targetSize.height)
            let source = shadowSourceRect(of: layer, record: record).intersection(frame)
            guard let picture = OffscreenPicture.reused(effects.shadowSource, for: source, shrinks: false) else {
                blur.blur(alphaOf: target, in: .zero, sigma: 0)
                record.shadowIsStale = false
                return
            }
            effects.shadowSource = picture
            if let path = fx.shadowPath {
                picture.clear(source)
                drawing(into: picture, region: source) {
                    picture.context.concatenate(record.deviceTransform)
                    picture.context.setFillColor(.black)
                    picture.context.fill(path)
                }
            } else {
                renderSubtree(layer, record: record, into: picture, region: source)
            }
            blur.blur(alphaOf: picture.bitmap, in: picture.local(source), sigma: record.shadowShift.sigma)
            record.shadowOrigin = picture.origin
            record.shadowIsStale = false
        }
        guard let blur = record.shadowBlur else { return }
        context.saveGState()
        context.setAlpha(record.opacity)
        let hidden = Self.opaqueInterior(of: layer, record: record)
        context.drawShadow(blur, color: fx.shadowColor.withAlpha(fx.shadowColor.alpha * min(1, fx.shadowOpacity)),
                           dx: record.shadowShift.dx + record.shadowOrigin.x - origin.x,
                           dy: record.shadowShift.dy + record.shadowOrigin.y - origin.y,
                           hidden: IntRect(x: hidden.x - origin.x, y: hidden.y - origin.y, width: hidden.width, height: hidden.height))
        context.restoreGState()
    }
}

// LayerRenderer+Replicas: preparing and drawing a ReplicatorLayer's instances.

import Raster

extension LayerRenderer {
    /// Refreshes every instance copy of `replicator`'s subtree for this frame and damages the
    /// replicated extent when anything in it may have changed. Returns that extent (device pixels).
    func prepareReplicas(of replicator: ReplicatorLayer, record: RenderRecord, time: Double, frame: Int) -> IntRect {
        let shown = unsafeDowncast(record.shown, to: ReplicatorLayer.self)
        let count = record.isVisible ? max(0, shown.instanceCount) : 0
        var extent = IntRect.zero
        var animating = shown !== replicator
        for i in 0..<count {
            let base = shown.instanceTransform(at: i)
                .concatenating(Self.sublayerDeviceTransform(of: shown, deviceTransform: record.deviceTransform))
            let tint = shown.instanceTint(at: i)
            let t = time - Double(i) * shown.instanceDelay
            for sublayer in replicator.sublayerStorage {
                extent = extent.union(prepareInstance(sublayer, of: replicator, index: i, count: count, time: t,
                                                      parentTransform: base, tint: tint, isTop: true, animating: &animating))
            }
        }
        var hasher = Hasher()
        hasher.combine(extent)
        hasher.combine(record.contentVersion)
        for sublayer in replicator.sublayerStorage { subtreeSignature(of: sublayer, into: &hasher) }
        // While anything in the replicated subtree animates, the delayed instances change even
        // when instance 0 has settled: redraw them every frame.
        if animating { hasher.combine(frame) }
        let key = hasher.finalize()
        if key != record.replicaKey || extent != record.replicaRect {
            damage(record.replicaRect)
            damage(extent)
            record.replicaKey = key
        }
        record.replicaRect = extent
        return extent
    }

    /// Refreshes the instance-`index` copy of `layer` and its subtree; returns their device extent.
    private func prepareInstance(_ layer: Layer, of replicator: ReplicatorLayer, index: Int, count: Int, time: Double,
                                 parentTransform: Transform, tint: Color, isTop: Bool, animating: inout Bool) -> IntRect {
        let id = ObjectIdentifier(layer)
        if replicator.instanceCopies[id]?.count ?? 0 < count {
            var copies = replicator.instanceCopies[id] ?? []
            while copies.count < count { copies.append(layer.makeInstanceCopy()) }
            replicator.instanceCopies[id] = copies
        }
        let copy = replicator.instanceCopies[id].unsafelyUnwrapped[index]
        layer.refreshInstanceCopy(copy, atMediaTime: time)
        if layer.hasAttachedAnimations { animating = true }
        if isTop { copy.state.opacity *= tint.alpha }
        if tint.red != 1 || tint.green != 1 || tint.blue != 1 { Self.tint(copy, by: tint) }
        guard !copy.state.isHidden else { return .zero }
        let transform = copy.transformToSuperlayer.concatenating(parentTransform)
        let own = deviceRect(of: copy, transform: transform)
        var extent = own
        for sublayer in layer.sublayerStorage {
            extent = extent.union(prepareInstance(sublayer, of: replicator, index: index, count: count, time: time,
                                                  parentTransform: transform, tint: tint, isTop: false, animating: &animating))
        }
        if copy.state.masksToBounds { extent = extent.intersection(own) }
        if let mask = layer.maskStorage {
            // Only its alpha counts: no tint, and it adds nothing to the extent.
            _ = prepareInstance(mask, of: replicator, index: index, count: count, time: time, parentTransform: transform,
                                tint: Color(white: 1), isTop: false, animating: &animating)
        }
        return extent
    }

    /// Multiplies the copy's colours by the tint's red, green and blue.
    private static func tint(_ copy: Layer, by tint: Color) {
        func times(_ c: Color) -> Color {
            Color(red: c.red * tint.red, green: c.green * tint.green, blue: c.blue * tint.blue, alpha: c.alpha)
        }
        if let background = copy.state.backgroundColor { copy.state.backgroundColor = times(background) }
        copy.state.borderColor = times(copy.state.borderColor)
        if let shape = copy as? ShapeLayer {
            if let fill = shape.fillColor { shape.fillColor = times(fill) }
            if let stroke = shape.strokeColor { shape.strokeColor = times(stroke) }
        }
    }

    /// Draws every instance of `replicator`'s sublayers, in order, clipped to `damage`.
    func drawReplicas(of replicator: ReplicatorLayer, record: RenderRecord, in context: GraphicsContext, damage: IntRect) {
        guard !record.replicaRect.intersection(damage).isEmpty else { return }
        let shown = unsafeDowncast(record.shown, to: ReplicatorLayer.self)
        let count = max(0, shown.instanceCount)
        for i in 0..<count {
            let base = shown.instanceTransform(at: i)
                .concatenating(Self.sublayerDeviceTransform(of: shown, deviceTransform: record.deviceTransform))
            for sublayer in replicator.sublayerStorage {
                drawInstance(sublayer, of: replicator, index: i, parentTransform: base, parentOpacity: record.opacity,
                             damage: damage, in: context)
            }
        }
    }

    private func drawInstance(_ layer: Layer, of replicator: ReplicatorLayer, index: Int, parentTransform: Transform,
                              parentOpacity: Double, damage: IntRect, in context: GraphicsContext) {
        guard let copies = replicator.instanceCopies[ObjectIdentifier(layer)], index < copies.count else { return }
        let copy = copies[index]
        let state = copy.state
        let opacity = parentOpacity * Self.drawnOpacity(state.opacity)
        guard !state.isHidden, opacity > 0 else { return }
        let transform = copy.transformToSuperlayer.concatenating(parentTransform)
        context.saveGState()
        if let mask = layer.maskStorage, maskDepth < Self.maskNestingLimit {
            // The instance's own copy of the mask subtree, at the instance's transform and time.
            guard let picture = maskPicture(mode: state.effects.maskMode, damage: damage, { maskContext in
                drawInstance(mask, of: replicator, index: index, parentTransform: transform, parentOpacity: 1,
                             damage: damage, in: maskContext)
            }) else {
                context.restoreGState()
                return
            }
            resetTransform(of: context)
            context.clip(toMask: picture.bitmap, in: picture.deviceBounds.rect)
        }
        resetTransform(of: context)
        context.concatenate(transform)
        context.setAlpha(opacity)
        if state.masksToBounds {
            if state.cornerRadius > 0 {
                context.beginPath()
                context.addPath(roundedRect(state.bounds, radius: state.cornerRadius, corners: state.effects.maskedCorners))
                context.clip()
            } else {
                context.clip(to: state.bounds)
            }
        }
        drawOwnContent(of: layer, shown: copy, record: layer.record(in: self), in: context)
        for sublayer in layer.sublayerStorage {
            drawInstance(sublayer, of: replicator, index: index, parentTransform: transform, parentOpacity: opacity,
                         damage: damage, in: context)
        }
        if state.borderWidth > 0, state.borderColor.alpha > 0 {
            resetTransform(of: context)
            context.concatenate(transform)
            context.setAlpha(opacity)
            let w = state.borderWidth
            context.setStrokeColor(state.borderColor)
            context.setStrokeStyle(StrokeStyle(lineWidth: w, lineJoin: .miter))
            let inset = state.bounds.standardized.insetBy(dx: w / 2, dy: w / 2).standardized
            let radius = max(0, state.cornerRadius - w / 2)
            if radius > 0 { context.stroke(roundedRect(inset, radius: radius, corners: state.effects.maskedCorners)) } else { context.stroke(inset) }
        }
        context.restoreGState()
    }
}

// Layer+Animations: attaching, committing, evaluating and retiring animations.

/// An animation attached to a layer: the added copy, its evaluator and its lifecycle.
///
/// Taken off its layer, a record is retired to the runtime (``LayerRuntime/retire(_:)``),
/// which gives it, copy and evaluator included, to a later ``Layer/add(_:forKey:)`` once
/// nothing else holds it: an autoplaying scene adds the same kinds of animation again and
/// again, and would otherwise allocate all three each time.
@MainActor
final class AttachedAnimation {
    // What each frame reads first, on the object's first cache line.
    var isCommitted = false
    var hasStarted = false
    var hasStopped = false
    /// Whether an animated key redraws the layer (`needsDisplay(forKey:)`).
    var redrawsLayer = false
    var effect: AnimationEffect?
    var timing: TimingModel
    private(set) var key: String?
    /// The copy that was added. Only the record holds it, unless its layer handed it out
    /// (``Layer/animation(forKey:)``, a delegate's or callback's argument): a retired record
    /// is reused only while it is still the only holder (``LayerRuntime/retire(_:)``).
    private(set) var animation: Animation
    /// The phase and active time the renderer last drew this animation at.
    var lastDrawnPhase: TimingModel.Phase?
    var lastDrawnActiveTime = Double.nan
    var completionGroups: [CompletionGroup] = []
    /// Whether the stop event was delivered (after it, no event holds the record).
    var hasDeliveredStop = false
    /// Whether the record was taken off its layer and given to the runtime for reuse.
    var isRetired = false
    /// The evaluator of the animation this record held before, for the commit to refill.
    var spareEffect: AnimationEffect?

    init(key: String?, animation: Animation) {
        self.key = key
        self.animation = animation
        self.timing = animation.timingModel
    }

    /// Whether the record can hold a copy of `source` instead of a new record: its stop was
    /// delivered, its copy is of `source`'s class and no one but the record holds it.
    func canBeRefilled(with source: Animation) -> Bool {
        hasDeliveredStop && type(of: animation) == type(of: source) && animation is PropertyAnimation && ownsAnimationAlone
    }

    /// Makes the copy take `source`'s settings.
    func refill(copying source: Animation) {
        animation.takeSettings(of: source)
    }

    /// Starts the record's life again under `key`, as a new record's: its evaluator waits for
    /// the commit to refill it.
    func reset(key: String?) {
        self.key = key
        isCommitted = false
        hasStarted = false
        hasStopped = false
        redrawsLayer = false
        if let effect { spareEffect = effect }
        effect = nil
        lastDrawnPhase = nil
        lastDrawnActiveTime = .nan
        hasDeliveredStop = false
        isRetired = false
    }

    /// Whether the copy is held by nothing but this record (so it can be refilled, or its
    /// callbacks dropped, without anyone seeing it).
    var ownsAnimationAlone: Bool { isKnownUniquelyReferenced(&animation) }

    /// Drops the copy's delegate and callbacks once no one can see the copy any more, so that
    /// a retired record keeps none of them alive, as a removed animation in Core Animation.
    func releaseCallbacksIfUnseen() {
        guard isRetired, hasDeliveredStop, ownsAnimationAlone else { return }
        animation.delegate = nil
        animation.didStart = nil
        animation.didStop = nil
    }
}

extension Layer {
    /// Attaches a copy of `animation`, replacing (and stopping) any animation with the same
    /// key, as `CALayer.add(_:forKey:)`. The replaced one stops with `finished: false`, once,
    /// after the current transaction (see ``removeAnimation(forKey:)``).
    ///
    /// The copy's duration, if 0 or less, becomes ``Transaction/animationDuration``; its
    /// `beginTime`, if 0, becomes the media time of the commit (the next frame update, or the
    /// outermost ``Transaction/commit()``). Until then the animation has no effect.
    public func add(_ animation: Animation, forKey key: String?) {
        guard !isPresentationCopy else {
            Diagnostics.warn("animations cannot be added to a presentation copy; ignored")
            return
        }
        // The copy goes into a record that nothing else holds, when there is one: the one
        // replaced under `key`, once its stop was delivered, or one the runtime keeps. The
        // replaced one is still attached until it is taken off below, but nothing reads its
        // copy until then: what the layer shows comes from its evaluator, which is kept.
        let replaced = key.flatMap { key in attachedAnimations.first { $0.key == key } }
        let record: AttachedAnimation
        if let replaced, replaced.canBeRefilled(with: animation) {
            replaced.refill(copying: animation)
            record = replaced
        } else if let retired = LayerRuntime.shared.takeRetired(like: animation) {
            retired.refill(copying: animation)
            record = retired
        } else {
            record = AttachedAnimation(key: key, animation: animation.copy())
        }
        let copy = record.animation
        if copy.duration <= 0 { copy.duration = Transaction.animationDuration }
        let keyPath = (copy as? PropertyAnimation)?.keyPath
        copy.prepareForAdding(to: self, previousValue: keyPath.flatMap { previousValue(forChangeOf: $0) })
        if let replaced, let index = attachedAnimations.firstIndex(where: { $0 === replaced }) {
            detach(at: index, retiring: replaced !== record)
        }
        record.reset(key: key)
        record.timing = copy.timingModel
        LayerRuntime.shared.joinOpenCompletionGroups(&record.completionGroups)
        // Changed through a local copy (here and below): a change made in place calls into
        // the standard library during the access, which would cost every read of the list,
        // each frame for each layer, a dynamic exclusivity check (see LayerTiming).
        var list = attachedAnimations
        attachedAnimations = []
        list.append(record)
        attachedAnimations = list
        animationsChanged()
        LayerRuntime.shared.resetLifecycleBound(of: self)
        modelVersion &+= 1
        renderVersion &+= 1
        LayerRuntime.shared.touch(self)
        LayerRuntime.shared.watch(self)
    }

    /// The animation attached for `key` (a copy of the one added, which must not be changed),
    /// or `nil`.
    public func animation(forKey key: String) -> Animation? {
        attachedAnimations.last { $0.key == key }?.animation
    }

    /// The keys of the attached animations, in the order they were added.
    public func animationKeys() -> [String] {
        attachedAnimations.compactMap(\.key)
    }

    /// Detaches the animation for `key`; its delegate, `didStop` and transaction completion
    /// hear `finished: false` unless it already stopped: once, after the current transaction
    /// (at the outermost commit, or at the next frame update outside a transaction).
    public func removeAnimation(forKey key: String) {
        guard let index = attachedAnimations.firstIndex(where: { $0.key == key }) else { return }
        detach(at: index)
    }

    /// Detaches every animation.
    public func removeAllAnimations() {
        while !attachedAnimations.isEmpty { detach(at: attachedAnimations.count - 1) }
    }

    /// Takes the animation at `index` off the layer; unless `retiring` is false (its record
    /// is being reused at once), the runtime keeps its record for a later `add`.
    private func detach(at index: Int, retiring: Bool = true) {
        var list = attachedAnimations
        attachedAnimations = []
        let record = list.remove(at: index)
        attachedAnimations = list
        // What it drew is now the model's to draw: no animation is left to say its value moved.
        if record.redrawsLayer { needsDisplayFlag = true }
        animationsChanged()
        LayerRuntime.shared.resetLifecycleBound(of: self)
        if !record.hasStopped {
            record.hasStopped = true
            LayerRuntime.shared.events.append(.stop(record, finished: false))
        }
        if retiring { LayerRuntime.shared.retire(record) }
        modelVersion &+= 1
        renderVersion &+= 1
        LayerRuntime.shared.touch(self)
    }

    /// Called by the commit: the layer now has a presentation copy, and its new animations
    /// get their begin time and evaluator.
    func commit(atMediaTime now: Double) {
        hasBeenCommitted = true
        LayerRuntime.shared.resetLifecycleBound(of: self)
        var changed = false
        for record in attachedAnimations where !record.isCommitted {
            if record.animation.beginTime == 0 {
                record.animation.beginTime = localTime(fromMediaTime: now)
            }
            record.timing = record.animation.timingModel
            let spare = record.spareEffect
            record.spareEffect = nil
            record.effect = record.animation.makeEffect(for: self, reusing: spare)
            record.redrawsLayer = redraws(for: record.effect)
            record.isCommitted = true
            changed = true
        }
        if changed {
            animationsChanged()
            modelVersion &+= 1
            renderVersion &+= 1
        }
    }

    /// Whether one of the keys `effect` animates redraws the layer (`needsDisplay(forKey:)`).
    private func redraws(for effect: AnimationEffect?) -> Bool {
        guard let effect else { return false }
        var keys = Layer.keyScratch
        Layer.keyScratch = []
        keys.removeAll(keepingCapacity: true)
        effect.collectKeyPaths(into: &keys)
        let redraws = keys.contains { type(of: self).needsDisplay(forKey: $0) }
        Layer.keyScratch = keys
        return redraws
    }

    /// Sets what a frame reads instead of the list of animations: the flags and the committed
    /// evaluators in order. Called whenever the list or a record's commitment changes.
    func animationsChanged() {
        hasAttachedAnimations = !attachedAnimations.isEmpty
        var committed = false, redraws = false
        var slots = animationSlots
        animationSlots = []
        slots.removeAll(keepingCapacity: true)
        for record in attachedAnimations where record.isCommitted {
            committed = true
            if record.redrawsLayer { redraws = true }
            guard let effect = record.effect else { continue }
            slots.append((effect as? any InlineSlotSource)?.inlineSlot() ?? AnimationSlot(record: record, effect: effect))
        }
        animationSlots = slots
        hasCommittedAnimation = committed
        hasRedrawingAnimation = redraws
    }

    /// Applies the committed animations to `copy` at this layer's local time `local`.
    @inline(__always)
    func applyAnimations(to copy: Layer, localTime local: Double) {
        // By index, not for-in: the iterator copied each slot out of the buffer, reading
        // the lanes that most slots do not use. The first two slots are applied by code of
        // their own: each load then steps through memory by the same stride from one layer to
        // the next, which the processor's stride prefetcher follows (one loop over them all
        // alternated strides and was twice as slow with 10,000 layers).
        let slots = animationSlots
        let count = slots.count
        if count > 0 { slots[0].apply(to: copy, parentTime: local) }
        if count > 1 { slots[1].apply(to: copy, parentTime: local) }
        if count > 2 { for i in 2..<count { slots[i].apply(to: copy, parentTime: local) } }
    }

    /// Appends the starts and stops that happened by media time `t`; removes finished
    /// animations that are removed on completion. Returns the earliest media time at which an
    /// animation can start or end next, unless the timing of this layer or of an ancestor
    /// changes (the runtime keeps it in the watch list, and calls again only then).
    func collectLifecycleEvents(atMediaTime t: Double, into events: inout [LifecycleEvent]) -> Double {
        let local = localTime(fromMediaTime: t)
        var removed = false
        var next = Double.infinity
        for record in attachedAnimations where record.isCommitted && !record.hasStopped {
            let timing = record.timing
            let phase = timing.phase(activeTime: timing.activeTime(parentTime: local))
            if !record.hasStarted && phase != .before {
                record.hasStarted = true
                events.append(.start(record))
            }
            if phase == .after {
                record.hasStopped = true
                events.append(.stop(record, finished: true))
                if record.animation.isRemovedOnCompletion { removed = true }
                continue
            }
            guard timing.speed > 0 else {
                next = -.infinity
                continue
            }
            let boundary = record.hasStarted ? timing.activeDuration : 0
            if boundary.isFinite {
                let parentTime = timing.beginTime + boundary / timing.speed
                next = min(next, mediaTime(fromLocalTime: parentTime))
            }
        }
        if removed {
            var list = attachedAnimations
            attachedAnimations = []
            var redrawn = false
            list.removeAll { record in
                guard record.hasStopped && record.animation.isRemovedOnCompletion else { return false }
                if record.redrawsLayer { redrawn = true }
                LayerRuntime.shared.retire(record)
                return true
            }
            attachedAnimations = list
            // The last frame drew the animation's value from just before its end; the model's
            // value shows from now on, and nothing else would redraw it (the arrow's sliver).
            if redrawn { needsDisplayFlag = true }
            animationsChanged()
            modelVersion &+= 1
            renderVersion &+= 1
        }
        return next
    }

    /// How fast this layer's time runs against media time (0 when it or an ancestor is paused).
    var effectiveSpeed: Double {
        var product = speed
        var layer = self
        while let parent = layer.superlayerStorage ?? layer.maskOwner {
            product *= parent.speed
            layer = parent
        }
        return product
    }

    /// Whether an attached animation changes the presentation at media time `t`.
    func isAnimating(atMediaTime t: Double) -> Bool {
        nextChangeTime(afterMediaTime: t) <= t
    }

    /// The earliest media time ≥ `t` at which an attached animation changes the presentation.
    func nextChangeTime(afterMediaTime t: Double) -> Double {
        let local = localTime(fromMediaTime: t)
        var next = Double.infinity
        for record in attachedAnimations {
            guard record.isCommitted else { return t }
            let timing = record.timing
            switch timing.phase(activeTime: timing.activeTime(parentTime: local)) {
            case .active:
                if timing.speed != 0 && effectiveSpeed != 0 { return t }
            case .before:
                // Active time reaches 0 at parent time beginTime (timeOffset does not move it).
                guard timing.speed > 0 else { continue }
                let start = timing.beginTime
                next = min(next, mediaTime(fromLocalTime: start))
            case .after:
                if !record.hasStopped { return t }
            }
        }
        return next
    }

    /// Whether an animation of a key that redraws the layer (``needsDisplay(forKey:)``)
    /// shows a different value at `t` than at the previous call: its active time moved (it
    /// runs, or a paused ancestor's time offset was scrubbed), or it entered or left a fill.
    func redrawingAnimationChanged(atMediaTime t: Double) -> Bool {
        guard hasRedrawingAnimation else { return false }
        var changed = false
        var local: Double?
        for record in attachedAnimations where record.redrawsLayer && record.isCommitted {
            let lt = local ?? localTime(fromMediaTime: t)
            local = lt
            let timing = record.timing
            let active = timing.activeTime(parentTime: lt)
            let phase = timing.phase(activeTime: active)
            if phase != record.lastDrawnPhase || (phase == .active && active != record.lastDrawnActiveTime) { changed = true }
            record.lastDrawnPhase = phase
            record.lastDrawnActiveTime = active
        }
        return changed
    }
}

// Layer+Presentation: the presentation copy, and property access by key path.

import Raster

extension Layer {
    /// The layer as it appears now, while an animation is attached: a copy whose properties
    /// hold the animated values at the current media time. `nil` when no animation is attached
    /// (or the layer has never been committed), as the seed observed: read the model
    /// then, which is what is on screen. The idiom `layer.presentation()?.position ?? layer.position`
    /// gives the value on screen in every case.
    ///
    /// Core Animation documents only the never-committed case; after a commit its
    /// `presentationLayer` is a copy even without animations. LiveLayers follows the issue and
    /// returns `nil` there, so "is this layer animating?" is simply `presentation() != nil`.
    /// Fill counts as attached: a finished animation kept with `isRemovedOnCompletion = false`
    /// still gives a copy.
    ///
    /// The copy is reused and refreshed on each call, so read what you need from it rather than
    /// keeping it. Its ``superlayer``, ``sublayers`` and ``mask`` are copies of those layers too
    /// (for unanimated layers, copies equal to the model). Called on a presentation copy, it
    /// returns the copy itself.
    public func presentation() -> Self? {
        if isPresentationCopy { return self }
        guard hasBeenCommitted, hasCommittedAnimation else { return nil }
        return linkedPresentation() as? Self
    }

    /// The presentation copy with its tree links set to the copies of its relatives.
    private func linkedPresentation() -> Layer {
        let now = LayerRuntime.shared.currentTime
        let copy = updatedPresentation(atMediaTime: now)
        // Written without closures: a main-actor closure handed to the standard library checks
        // its isolation on every call, once per layer per frame.
        // Links are written only when they change: a store dirties the copy's line, which is
        // then written back to memory (with 10,000 layers, every line a frame dirties is).
        if let superlayer = superlayerStorage, superlayer.hasBeenCommitted {
            let parentCopy = superlayer.updatedPresentation(atMediaTime: now)
            if copy.superlayerStorage !== parentCopy { copy.superlayerStorage = parentCopy }
        } else if copy.superlayerStorage != nil {
            copy.superlayerStorage = nil
        }
        if !sublayerStorage.isEmpty || !copy.sublayerStorage.isEmpty {
            var copies: [Layer] = []
            copies.reserveCapacity(sublayerStorage.count)
            for sublayer in sublayerStorage where sublayer.hasBeenCommitted { copies.append(sublayer.linkedPresentation()) }
            copy.sublayerStorage = copies
        }
        if let mask = maskStorage, mask.hasBeenCommitted {
            let maskCopy = mask.linkedPresentation()
            if copy.maskStorage !== maskCopy { copy.maskStorage = maskCopy }
        } else if copy.maskStorage != nil {
            copy.maskStorage = nil
        }
        return copy
    }

    /// The model layer: `self` for a model layer, the layer it copies for a presentation copy.
    public func model() -> Self {
        if isPresentationCopy, let modelLayer, let typed = modelLayer as? Self { return typed }
        return self
    }

    /// The presentation copy refreshed for `time`, without its tree links (for the renderer).
    func updatedPresentation(atMediaTime time: Double) -> Layer {
        let copy: Layer
        if let existing = presentationCopy {
            copy = existing
        } else {
            Layer.creatingPresentationCopy = true
            copy = type(of: self).init()
            Layer.creatingPresentationCopy = false
            copy.modelLayer = self
            copy.delegate = delegate
            presentationCopy = copy
        }
        // An ancestor's timing (a scrubbed time offset) moves animations without a new media
        // time, so the timing epoch is part of the stamp.
        let epoch = LayerRuntime.shared.timingEpoch
        if presentationStamp.time == time && presentationStamp.version == modelVersion
            && (!hasAttachedAnimations || presentationStamp.epoch == epoch) { return copy }
        let refreshedVersion = presentationStamp.version
        presentationStamp = (time, modelVersion, epoch)
        if refreshedVersion == modelVersion, copy.modelVersion == copyVersionAtRefresh, let fields = animatedFields {
            // Neither the model nor the copy changed since the last refresh: the copy's state
            // differs from the model's only in what the animations wrote, so only those fields
            // are set back. Copying all of it (about 500 bytes, read and written) was most of a
            // frame's memory traffic for a layer: with 10,000 layers, cache misses.
            if !fields.isDisjoint(with: .effects) { copy.state.ownEffects(spare: &copy.spareEffectsBox) }
            StateFields.restore(fields, of: copy, from: self)
        } else {
            let previousEffects = copy.state.effectsBox
            copy.state.assign(from: state)
            animatedFields = fieldsWrittenByAnimations()
            copyVersionAtRefresh = copy.modelVersion
            // The last frame's signature holds the copy's box, so it took the model's: animations
            // that write an effect would copy that into a new box at every full refresh (each
            // go). They write the spare instead, and the box given up becomes the spare.
            if let fields = animatedFields, !fields.isDisjoint(with: .effects), copy.state.effectsBox !== previousEffects {
                copy.state.ownEffects(spare: &copy.spareEffectsBox)
                copy.spareEffectsBox = previousEffects === LayerEffectsBox.defaults ? nil : previousEffects
            }
        }
        if copy.contentsStorage !== contentsStorage { copy.contentsStorage = contentsStorage }
        for i in propertyBoxes.indices { copy.propertyBoxes[i].assign(from: propertyBoxes[i]) }
        if !animationSlots.isEmpty { applyAnimations(to: copy, localTime: localTime(fromMediaTime: time)) }
        return copy
    }

    /// The state fields the committed animations can write, or nil when one writes a key that
    /// is neither built in nor a custom property (whose boxes are copied at every refresh).
    private func fieldsWrittenByAnimations() -> StateFields? {
        var keys = Layer.keyScratch
        Layer.keyScratch = []
        keys.removeAll(keepingCapacity: true)
        for record in attachedAnimations where record.isCommitted { record.effect?.collectWrittenKeyPaths(into: &keys) }
        var fields: StateFields? = []
        for key in keys {
            if let written = StateFields.written(byKeyPath: key) {
                fields?.formUnion(written)
            } else if schema.slots[key] == nil {
                fields = nil
                break
            }
        }
        Layer.keyScratch = keys
        return fields
    }

    /// Reused by `fieldsWrittenByAnimations` and the commit, so that a model change or an
    /// added animation allocates nothing.
    static var keyScratch: [String] = []

    /// The presentation value of `keyPath` at the current media time.
    public func presentationValue(forKeyPath keyPath: String) -> (any Interpolatable)? {
        guard let accessor = accessor(forKeyPath: keyPath) else { return nil }
        if !hasBeenCommitted || !hasAttachedAnimations { return accessor.value(of: self) }
        return accessor.value(of: updatedPresentation(atMediaTime: LayerRuntime.shared.currentTime))
    }

    /// The model value of an animatable property by key path (`"position"`,
    /// `"transform.rotation.z"`, a custom property's name), or `nil` for an unknown key.
    public func value(forKeyPath keyPath: String) -> (any Interpolatable)? {
        accessor(forKeyPath: keyPath)?.value(of: self)
    }

    /// Sets an animatable property by key path, as assigning it would (with its action).
    /// Returns `false`, changing nothing, for an unknown key or a value of the wrong type.
    @discardableResult
    public func setValue(_ value: any Interpolatable, forKeyPath keyPath: String) -> Bool {
        guard let accessor = accessor(forKeyPath: keyPath) else { return false }
        let previous = previousValueForAction(key: keyPath)
        guard accessor.setValue(value, on: self) else { return false }
        didChange(key: keyPath, previous: previous)
        return true
    }

    /// The accessor of an animatable key path: built-in, then this class's custom properties.
    func accessor(forKeyPath keyPath: String) -> AnyPropertyAccessor? {
        if let builtIn = BuiltInKeys.accessors[keyPath] { return builtIn }
        if let slot = schema.slots[keyPath] { return schema.accessors[slot] }
        return nil
    }
}

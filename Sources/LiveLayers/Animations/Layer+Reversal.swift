// Layer+Reversal: turning an animation around mid-flight without a jump.

extension Layer {
    /// Reverses the basic animation for `key` from where it is now, so that it retraces its
    /// path back to its start value, as Flutter's `AnimationController.reverse()` does.
    ///
    /// The new animation (which replaces the old one under the same key, and is returned)
    /// starts at the current presentation value, so nothing jumps; its duration is the old
    /// one scaled by the fraction already played, and its timing function is the part of the
    /// old curve played so far, run backwards. The layer therefore goes back along the same
    /// curve (Flutter's `CurvedAnimation` keeps the forward curve for the same reason): an
    /// ease-out that was decelerating accelerates away on the way back instead of restarting
    /// its curve. The model value is set to the start value, without an action.
    ///
    /// Returns `nil`, changing nothing, when there is no committed, running
    /// ``BasicAnimation`` for `key`, or it is additive, cumulative or a spring.
    @discardableResult
    public func reverseAnimation(forKey key: String) -> BasicAnimation? {
        guard let record = attachedAnimations.last(where: { $0.key == key }), record.isCommitted,
              let basic = record.animation as? BasicAnimation, !(basic is SpringAnimation),
              !basic.isAdditive, !basic.isCumulative, let keyPath = basic.keyPath,
              let effect = record.effect as? ReversibleEffect,
              let accessor = accessor(forKeyPath: keyPath) else { return nil }
        let now = LayerRuntime.shared.currentTime
        guard let current = presentationValue(forKeyPath: keyPath),
              let (start, fraction) = effect.reversalPoint(on: self, parentTime: localTime(fromMediaTime: now)),
              fraction > 0 else { return nil }
        let curve = basic.timingFunction ?? .linear
        let reverse = BasicAnimation(keyPath: keyPath)
        reverse.fromValue = current
        reverse.toValue = start
        reverse.duration = basic.duration * fraction
        reverse.timingFunction = curve.leadingSegment(upTo: fraction)?.reversed ?? .linear
        reverse.delegate = basic.delegate
        reverse.didStart = basic.didStart
        reverse.didStop = basic.didStop
        reverse.fillMode = basic.fillMode
        reverse.isRemovedOnCompletion = basic.isRemovedOnCompletion
        _ = accessor.setValue(start, on: self)
        modelVersion &+= 1
        renderVersion &+= 1
        add(reverse, forKey: key)
        // Commit this layer now so its presentation never shows the bare model value.
        commit(atMediaTime: now)
        return attachedAnimations.last?.animation as? BasicAnimation
    }
}

/// An effect that can say where it started and how far it has played.
@MainActor
protocol ReversibleEffect {
    func reversalPoint(on layer: Layer, parentTime t: Double) -> (start: any Interpolatable, fraction: Double)?
}

extension BasicEffect: ReversibleEffect {
    func reversalPoint(on layer: Layer, parentTime t: Double) -> (start: any Interpolatable, fraction: Double)? {
        guard let sample = timing.sample(parentTime: t) else { return nil }
        let (a, _) = endpoints.resolve(underlying: accessor.get(layer))
        return (a, sample.fraction)
    }
}

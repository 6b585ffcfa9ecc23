// Layer+Instances: private presentation copies at other times, for replicated instances.

extension Layer {
    /// A new presentation copy of this layer that the renderer owns (not the one
    /// ``presentation()`` returns), for drawing the layer as it is at another time.
    func makeInstanceCopy() -> Layer {
        Layer.creatingPresentationCopy = true
        let copy = type(of: self).init()
        Layer.creatingPresentationCopy = false
        copy.modelLayer = self
        copy.delegate = delegate
        return copy
    }

    /// Sets `copy` (made by ``makeInstanceCopy()``) to the model values with the committed
    /// animations applied at media time `time`.
    func refreshInstanceCopy(_ copy: Layer, atMediaTime time: Double) {
        copy.state.assign(from: state)
        if copy.contentsStorage !== contentsStorage { copy.contentsStorage = contentsStorage }
        for i in propertyBoxes.indices { copy.propertyBoxes[i].assign(from: propertyBoxes[i]) }
        guard hasBeenCommitted, !animationSlots.isEmpty else { return }
        applyAnimations(to: copy, localTime: localTime(fromMediaTime: time))
    }
}

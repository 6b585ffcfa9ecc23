// Layer+Tree: sublayers and superlayer.

import Raster

extension Layer {
    /// The layer this one is a sublayer of. For a presentation copy, the superlayer's copy.
    public var superlayer: Layer? { superlayerStorage }

    /// The sublayers, back to front. Setting the array replaces them all.
    public var sublayers: [Layer] {
        get { sublayerStorage }
        set {
            for layer in sublayerStorage { layer.removeFromSuperlayer() }
            for layer in newValue { addSublayer(layer) }
        }
    }

    /// Adds `layer` in front of the other sublayers, removing it from its previous superlayer.
    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayerStorage.count)
    }

    /// Inserts `layer` at `index` in the sublayers (clamped to the valid range), removing it
    /// from its previous superlayer. A layer cannot contain itself or one of its ancestors.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        guard !isPresentationCopy, !layer.isPresentationCopy else {
            Diagnostics.warn("presentation copies cannot be rearranged; ignored")
            return
        }
        var ancestor: Layer? = self
        while let a = ancestor {
            if a === layer {
                Diagnostics.warn("a layer cannot be added to itself or to one of its sublayers; ignored")
                return
            }
            ancestor = a.superlayerStorage ?? a.maskOwner
        }
        if layer.maskOwner != nil { layer.maskOwner?.mask = nil }
        layer.removeFromSuperlayer()
        let i = min(max(0, index), sublayerStorage.count)
        var list = sublayerStorage
        sublayerStorage = []
        list.insert(layer, at: i)
        sublayerStorage = list
        layer.superlayerStorage = self
        layer.renderVersion &+= 1
        LayerRuntime.shared.timingEpoch &+= 1
        didChange(key: "sublayers", previous: nil)
        layer.didChange(key: "superlayer", previous: nil)
    }

    /// Inserts `layer` just behind `sibling` (at the back if `sibling` is not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: index)
    }

    /// Inserts `layer` just in front of `sibling` (at the front if `sibling` is not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s }.map { $0 + 1 } } ?? sublayerStorage.count
        insertSublayer(layer, at: index)
    }

    /// Replaces the sublayer `old` with `new`.
    public func replaceSublayer(_ old: Layer, with new: Layer) {
        guard let index = sublayerStorage.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: index)
    }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    public func removeFromSuperlayer() {
        if let owner = maskOwner {
            owner.mask = nil
            return
        }
        guard let parent = superlayerStorage, !isPresentationCopy else { return }
        // Through a local copy, as attachedAnimations (Layer+Animations): no dynamic
        // exclusivity check on the renderer's reads of every layer's sublayers.
        var siblings = parent.sublayerStorage
        parent.sublayerStorage = []
        siblings.removeAll { $0 === self }
        parent.sublayerStorage = siblings
        superlayerStorage = nil
        LayerRuntime.shared.timingEpoch &+= 1
        parent.didChange(key: "sublayers", previous: nil)
        LayerRuntime.shared.touch(self)
    }

    /// The root of the tree this layer belongs to.
    var rootLayer: Layer {
        var layer = self
        while let parent = layer.superlayerStorage ?? layer.maskOwner { layer = parent }
        return layer
    }
}

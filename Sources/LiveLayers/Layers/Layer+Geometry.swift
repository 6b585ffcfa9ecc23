// Layer+Geometry: frame and conversions between layer coordinate spaces.

import Raster

extension Layer {
    /// The layer's rectangle in its superlayer's coordinates, derived from ``bounds``,
    /// ``position``, ``anchorPoint`` and ``transform`` (the bounding box when transformed).
    /// Setting it sets the position and the bounds' size; do not rely on it under rotation.
    public var frame: Rect {
        get { state.bounds.applying(transformToSuperlayer) }
        set {
            let r = newValue.standardized
            var b = bounds
            b.size = Size(width: r.width, height: r.height)
            bounds = b
            position = Point(x: r.minX + anchorPoint.x * r.width, y: r.minY + anchorPoint.y * r.height)
        }
    }

    /// Maps this layer's coordinates to its superlayer's: bounds origin to the anchor, the
    /// transform about the anchor, then to the position.
    var transformToSuperlayer: Transform {
        // The four fields, not a copy of the state (all of it, and a retain of its effects box,
        // for every layer a frame prepares).
        let bounds = state.bounds, anchorPoint = state.anchorPoint, position = state.position
        let anchor = Point(x: bounds.origin.x + anchorPoint.x * bounds.size.width,
                           y: bounds.origin.y + anchorPoint.y * bounds.size.height)
        return Transform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(state.transform)
            .concatenating(Transform(translationX: position.x, y: position.y))
    }

    /// Maps the coordinates of this layer's sublayers' superlayer space (this layer's space
    /// before ``sublayerTransform``) to this layer's: the sublayer transform about the anchor.
    var sublayerTransformAboutAnchor: Transform {
        let s = state
        let t = s.effects.sublayerTransform
        guard !t.isIdentity else { return .identity }
        let ax = s.bounds.minX + s.anchorPoint.x * s.bounds.width
        let ay = s.bounds.minY + s.anchorPoint.y * s.bounds.height
        return Transform(translationX: -ax, y: -ay).concatenating(t).concatenating(Transform(translationX: ax, y: ay))
    }

    /// Maps this layer's coordinates to the root's (this layer's values, model or presented),
    /// through each superlayer's ``sublayerTransform`` (a mask's owner applies none to it).
    var transformToRoot: Transform {
        var t = transformToSuperlayer
        var layer = self
        while true {
            if let parent = layer.superlayerStorage {
                t = t.concatenating(parent.sublayerTransformAboutAnchor).concatenating(parent.transformToSuperlayer)
                layer = parent
            } else if let owner = layer.maskOwner {
                t = t.concatenating(owner.transformToSuperlayer)
                layer = owner
            } else {
                return t
            }
        }
    }

    /// Converts `point` from `layer`'s coordinate space to this layer's, as
    /// `CALayer.convert(_:from:)`. With `nil`, `point` is in the coordinates of this layer's root
    /// (the topmost superlayer: the window's space when the root fills it). The layers must share a root.
    public func convert(_ point: Point, from layer: Layer?) -> Point {
        let root = (layer?.transformToRoot ?? .identity)
        guard let inverse = transformToRoot.inverted() else { return point }
        return point.applying(root).applying(inverse)
    }

    /// Converts `point` from this layer's coordinate space to `layer`'s (its root's when `nil`),
    /// as `CALayer.convert(_:to:)`.
    public func convert(_ point: Point, to layer: Layer?) -> Point {
        let mine = point.applying(transformToRoot)
        guard let target = layer else { return mine }
        guard let inverse = target.transformToRoot.inverted() else { return mine }
        return mine.applying(inverse)
    }

    /// The farthest descendant of this layer (or the layer itself) that contains `point`, or
    /// `nil`, as `CALayer.hitTest(_:)`. `point` is in the coordinate space of this layer's
    /// **superlayer** (for the root: the space its ``position`` is given in).
    ///
    /// Sublayers are tried front to back: those drawn last first, ordered by ``zPosition``
    /// where it is set. Hidden layers and their sublayers are never hit; a layer that
    /// ``masksToBounds`` is hit, through its sublayers, only inside its bounds; transforms,
    /// ``sublayerTransform``, ``anchorPoint`` and the bounds' origin are honoured, and a layer
    /// whose transform collapses it (not invertible) is never hit. A layer is hit where
    /// ``contains(_:)`` says so (override it for another shape).
    ///
    /// As in Core Animation, a model layer is tested with its model values: where animations
    /// put it is found by hit-testing the presentation copies (``presentation()``), whose
    /// ``model()`` is the layer to act on.
    public func hitTest(_ point: Point) -> Layer? {
        let s = state
        guard !s.isHidden, let inverse = transformToSuperlayer.inverted() else { return nil }
        let local = point.applying(inverse)
        if s.masksToBounds && !contains(local) { return nil }
        if !sublayerStorage.isEmpty, let inner = sublayerTransformAboutAnchor.inverted().map({ local.applying($0) }) {
            for sub in sublayersFrontToBack() {
                if let hit = sub.hitTest(inner) { return hit }
            }
        }
        return contains(local) ? self : nil
    }

    /// The sublayers in the order they are hit: the reverse of their drawing order, which is
    /// by ``zPosition`` (stable: equal values keep their order), as the renderer draws them.
    private func sublayersFrontToBack() -> [Layer] {
        let sublayers = sublayerStorage
        guard sublayers.contains(where: { $0.state.effects.zPosition != 0 }) else { return sublayers.reversed() }
        let drawn = sublayers.enumerated().sorted {
            ($0.element.state.effects.zPosition, $0.offset) < ($1.element.state.effects.zPosition, $1.offset)
        }
        return drawn.reversed().map(\.element)
    }

    // MARK: Time

    /// This layer's local time for an absolute media time, through every ancestor's timing.
    ///
    /// A model layer keeps its last answer until the media time or the timing epoch changes
    /// (every change of a layer's timing, superlayer or mask owner starts a new epoch); the
    /// same arithmetic, so the same bits. A presentation copy's timing changes start no epoch:
    /// it always works its time out.
    func localTime(fromMediaTime t: Double) -> Double {
        guard !isPresentationCopy else {
            let parentTime = (superlayerStorage ?? maskOwner)?.localTime(fromMediaTime: t) ?? t
            return hasIdentityTiming ? parentTime : timing.localTime(parentTime: parentTime)
        }
        let epoch = LayerRuntime.shared.timingEpoch
        let cache = localTimeCache
        if cache.epoch == epoch && cache.mediaTime == t.bitPattern { return cache.localTime }
        let parentTime = (superlayerStorage ?? maskOwner)?.localTime(fromMediaTime: t) ?? t
        let local = hasIdentityTiming ? parentTime : timing.localTime(parentTime: parentTime)
        localTimeCache = (epoch, t.bitPattern, local)
        return local
    }

    /// Whether this layer or an ancestor has speed 0 (its time never moves with media time).
    var isInPausedTimeline: Bool {
        guard !isPresentationCopy else {
            return speed == 0 || (superlayerStorage ?? maskOwner)?.isInPausedTimeline == true
        }
        let epoch = LayerRuntime.shared.timingEpoch
        if pausedCache.epoch == epoch { return pausedCache.isPaused }
        let paused = speed == 0 || (superlayerStorage ?? maskOwner)?.isInPausedTimeline == true
        pausedCache = (epoch, paused)
        return paused
    }

    /// The absolute media time at which this layer's local time is `t` (`.infinity` if a
    /// paused ancestor never gets there).
    func mediaTime(fromLocalTime t: Double) -> Double {
        // Whatever the layers below it make of `t`, a paused one answers `.infinity`: known
        // without the walk (a Lottie root is paused, and its layers ask at each frame).
        if isInPausedTimeline { return .infinity }
        return mediaTimeWalk(fromLocalTime: t)
    }

    private func mediaTimeWalk(fromLocalTime t: Double) -> Double {
        var parentTime = t
        if !(beginTime == 0 && speed == 1 && timeOffset == 0) {
            guard speed != 0 else { return .infinity }
            parentTime = (t - timeOffset) / speed + beginTime
        }
        return (superlayerStorage ?? maskOwner)?.mediaTimeWalk(fromLocalTime: parentTime) ?? parentTime
    }

    /// Converts a time from `layer`'s time space (absolute media time when `nil`) to this
    /// layer's, as `CALayer.convertTime(_:from:)`.
    public func convertTime(_ t: Double, from layer: Layer?) -> Double {
        localTime(fromMediaTime: layer?.mediaTime(fromLocalTime: t) ?? t)
    }

    /// Converts a time from this layer's time space to `layer`'s (absolute when `nil`).
    public func convertTime(_ t: Double, to layer: Layer?) -> Double {
        let media = mediaTime(fromLocalTime: t)
        return layer?.localTime(fromMediaTime: media) ?? media
    }
}

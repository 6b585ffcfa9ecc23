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
        let s = state
        let anchor = Point(x: s.bounds.origin.x + s.anchorPoint.x * s.bounds.size.width,
                           y: s.bounds.origin.y + s.anchorPoint.y * s.bounds.size.height)
        return Transform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(s.transform)
            .concatenating(Transform(translationX: s.position.x, y: s.position.y))
    }

    /// Maps this layer's coordinates to the root's (model values).
    var transformToRoot: Transform {
        var t = transformToSuperlayer
        var layer = self
        while let parent = layer.superlayerStorage ?? layer.maskOwner {
            t = t.concatenating(parent.transformToSuperlayer)
            layer = parent
        }
        return t
    }

    /// Converts `point` from `layer`'s coordinates (the root's when `nil`) to this layer's.
    public func convert(_ point: Point, from layer: Layer?) -> Point {
        let root = (layer?.transformToRoot ?? .identity)
        guard let inverse = transformToRoot.inverted() else { return point }
        return point.applying(root).applying(inverse)
    }

    /// Converts `point` from this layer's coordinates to `layer`'s (the root's when `nil`).
    public func convert(_ point: Point, to layer: Layer?) -> Point {
        let mine = point.applying(transformToRoot)
        guard let target = layer else { return mine }
        guard let inverse = target.transformToRoot.inverted() else { return mine }
        return mine.applying(inverse)
    }

    /// The deepest visible layer containing `point` (in the superlayer's coordinates), using
    /// presentation values when the layer has been committed (hit-testing during animations).
    public func hitTest(_ point: Point) -> Layer? {
        let shown: Layer = hasBeenCommitted && !isPresentationCopy
            ? updatedPresentation(atMediaTime: LayerClock.currentTime) : self
        guard !shown.state.isHidden, let inverse = shown.transformToSuperlayer.inverted() else { return nil }
        let local = point.applying(inverse)
        if shown.state.masksToBounds && !shown.state.bounds.contains(local) { return nil }
        for sub in sublayerStorage.reversed() {
            if let hit = sub.hitTest(local) { return hit }
        }
        return shown.state.bounds.contains(local) ? self : nil
    }

    /// Whether `point`, in this layer's coordinates, lies inside its bounds.
    public func contains(_ point: Point) -> Bool { state.bounds.contains(point) }

    // MARK: Time

    /// This layer's local time for an absolute media time, through every ancestor's timing.
    func localTime(fromMediaTime t: Double) -> Double {
        let parentTime = (superlayerStorage ?? maskOwner)?.localTime(fromMediaTime: t) ?? t
        return timing.localTime(parentTime: parentTime)
    }

    /// The absolute media time at which this layer's local time is `t` (`.infinity` if a
    /// paused ancestor never gets there).
    func mediaTime(fromLocalTime t: Double) -> Double {
        var parentTime = t
        if !(beginTime == 0 && speed == 1 && timeOffset == 0) {
            guard speed != 0 else { return .infinity }
            parentTime = (t - timeOffset) / speed + beginTime
        }
        return (superlayerStorage ?? maskOwner)?.mediaTime(fromLocalTime: parentTime) ?? parentTime
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

// Timeline: how the frames of a composition map to the time of the layers built for it.

import LiveLayers

/// The time frame in which a composition's layers are built.
///
/// Without time remapping, a precomposition's layers live in their own time, which the
/// precomposition's container maps with Core Animation's layer timing (`beginTime`, `speed`), so
/// their keyframes become keyframe animations as they are. Under time remapping, which layer
/// timing cannot express, every animated value is sampled once per frame of the nearest
/// ancestor composition that is not remapped (the *context*), as lottie-ios does.
struct Timeline {
    /// Frames per second of the whole animation.
    var frameRate: Double
    /// Context frame → local frame, under time remapping.
    var remap: (@Sendable (Double) -> Double)?
    /// The context frames to sample, under time remapping.
    var contextRange: ClosedRange<Double>

    /// A timeline for a precomposition inside this one whose local frame is `map(frame here)`.
    func nested(_ map: @escaping @Sendable (Double) -> Double) -> Timeline {
        var t = self
        if let outer = remap { t.remap = { map(outer($0)) } } else { t.remap = map }
        return t
    }
}

/// Counts sampled work so that a hostile file ends in an error instead of exhausting memory.
final class WorkBudget {
    private(set) var used = 0
    let limit: Int
    init(limit: Int) { self.limit = limit }
    func spend(_ amount: Int) throws(LottieError) {
        used += amount
        if used > limit { throw .tooComplex("more than \(limit) sampled values; the animation is too complex to build") }
    }
}

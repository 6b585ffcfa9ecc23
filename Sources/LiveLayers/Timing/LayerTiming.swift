// LayerTiming: a layer's own media timing (CAMediaTiming on CALayer), kept as one value.

/// The timing a layer applies between its superlayer's time and its own.
///
/// Kept in one internal stored value behind the public properties: evaluating a presentation
/// walks it for every ancestor, and an internal value read in one short access needs no
/// dynamic exclusivity check, where public stored properties of a class do.
struct LayerTiming: Equatable {
    var beginTime = 0.0
    var speed = 1.0
    var timeOffset = 0.0

    /// Whether local time equals the parent's (the default timing).
    var isIdentity: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }

    /// The local time at the parent's time `t`.
    @inline(__always)
    func localTime(parentTime t: Double) -> Double {
        isIdentity ? t : (t - beginTime) * speed + timeOffset
    }
}

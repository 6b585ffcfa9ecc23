// Animation: the abstract animation with media timing and lifecycle callbacks (CAAnimation).

/// Receives an animation's start and stop, as `CAAnimationDelegate`.
///
/// Both methods are optional. The animation keeps its delegate alive (strongly), as Core
/// Animation does, so a delegate need not be stored elsewhere.
@MainActor
public protocol AnimationDelegate: AnyObject {
    /// The animation's active duration began (at its `beginTime`, during a frame update).
    func animationDidStart(_ animation: Animation)
    /// The animation ended: `finished` is `true` when it reached the end of its active duration,
    /// `false` when it was removed (or replaced) before that.
    func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: Animation) {}
    public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// The base of every animation: media timing, a timing function and lifecycle callbacks,
/// as `CAAnimation` with `CAMediaTiming`.
///
/// Time flows from the layer to the animation: the animation's active local time is
/// `(layerTime − beginTime) · speed + timeOffset`, then repeats, autoreverses and fills as
/// described in <doc:MediaTimingInLiveLayers>.
///
/// An animation is **copied** when added to a layer (``Layer/add(_:forKey:)``): changing it
/// afterwards has no effect on the running copy, as in Core Animation.
public class Animation {
    /// When the animation begins, in its layer's time. 0 means "the time of the commit that adds
    /// it", as Core Animation replaces 0 with `CACurrentMediaTime()`; to start one second from
    /// now use `LayerClock.currentTime + 1` (for layers with default timing).
    public var beginTime: Double = 0
    /// The length of one iteration in seconds. 0 or less becomes the transaction's
    /// ``Transaction/animationDuration`` (0.25 s by default) when the animation is added.
    public var duration: Double = 0
    /// How fast local time runs relative to the layer's: 2 plays twice as fast, 0 pauses.
    public var speed: Double = 1
    /// Shifts the position within the active duration, wrapping around it (not scaled by
    /// `speed`): with 0.5 a 1 s animation starts at its midpoint, runs to its end, wraps to its
    /// start and ends at its midpoint 1 s after it began. It does not move when the animation
    /// starts or ends; see <doc:MediaTimingInLiveLayers>.
    public var timeOffset: Double = 0
    /// How many times to play; fractions allowed, `.infinity` repeats forever, 0 plays once.
    /// Setting both this and ``repeatDuration`` is undefined in Core Animation; here
    /// `repeatDuration` wins.
    public var repeatCount: Double = 0
    /// How long to repeat for, in local time; 0 means use ``repeatCount``.
    public var repeatDuration: Double = 0
    /// Whether each iteration plays forward then backward (one repeat counts both halves).
    public var autoreverses = false
    /// What the animation shows outside its active duration.
    public var fillMode: FillMode = .removed
    /// The pacing within each iteration; `nil` means linear.
    public var timingFunction: TimingFunction?
    /// Whether the animation is removed from its layer when its active duration ends.
    public var isRemovedOnCompletion = true
    /// Receives did-start and did-stop; retained.
    public var delegate: (any AnimationDelegate)?
    /// Called when the animation starts, after the delegate.
    public var didStart: (@MainActor (Animation) -> Void)?
    /// Called when the animation stops, after the delegate; the flag is `finished`.
    public var didStop: (@MainActor (Animation, Bool) -> Void)?

    /// Creates an animation with Core Animation's defaults.
    public init() {}

    /// Copies every setting of `other`.
    required init(copying other: Animation) {
        takeSettings(of: other)
    }

    /// Sets every setting to `other`'s: of this class, and of each subclass (its override)
    /// when `other` is one. A layer reuses a retired copy through it (``Layer/add(_:forKey:)``).
    func takeSettings(of other: Animation) {
        beginTime = other.beginTime
        duration = other.duration
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion
        delegate = other.delegate
        didStart = other.didStart
        didStop = other.didStop
    }

    /// An independent copy with the same settings and callbacks.
    public func copy() -> Self {
        Self(copying: self)
    }

    /// The timing frozen for evaluation, with `duration` resolved.
    var timingModel: TimingModel {
        TimingModel(beginTime: beginTime, duration: duration, speed: speed, timeOffset: timeOffset,
                    repeatCount: repeatCount, repeatDuration: repeatDuration,
                    autoreverses: autoreverses, fillMode: fillMode)
    }

    /// Builds the evaluator that applies this animation to `layer`'s presentation copy, or
    /// `nil` when it cannot apply (unknown key path, mismatched value types). `spare`, an
    /// evaluator that nothing uses any more, is refilled instead when it is of the right kind.
    @MainActor
    func makeEffect(for layer: Layer, reusing spare: AnimationEffect? = nil) -> AnimationEffect? { nil }

    /// Fills in values that depend on the moment the animation is added (for example a basic
    /// animation's missing end points). Called once on the copy.
    @MainActor
    func prepareForAdding(to layer: Layer, previousValue: (any Interpolatable)?) {}
}

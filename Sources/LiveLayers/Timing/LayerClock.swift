// LayerClock: the media time the layer tree lives at, advanced by the host once per frame.

/// The media time of the layer tree: the role `CACurrentMediaTime()` plays for Core Animation.
///
/// LiveLayers never reads a real clock. The host (a display link, a test) moves time forward
/// once per frame with ``advance(to:)``, so every animation in a frame samples the same time
/// and tests run on virtual time.
///
/// ```swift
/// LayerClock.advance(to: frame.targetTimestamp)   // commit, then fire did-start / did-stop
/// let damage = renderer.render(root, into: bitmap)
/// if LayerClock.nextFrameTime == .infinity { /* idle: sleep until an event */ }
/// ```
@MainActor
public enum LayerClock {
    /// The current media time in seconds (absolute time: the time space of a `nil` layer).
    public static var currentTime: Double { LayerRuntime.shared.currentTime }

    /// Begins a frame at `time`: commits the implicit transaction (at the previous time, when
    /// its changes were made), moves the clock, then calls the delegates and closures of
    /// animations that started or stopped since the previous frame, and the completion blocks
    /// of transactions whose animations are all done. Each of these runs once per update:
    /// the stops its callbacks cause (an animation replaced by one they add) are delivered at
    /// the next update, so a completion that starts its animation again cannot loop. Time may
    /// not go backwards; an earlier `time` is treated as the current one.
    public static func advance(to time: Double) {
        let runtime = LayerRuntime.shared
        runtime.advance(to: time.isFinite ? max(time, runtime.currentTime) : runtime.currentTime)
    }

    /// The next media time at which the tree will look different or a callback is owed: the
    /// current time while anything is animating (repeats and autoreverses included), waiting to
    /// commit, needing display, or ended with its stop not yet delivered; the begin time of the
    /// earliest delayed animation; or `.infinity` when idle (Core Animation's
    /// `CARenderer.nextFrameTime`).
    ///
    /// This is the one answer to "when is the next frame due": ``LayerRenderer/nextFrameTime``
    /// and the hosts' frame sources ask it, so a host sleeps until then and wakes on time.
    public static var nextFrameTime: Double { LayerRuntime.shared.nextFrameTime() }

    /// Whether a frame drawn now could differ from the last one: ``nextFrameTime`` is due. A
    /// delayed animation that has not begun is not animating yet; its begin is ``nextFrameTime``.
    public static var isAnimating: Bool { nextFrameTime <= currentTime }
}

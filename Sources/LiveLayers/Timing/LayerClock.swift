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

    /// The next media time at which the tree will look different: the current time while
    /// anything is animating or waiting to commit, the begin time of the earliest delayed
    /// animation, or `.infinity` when idle (Core Animation's `CARenderer.nextFrameTime`).
    /// Layers that only need display are reported by ``LayerRenderer/nextFrameTime``.
    public static var nextFrameTime: Double { LayerRuntime.shared.nextFrameTime() }

    /// Whether anything will change at the current time or later.
    public static var isAnimating: Bool { nextFrameTime.isFinite }
}

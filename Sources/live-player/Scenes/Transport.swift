// Transport: the play scene's controls (pause, step, first and last frame, looping) and what it shows.

/// Where a scene with a transport is: the frame shown, how many there are, which way it plays
/// and whether it loops. A value, so that the overlay can tell when to rebuild its text.
struct PlaybackStatus: Equatable {
    enum Direction: Equatable { case forward, reverse, paused }
    /// The frame shown, counted from the animation's first (0 ..< ``frameCount``).
    var frame: Int
    var frameCount: Int
    var direction: Direction
    var isLooping: Bool
}

/// A scene that plays a timeline the user can scrub: space pauses and resumes, Left and Right
/// step one frame, Home and End show the first and last frame, l toggles looping. Go and
/// reverse (``Scene/go()``, ``Scene/reverse()``) play from the frame shown.
@MainActor
protocol TransportControls: AnyObject {
    /// Pauses on the frame shown, or resumes in the last direction.
    func togglePause()
    /// Moves `count` frames (negative: back) and pauses.
    func step(by count: Double)
    /// Shows the first (`toEnd` false) or last frame and pauses.
    func seek(toEnd: Bool)
    /// Whether playback wraps around at the ends (otherwise it stops there).
    var isLooping: Bool { get set }
    /// The frame shown and how it plays.
    var status: PlaybackStatus { get }
}

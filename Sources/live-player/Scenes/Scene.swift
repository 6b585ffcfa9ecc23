// Scene: what every scene offers the player: a layer tree, go and reverse.

import LiveLayers
import Lottie
import Raster

/// A scene: a layer tree that the player renders, and what go and reverse do to it.
///
/// Scenes are deterministic: the same media time gives the same pixels. They live on the main
/// actor with the layer tree.
@MainActor
protocol Scene: AnyObject {
    /// The root of the scene's layer tree; its bounds fill the frame.
    var root: Layer { get }
    /// Starts the scene's animation (g, space, Return).
    func go()
    /// Plays the scene's animation backwards from where it is, without a jump (r).
    func reverse()
    /// Lays the tree out for a new frame size.
    func resize(to size: Size)
    /// Called once per delivered display-link frame, before the layer clock advances to the
    /// frame's `mediaTime`; for scenes that count frames (line).
    func frameDelivered(at mediaTime: Double)
    /// Whether the scene needs frames even though no layer animation is running.
    var needsFrames: Bool { get }
    /// A digit key (orbit's buttons).
    func choose(_ digit: Int)
    /// Called when a go cycle has completed (for `--autoplay`).
    var onCycleComplete: (() -> Void)? { get set }
    /// What `--autoplay` presses after each completed cycle: go. A scene whose go ends in a
    /// state that a second go leaves alone (pk's bars stay at 70/30) plays back to its start
    /// instead, completing a cycle too, so that the autoplay keeps it moving.
    func autoplayNext()
    /// Whether layers keep animating after a go cycle completes (gallery's tiles repeat
    /// forever), so that a headless run ends with the cycle rather than when animation stops.
    var animatesForever: Bool { get }
    /// What the renderer clears to before drawing the tree (where nothing is drawn).
    var clearColor: Color { get }
    /// The frame a scene with a timeline shows (for the overlay), or `nil`.
    var playback: PlaybackStatus? { get }
}

extension Scene {
    func frameDelivered(at mediaTime: Double) {}
    var needsFrames: Bool { false }
    var animatesForever: Bool { false }
    func choose(_ digit: Int) {}
    func autoplayNext() { go() }
    var clearColor: Color { .black }
    var playback: PlaybackStatus? { nil }
}

/// What a scene is made with.
struct SceneSetup {
    var size: Size
    /// The arrow scene's picture (`--image`), or `nil` for the built-in one.
    var image: Bitmap?
    /// The Lottie animation the play scene shows.
    var animation: LottieAnimation?
    /// The animation's layer tree when it is built already (the player builds it once to check
    /// the file); `nil` builds it here.
    var animationLayer: AnimationLayer?
    /// What the play scene shows behind the animation; `nil` leaves it transparent.
    var background: Color?
}

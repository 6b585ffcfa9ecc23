// PlayerOptions: the validated command line, as the player uses it.

import Lottie
import Raster

/// How fast the display link ticks.
enum FrameRate: Equatable, CustomStringConvertible {
    /// The display's refresh rate (no `--fps`): every vblank with Present, else the XRandR rate.
    case display
    /// A target rate in frames per second.
    case fixed(Int)
    /// As fast as frames can be made (the link is unthrottled).
    case unlimited

    /// The frame interval the headless virtual clock uses (60 Hz for the display's rate or unlimited).
    var interval: Double {
        if case let .fixed(n) = self { 1 / Double(n) } else { 1.0 / 60 }
    }

    var description: String {
        switch self {
        case .display: "display rate"
        case let .fixed(n): "\(n) fps"
        case .unlimited: "max"
        }
    }
}

/// What `--vsync` asks for.
enum VsyncChoice: String {
    /// Present's vblanks when the server has them, else the timer (no `--vsync`).
    case automatic
    /// Present's vblanks, or a clear error.
    case present
    /// The timer at the XRandR rate, whatever the server offers.
    case timer
}

/// Everything a run needs, checked: the scene exists, sizes and rates are in range, files can be
/// read and written.
struct PlayerOptions {
    var scene: SceneKind
    var width: Int
    var height: Int
    var frameRate: FrameRate = .display
    /// What ticks the windowed player (`--vsync`).
    var vsync: VsyncChoice = .automatic
    var displayName: String?
    var usesSharedMemory = true
    var showsOverlay = true
    var autoplay = false
    var image: Bitmap?
    /// The Lottie animation for the play scene.
    var animation: LottieAnimation?
    /// Its layer tree, built once when the file was checked.
    var animationLayer: AnimationLayer?
    /// `--background`: what the play scene shows where the animation draws nothing.
    var background: Color?
    var headless = false
    var frames: Int?
    var at: Double?
    var screenshotPath: String?
    var statsPath: String?
    var realtime = false
    /// Whether the frame thread asks for `SCHED_FIFO` (`--priority realtime`).
    var realtimePriority = false
}

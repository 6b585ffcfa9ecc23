// LottieScene: a Lottie animation, fitted and centred, looping, with transport controls.

import LiveLayers
import Lottie
import Raster

/// Plays a Lottie animation built by the Lottie module: the composition is fitted inside the
/// frame and centred, and the scene sets its frame from media time on every tick (the root of
/// the animation is a paused layer whose time offset is the frame, so playing, reversing,
/// stepping and looping are all just a choice of frame).
///
/// It starts playing forward, looping. go plays forward from the frame shown, reverse plays
/// backward from it (no jump), toggling pause holds the frame; stepping moves one frame and pauses.
@MainActor
final class LottieScene: Scene, TransportControls {
    let root = Layer()
    var onCycleComplete: (() -> Void)?
    let animationLayer: AnimationLayer
    private let animation: LottieAnimation
    private let background: Color?

    /// Forward (1), backward (-1), or paused (0).
    private(set) var direction = 1.0
    /// Whether playback wraps around at the ends (otherwise it stops there).
    var isLooping = true
    /// The frame shown at `anchorTime` (media time); frames advance from there.
    private var anchorFrame: Double
    private var anchorTime: Double?
    private var lastTime = 0.0

    init(setup: SceneSetup) {
        guard let animation = setup.animation else { preconditionFailure("the play scene needs an animation") }
        self.animation = animation
        background = setup.background
        let built: AnimationLayer
        do { built = try setup.animationLayer ?? animation.makeLayer() } catch {
            // The player builds once before the scene (LivePlayer.validate); this cannot fail then.
            preconditionFailure("\(error)")
        }
        animationLayer = built
        anchorFrame = animation.inPoint
        root.backgroundColor = setup.background
        root.addSublayer(animationLayer)
        resize(to: setup.size)
    }

    var clearColor: Color { background ?? .clear }
    var needsFrames: Bool { direction != 0 }

    /// The frame shown, counted from the composition's start (0 ..< frame count).
    var frame: Double { animationLayer.currentFrame - animation.inPoint }

    var playback: PlaybackStatus? { status }

    var status: PlaybackStatus {
        PlaybackStatus(frame: Int(frame.rounded(.down)), frameCount: Int(animation.frameCount.rounded(.up)),
                       direction: direction == 0 ? .paused : direction < 0 ? .reverse : .forward, isLooping: isLooping)
    }

    func resize(to size: Size) {
        let comp = animation.size
        let scale = min(size.width / comp.width, size.height / comp.height)
        withoutActions {
            root.anchorPoint = .zero
            root.bounds = Rect(origin: .zero, size: size)
            root.position = .zero
            animationLayer.position = Point(x: (size.width - comp.width * scale) / 2, y: (size.height - comp.height * scale) / 2)
            animationLayer.transform = Transform(scaleX: scale, y: scale)
        }
    }

    /// Plays forward from the frame shown; stopped at the last frame (not looping), from the first.
    func go() {
        if !isLooping, frame >= animation.frameCount - 1 { show(frame: 0, at: lastTime) }
        play(direction: 1)
    }

    /// Plays backward from the frame shown; stopped at the first frame (not looping), from the last.
    func reverse() {
        if !isLooping, frame <= 0 { show(frame: animation.frameCount - 1, at: lastTime) }
        play(direction: -1)
    }

    /// Pauses on the frame shown, or resumes in the last direction.
    func togglePause() {
        if direction == 0 { play(direction: lastDirection) } else { play(direction: 0) }
    }

    /// Moves `count` frames (negative: back) and pauses.
    func step(by count: Double) {
        direction = 0
        show(frame: (frame.rounded(.down) + count), at: lastTime)
    }

    /// Shows the first (`toEnd` false) or last frame and pauses.
    func seek(toEnd: Bool) {
        direction = 0
        show(frame: toEnd ? animation.frameCount - 1 : 0, at: lastTime)
    }

    private var lastDirection = 1.0

    private func play(direction newDirection: Double) {
        let now = LayerClock.currentTime
        anchorFrame = frame
        anchorTime = now
        if newDirection != 0 { lastDirection = newDirection }
        direction = newDirection
    }

    private func show(frame f: Double, at time: Double) {
        let count = animation.frameCount
        let wrapped = isLooping ? f - (f / count).rounded(.down) * count : min(max(0, f), count - 1)
        anchorFrame = wrapped
        anchorTime = time
        withoutActions { animationLayer.currentFrame = animation.inPoint + wrapped }
    }

    func frameDelivered(at mediaTime: Double) {
        lastTime = mediaTime
        guard let anchorTime else {
            anchorTime = mediaTime
            return
        }
        guard direction != 0 else { return }
        let count = animation.frameCount
        var f = anchorFrame + (mediaTime - anchorTime) * animation.frameRate * direction
        if f >= count || f < 0 {
            if isLooping {
                onCycleComplete?()
                f -= (f / count).rounded(.down) * count
            } else {
                f = min(max(0, f), count - 1)
                direction = 0
                onCycleComplete?()
            }
            self.anchorFrame = f
            self.anchorTime = mediaTime
        }
        withoutActions { animationLayer.currentFrame = animation.inPoint + f }
    }
}

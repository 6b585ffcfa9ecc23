// FramePipeline: one frame of a scene: animate, draw, composite; the same path with or without a window.

import DisplayClock
import LiveLayers
import Raster

/// Produces frames of a scene into a target bitmap, timing each stage on the display link.
///
/// Stages: *animate* advances the scene and the layer clock (commits, callbacks, presentation
/// values); *draw* is the layer renderer (custom layers' drawing and compositing of the tree
/// into the scene bitmap, damaged rectangles only); *composite* copies the damage into the
/// target and draws the overlay; the window adds *blit* (`present`).
///
/// With the overlay hidden, the renderer draws straight into the target (the window's
/// shared-memory frame buffer, or the scene bitmap headless): zero copy, damaged rectangles only.
/// Not when the targets take turns (a window presenting from a ring of buffers, each brought up
/// to the newest frame before it is drawn again): the renderer would take each for a new target,
/// redraw all of it and make it a context. There, as with the overlay, the scene renders into its
/// own bitmap and the damage is copied. With the overlay shown, the scene renders into its own bitmap and the composite stage copies
/// the damage into the target and draws the overlay on top, from the scene bitmap's pixels (so
/// the overlay never dims itself); frames whose damage misses the overlay redraw only its graph.
@MainActor
final class FramePipeline {
    let link: DisplayLink
    private(set) var scene: any Scene
    private(set) var kind: SceneKind
    private let setup: SceneSetup
    private let renderer: LayerRenderer = {
        let renderer = LayerRenderer()
        renderer.clearColor = .black
        return renderer
    }()
    private(set) var sceneBitmap: Bitmap
    /// The bitmap the scene was last rendered into: ``sceneBitmap``, or the window's frame
    /// buffer when the overlay is hidden (for screenshots).
    private(set) var lastRendered: Bitmap?
    let overlay: FPSOverlay?
    var isOverlayVisible: Bool
    private var needsFullRedraw = true
    /// The last frame's target, to notice targets that take turns.
    private weak var lastTarget: Bitmap?
    /// Whether frames have gone to different targets of one size (a ring of frame buffers).
    private var targetsTakeTurns = false
    private var sceneDamage: [IntRect] = []
    /// The rectangles of the target that changed in the last frame.
    private(set) var targetDamage: [IntRect] = []
    private(set) var log: FrameLog
    /// Called after each completed go cycle (`--autoplay` presses go again).
    var onCycleComplete: (() -> Void)?

    init(kind: SceneKind, setup: SceneSetup, link: DisplayLink, overlay: FPSOverlay?, logCapacity: Int) throws(BitmapError) {
        self.kind = kind
        self.setup = setup
        self.link = link
        self.overlay = overlay
        self.isOverlayVisible = overlay != nil
        sceneBitmap = try Bitmap(width: Int(setup.size.width), height: Int(setup.size.height))
        scene = makeScene(kind, setup: setup)
        log = FrameLog(capacity: logCapacity)
        sceneDamage.reserveCapacity(64)
        targetDamage.reserveCapacity(64)
        connectScene()
    }

    /// Hooks the new scene up, and commits its freshly built tree now: the scene has appeared,
    /// so a go pressed before the first frame animates committed layers.
    private func connectScene() {
        scene.onCycleComplete = { [weak self] in self?.onCycleComplete?() }
        renderer.clearColor = scene.clearColor
        Transaction.flush()
    }

    /// Replaces the scene with `kind`'s, appearing at the current media time.
    func switchScene(to kind: SceneKind) {
        self.kind = kind
        var setup = self.setup
        setup.size = Size(width: Double(sceneBitmap.width), height: Double(sceneBitmap.height))
        scene = makeScene(kind, setup: setup)
        connectScene()
        needsFullRedraw = true
        lastRendered = nil  // a screenshot now must show the new scene
    }

    /// Re-allocates the scene's bitmap for a new frame size and lays the scene out again.
    func resize(width: Int, height: Int) throws(BitmapError) {
        sceneBitmap = try Bitmap(width: width, height: height)
        scene.resize(to: Size(width: Double(width), height: Double(height)))
        needsFullRedraw = true
        // The last frame went to the old scene bitmap or to the window's old frame buffer,
        // which the window releases at its next acquire: never read it again.
        lastRendered = nil
    }

    /// Forces the next frame to redraw and send everything (overlay toggled, new target).
    func invalidate() { needsFullRedraw = true }

    /// Whether the pipeline has something to show without any animation running.
    var hasPendingRedraw: Bool { needsFullRedraw }

    /// Tells a shown overlay whether the display link is about to pause, and returns whether a
    /// frame must be drawn first to say so (the overlay's FPS would stay on screen, stale): until
    /// one is drawn, as the host may ask again before it draws (events came in).
    func linkWillPause(_ pauses: Bool) -> Bool {
        guard let overlay, isOverlayVisible else { return false }
        overlay.isLinkIdle = pauses
        return pauses && !overlay.shownIdle
    }

    /// Whether anything will change: an animation runs or waits, a layer needs display, the
    /// scene counts frames.
    var isAnimating: Bool {
        renderer.nextFrameTime.isFinite || scene.needsFrames
    }

    /// The media time the next frame is due at (``LayerClock/nextFrameTime``, or at once for a
    /// scene that counts frames); `.infinity` when nothing will change.
    var nextFrameTime: Double {
        scene.needsFrames ? -.infinity : renderer.nextFrameTime
    }

    /// Animates, draws and composites the frame at `mediaTime` into `target`; the rectangles that
    /// changed are in ``targetDamage``. Timings are recorded on the link for `frame`'s statistics.
    func produceFrame(mediaTime: Double, into target: Bitmap, deliversTick: Bool = true) {
        var start = CACurrentMediaTime()
        if deliversTick { scene.frameDelivered(at: mediaTime) }
        LayerClock.advance(to: mediaTime)
        var now = CACurrentMediaTime()
        let animate = now - start
        link.recordStage(.animate, duration: animate)

        start = now
        let fullRedraw = needsFullRedraw
        // Zero copy: with no overlay to restore, the renderer draws straight into the target
        // (the window's shared-memory frame buffer), which keeps the last frame between frames.
        if let lastTarget, lastTarget !== target, target !== sceneBitmap,
           lastTarget.width == target.width, lastTarget.height == target.height {
            targetsTakeTurns = true
        }
        lastTarget = target
        let direct = target !== sceneBitmap && !isOverlayVisible && !targetsTakeTurns
            && target.width == sceneBitmap.width && target.height == sceneBitmap.height
        let renderTarget = direct ? target : sceneBitmap
        lastRendered = renderTarget
        sceneDamage.removeAll(keepingCapacity: true)
        sceneDamage.append(contentsOf: renderer.render(scene.root, at: mediaTime, into: renderTarget))
        now = CACurrentMediaTime()
        let draw = now - start
        link.recordStage(.draw, duration: draw)

        start = now
        targetDamage.removeAll(keepingCapacity: true)
        if fullRedraw || target !== renderTarget && (target.width != sceneBitmap.width || target.height != sceneBitmap.height) {
            targetDamage.append(target.bounds)
        } else {
            targetDamage.append(contentsOf: sceneDamage)
        }
        if target !== renderTarget {
            for rect in targetDamage { target.copy(rect, from: sceneBitmap) }
        }
        if let overlay, isOverlayVisible {
            // The overlay redraws all of itself only where the scene under it changed (or the
            // text did); otherwise just its graph.
            let overlayRect = overlay.frame(in: target.bounds)
            var sceneChanged = false
            for rect in targetDamage where !rect.intersection(overlayRect).isEmpty { sceneChanged = true }
            let changed = overlay.draw(into: target, in: overlayRect, under: target === sceneBitmap ? nil : sceneBitmap,
                                       sceneChanged: sceneChanged, scene: kind, playback: scene.playback, link: link)
            if !changed.isEmpty { targetDamage.append(changed) }
        }
        needsFullRedraw = false
        now = CACurrentMediaTime()
        let composite = now - start
        link.recordStage(.composite, duration: composite)
        // A tick's drops go on the first frame it drew; a frame drawn outside the ticks (a
        // screenshot's redraw) dropped none, and must not count the last tick's again.
        var dropped = 0
        if let tick = link.lastFrame, tick.frameIndex != dropsLoggedFor {
            dropped = tick.droppedFrames
            dropsLoggedFor = tick.frameIndex
        }
        lastRecord = FrameRecord(mediaTime: mediaTime, animate: animate, draw: draw, composite: composite, blit: 0,
                                 dropped: dropped, tick: pendingTick)
        pendingTick = nil
    }

    /// The tick that begins the next frame produced, for its record.
    func noteTick(_ tick: FrameTick) { pendingTick = tick }

    private var pendingTick: FrameTick?

    private var lastRecord: FrameRecord?

    /// The link frame whose drops a logged frame carries already.
    private var dropsLoggedFor = -1

    /// Notes that the frame logged at `index` was shown at vblank `msc`.
    func noteShown(logIndex index: Int, msc: Int64) {
        log.noteShown(index, msc: msc)
    }

    /// Completes the frame's record with its blit time and logs it.
    func finishFrame(blit: Double) {
        guard var record = lastRecord else { return }
        if blit > 0 { link.recordStage(.present, duration: blit) }
        record.blit = blit
        log.append(record)
        lastRecord = nil
    }
}

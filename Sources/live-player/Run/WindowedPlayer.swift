// WindowedPlayer: the player's scenes, keys and overlay on a WindowHost.

import DisplayClock
import LayerHost
import LiveLayers
import Raster
import X11Presenter
#if canImport(Glibc)
import Glibc
#endif

/// Plays a scene in an X11 window.
///
/// The frame loop is ``WindowHost``'s: one wait on the X connection, the stop signals' pipe and
/// the display link's next deadline; while nothing animates, media time is paused, or the window
/// is unmapped, the link is paused and an idle or hidden player uses no CPU until an event arrives.
/// The player is the host's frame source: its media timeline (pause, slow motion, steps) and
/// pipeline (scene, overlay) make each frame.
///
/// With Present (the default when the server has it) the host ticks on the server's vblanks;
/// without it, on a timer at the XRandR rate. The overlay, the summary and `--stats` say which.
/// `--fps max` and `--vsync timer` tick on the timer and show each frame at once: through Present
/// too when the server makes MIT-SHM pixmaps (its completions then cost no allocation), else blitted.
@MainActor
final class WindowedPlayer: FrameSource {
    private let options: PlayerOptions
    private let window: X11Window
    private let link: DisplayLink
    private var host: WindowHost!
    private var pipeline: FramePipeline!
    private var timeline = MediaTimeline()
    private var lostConnection = false
    private var screenshotCount = 0
    private var firstFrameWall: Double?
    private var lastFrameWall = 0.0
    private var deliversTick = true
    /// A frame a key asked for, left to the link's next tick; true when that frame counts as a
    /// tick even with media time paused (a step).
    private var requestedFrame: Bool?
    private var clock: PlayerClock
    /// The log index each recent frame (by link frame index) is written at, for its shown vblank.
    private var logIndices = [(frame: Int, log: Int)](repeating: (-1, -1), count: 16)
    /// `LIVE_PLAYER_TRACE_KEYS=1` prints every key as it is handled (for tests and debugging).
    private let traceKeys = getenv("LIVE_PLAYER_TRACE_KEYS").map { String(cString: $0) == "1" } ?? false
    /// `LIVE_PLAYER_TRACE_CLOCK=1` prints every change of what ticks the link, with the time on
    /// CLOCK_MONOTONIC (stderr says only the first hand-over otherwise).
    private let traceClock = getenv("LIVE_PLAYER_TRACE_CLOCK").map { String(cString: $0) == "1" } ?? false

    init(options: PlayerOptions, window: X11Window) {
        self.options = options
        self.window = window
        let display = window.displayRefresh
        // --vsync timer and --fps max show frames at once, through Present too when the window has it.
        let pacedByVblanks = window.presentation == .present && options.vsync != .timer && options.frameRate != .unlimited
        // The timer's grid is the display's rate, or the target itself when that is faster.
        var refresh = display.rate
        if !pacedByVblanks, case let .fixed(n) = options.frameRate { refresh = max(refresh, Double(n)) }
        link = DisplayLink(refreshRate: refresh)
        if case let .fixed(n) = options.frameRate { link.preferredFrameRateRange = FrameRateRange(exactly: Double(n)) }
        link.isUnthrottled = options.frameRate == .unlimited
        let rateSource: PlayerClock.RateSource = display.source == .xrandr ? .xrandr : .default
        if pacedByVblanks {
            clock = PlayerClock(source: .present, reason: nil, displayRateSource: rateSource)
        } else {
            let reason: StaticString? = switch (options.frameRate, options.vsync) {
            case (.unlimited, _): nil
            case (_, .timer): "--vsync timer"
            default: "no Present"
            }
            clock = PlayerClock(source: .timer, reason: reason, displayRateSource: rateSource)
        }
    }

    /// How frames reach the window now, for the overlay's first line.
    private var transportLabel: String {
        let transport = if case .sharedMemory = window.transport { "MIT-SHM" } else { "XPutImage" }
        return window.presentation == .present ? transport + " Present" : transport
    }

    func run() -> Int32 {
        if case let .putImage(reason) = window.transport {
            // The window's reasons are the library's; the flag that asked for it is the player's.
            printError("not using MIT-SHM (\(options.usesSharedMemory ? reason : "--no-shm was given")); frames go through XPutImage")
        }
        window.onNotice = { [weak self] message in
            printError(message)
            // Present or MIT-SHM can stop in the middle of a run (each with a notice).
            guard let self else { return }
            if clock.source == .present, window.presentation != .present { presentStopped() }
            pipeline?.overlay?.transportLabel = transportLabel
        }
        if options.vsync == .automatic, options.frameRate != .unlimited, case let .blit(reason?) = window.presentation {
            printError("not pacing frames to vblanks (\(reason)); ticking on a timer at \(fixed(link.refreshRate, 1)) Hz")
        }
        let overlay = FPSOverlay(transportLabel: transportLabel, frameRate: options.frameRate)
        overlay.clock = clock
        do {
            pipeline = try FramePipeline(kind: options.scene, setup: SceneSetup(size: Size(width: Double(window.width), height: Double(window.height)), image: options.image,
                                                                   animation: options.animation, animationLayer: options.animationLayer,
                                                                   background: options.background),
                                         link: link, overlay: overlay, logCapacity: options.frames ?? 100_000)
        } catch {
            printError("\(error)")
            return 1
        }
        pipeline.isOverlayVisible = options.showsOverlay
        pipeline.onCycleComplete = { [weak self] in
            guard let self, self.options.autoplay else { return }
            self.pipeline.scene.autoplayNext()
        }
        host = WindowHost(window: window, link: link, source: self)
        if StopSignals.descriptor >= 0 { host.watch(StopSignals.descriptor) }
        host.onEvent = { [unowned self] event in handle(event) }
        host.onWake = { [unowned self] in
            if StopSignals.pending != nil { host.stop() }
        }
        link.onTickSourceChange = { [unowned self] source in tickSourceChanged(to: source) }
        host.onFrameShown = { [unowned self] frameIndex, msc in
            let entry = logIndices[frameIndex % logIndices.count]
            if entry.frame == frameIndex { pipeline.noteShown(logIndex: entry.log, msc: msc) }
        }
        if clock.source == .present { host.tickOnVblanks() }
        // --frames counts the display's frames, as headless counts the virtual clock's: the link
        // ticks at every refresh, drawn whether anything moves or not, so a run that waits for
        // g still ends after N of them instead of never.
        if options.frames != nil { host.onFrame = { _ in } }

        LayerClock.advance(to: 0)
        if options.autoplay { pipeline.scene.go() }
        do { try host.run() } catch {
            printError("\(error)")
            return 1
        }
        let status = finish()
        if let signal = StopSignals.pending { return StopSignals.exitStatus(for: signal) }
        return status
    }

    /// Closes the window, then writes `--stats` and the summary: every ending comes here (q, the
    /// close button, a destroyed window, the server's loss, a stop signal).
    private func finish() -> Int32 {
        var report = RunReport(scene: pipeline.kind, width: window.width, height: window.height,
                               mode: window.transport == .sharedMemory ? "window MIT-SHM" : "window XPutImage",
                               log: pipeline.log, statistics: link.statistics, elapsed: lastFrameWall - (firstFrameWall ?? lastFrameWall),
                               measuredFramesPerSecond: link.statistics.framesPerSecondOverall)
        report.clockLabel = clock.label(link: link)
        report.clockJSON = clock.json(link: link)
        window.close()
        StopSignals.releaseWindow()
        var status: Int32 = writeStats(report, to: options.statsPath) ? 0 : outputErrorStatus
        print(report.summary)
        if lostConnection, status == 0 { status = unavailableStatus }
        return status
    }

    // MARK: Frames (the host's frame source)

    /// Whatever changes the picture (resize, scene switch, overlay) draws a frame even with
    /// media time paused; animations only run with it.
    /// A delayed animation is due at its begin, converted from media time to the clock's.
    /// A shown overlay gets one more frame when frames stop, to say `idle` in place of the last
    /// second's FPS.
    func nextFrameTime(now: Double) -> Double {
        let due = frameDue(now: now)
        return pipeline.linkWillPause(due - now > FPSOverlay.idleThreshold) ? now : due
    }

    private func frameDue(now: Double) -> Double {
        if pipeline.hasPendingRedraw || requestedFrame != nil { return now }
        guard !timeline.isPaused else { return .infinity }
        let due = pipeline.nextFrameTime
        guard due.isFinite else { return due < 0 ? now : .infinity }
        var current = timeline
        current.sync(toClock: now)
        return due <= current.time ? now : now + (due - current.time) / current.rate
    }

    func mediaTime(for frame: DisplayLink.Frame) -> Double {
        if firstFrameWall == nil { firstFrameWall = CACurrentMediaTime() }
        timeline.sync(toClock: frame.targetTimestamp)
        // A redraw while paused shows the same media time: no tick for scenes that count them.
        deliversTick = !timeline.isPaused || requestedFrame == true
        requestedFrame = nil
        logIndices[frame.frameIndex % logIndices.count] = (frame.frameIndex, pipeline.log.count)
        pipeline.noteTick(FrameTick(timestamp: frame.timestamp, time: link.clock.now(), vblankUST: host.tickingVblank?.time))
        return timeline.time
    }

    func drawFrame(at mediaTime: Double, into target: Bitmap) -> [IntRect] {
        pipeline.produceFrame(mediaTime: mediaTime, into: target, deliversTick: deliversTick)
        deliversTick = true
        return pipeline.targetDamage
    }

    func framePresented(blitDuration: Double) {
        pipeline.finishFrame(blit: blitDuration)
        lastFrameWall = CACurrentMediaTime()
        if let frames = options.frames, pipeline.log.count >= frames { host.stop() }
    }

    func frameBufferResized(width: Int, height: Int) {
        do { try pipeline.resize(width: width, height: height) } catch {
            printError("\(error)")
        }
    }

    /// Shows the frame at the current media time (a step, a transport key) at the link's next
    /// tick, which a paused link then makes at the next vblank. Not at once: Present shows one
    /// frame a vblank, so a frame drawn between ticks took the vblank of the next one, which then
    /// came a vblank late and counted as dropped (a burst of keys while playing counted a drop for
    /// every two or three), and the link fell back to its timer when the wait was long.
    private func requestFrame(deliversTick: Bool) {
        requestedFrame = (requestedFrame ?? false) || deliversTick
    }

    /// Draws the frame at the current media time now, outside the link's ticks.
    private func drawNow(deliversTick: Bool) {
        self.deliversTick = deliversTick
        host.drawFrame(at: timeline.time)
    }

    /// Present stopped for the rest of the run (its events' connection ended, or no pixmaps at a
    /// new size): no vblank will come back, so the timer paces the run from now on, as in a
    /// window without Present, rather than standing in for vblanks it waits for.
    private func presentStopped() {
        clock.source = .timer
        clock.reason = "Present stopped"
        clock.isStandingIn = false
        link.tickOnTimer()
        pipeline?.overlay?.clock = clock
    }

    /// The watchdog handed over to the timer (vblanks stopped), or vblanks came back: say so the
    /// first time. A busy server can miss a few vblanks now and then; those hand-overs are
    /// counted in the summary and `--stats` instead of flooding stderr.
    private func tickSourceChanged(to source: TickSource) {
        if traceClock { printError("ticking on \(source == .timer ? "the timer" : "vblanks") from \(fixed(link.clock.now(), 6))") }
        guard clock.source == .present else { return }
        switch source {
        case .timer:
            clock.isStandingIn = true
            clock.fallbacks += 1
            if clock.fallbacks == 1 {
                printError("no vblank from the X server for two frames; ticking on a timer at \(fixed(link.refreshRate, 1)) Hz until they return")
            }
        case .vblank:
            clock.isStandingIn = false
            if clock.fallbacks == 1 { printError("vblanks are back; pacing frames to them again") }
        }
        pipeline.overlay?.clock = clock
    }

    // MARK: Events

    private func handle(_ event: WindowEvent) {
        switch event {
        case let .keyDown(event):
            // Held keys repeat their action, as they always have.
            if let key = Key(keysym: event.keysym) { handle(key) }
        case .connectionLost:
            // An interrupted connection (a stop signal on a stuck server) is not a lost server.
            guard StopSignals.pending == nil else { return }
            lostConnection = true
            printError("lost the connection to the X server \(window.displayName)")
        default: break  // the host pauses, resizes and stops for the rest
        }
    }

    /// Brings media time and the layer clock up to now, so that what a key starts begins now.
    private func catchUp() {
        timeline.sync(toClock: link.clock.now())
        LayerClock.advance(to: timeline.time)
    }

    private func handle(_ key: Key) {
        if traceKeys { printError("key \(key) at media time \(fixed(timeline.time, 4))\(timeline.isPaused ? " (paused)" : "")") }
        if let transport = pipeline.scene as? any TransportControls, handleTransport(key, transport) {
            if traceKeys { printError("  shows \(Self.describe(transport.status))") }
            return
        }
        switch key {
        case .g, .space, .enter:
            catchUp()
            pipeline.scene.go()
        case .r:
            catchUp()
            pipeline.scene.reverse()
        case .p:
            timeline.setPaused(!timeline.isPaused, atClock: link.clock.now())
        case .rightArrow:
            guard timeline.isPaused else { return }
            timeline.step(by: options.frameRate.interval)
            requestFrame(deliversTick: true)
        case .s:
            timeline.sync(toClock: link.clock.now())
            timeline.isSlow.toggle()
        case .f:
            pipeline.isOverlayVisible.toggle()
            pipeline.invalidate()
        case .c:
            screenshot()
        case let .digit(d):
            catchUp()
            pipeline.scene.choose(d)
        case .tab:
            catchUp()
            pipeline.switchScene(to: pipeline.kind.next)
        case .q, .escape:
            host.stop()
        case .leftArrow, .home, .end, .l:
            break  // the play scene's transport only
        }
    }

    /// The play scene's keys: space pauses and resumes the animation (not media time, which p
    /// pauses), Left and Right step one of its frames, Home and End show the first and last,
    /// l toggles looping. Each shows its frame at the next vblank, even with the link idle.
    private func handleTransport(_ key: Key, _ transport: any TransportControls) -> Bool {
        switch key {
        case .space:
            catchUp()
            transport.togglePause()
            // Paused, the link draws nothing more: without this frame the overlay would keep
            // saying playing, at a frame up to a quarter of a second old.
            requestFrame(deliversTick: false)
        case .rightArrow, .leftArrow:
            catchUp()
            transport.step(by: key == .rightArrow ? 1 : -1)
            requestFrame(deliversTick: false)
        case .home, .end:
            catchUp()
            transport.seek(toEnd: key == .end)
            requestFrame(deliversTick: false)
        case .l:
            transport.isLooping.toggle()
            requestFrame(deliversTick: false)
        default:
            return false
        }
        return true
    }

    /// `frame 12 / 60 paused looping`: what a traced key left on screen.
    static func describe(_ status: PlaybackStatus) -> String {
        "frame \(status.frame) / \(status.frameCount) \(status.direction) \(status.isLooping ? "looping" : "once")"
    }

    private func screenshot() {
        let path: String
        if let given = options.screenshotPath {
            path = given
        } else {
            screenshotCount += 1
            path = "live-player-\(pipeline.kind.rawValue)-\(screenshotCount).png"
        }
        // A key pressed before the first frame still saves the scene, not an empty bitmap, and
        // a key's frame not drawn yet (a step, then c) is in the screenshot.
        if pipeline.lastRendered == nil || requestedFrame != nil {
            drawNow(deliversTick: requestedFrame ?? false)
            requestedFrame = nil
        }
        if writeScreenshot(pipeline.lastRendered ?? pipeline.sceneBitmap, to: path) {
            print("screenshot: \(path)")
            fflush(nil)  // stdout may be a pipe or file: show the path now
        }
    }
}

// WindowedPlayer: the frame loop with a window: one wait for X events and the next deadline.

import DisplayClock
import LiveLayers
import Raster
import X11Presenter
#if canImport(Glibc)
import Glibc
#endif

/// Plays a scene in an X11 window.
///
/// One thread does everything (Xlib, layers, rendering): it blocks in a single `FrameWaiter`
/// wait on the X connection and the display link's next deadline. When nothing animates and
/// nothing needs display, or the window is unmapped, the link is paused and the wait is on the X
/// connection alone, so an idle or hidden player uses no CPU until an event arrives.
@MainActor
final class WindowedPlayer {
    private let options: PlayerOptions
    private let window: X11Window
    private let link: DisplayLink
    private var pipeline: FramePipeline!
    private var timeline = MediaTimeline()
    private var running = true
    /// Unmapped or iconified: nothing drawn would be seen.
    private var isHidden = false
    private var lostConnection = false
    private var events: [WindowEvent] = []
    private var screenshotCount = 0
    private var firstFrameWall: Double?
    private var lastFrameWall = 0.0
    /// `LIVE_PLAYER_TRACE_KEYS=1` prints every key as it is handled (for tests and debugging).
    private let traceKeys = getenv("LIVE_PLAYER_TRACE_KEYS").map { String(cString: $0) == "1" } ?? false

    init(options: PlayerOptions, window: X11Window) {
        self.options = options
        self.window = window
        link = DisplayLink(refreshRate: options.frameRate == .unlimited ? 60 : Double(max(60, Self.refreshFor(options.frameRate))))
        if case let .fixed(n) = options.frameRate { link.preferredFramesPerSecond = n }
        link.isUnthrottled = options.frameRate == .unlimited
        events.reserveCapacity(32)
    }

    /// The refresh grid: 60 Hz, or the target itself when it is above 60.
    private static func refreshFor(_ rate: FrameRate) -> Int {
        if case let .fixed(n) = rate { return n > 60 ? n : 60 }
        return 60
    }

    func run() -> Int32 {
        let transport: String
        switch window.transport {
        case .sharedMemory: transport = "MIT-SHM"
        case let .putImage(reason):
            transport = "XPutImage"
            printError("not using MIT-SHM (\(reason)); frames go through XPutImage")
        }
        window.onNotice = { printError($0) }
        let overlay = FPSOverlay(transportLabel: transport, frameRate: options.frameRate)
        do {
            pipeline = try FramePipeline(kind: options.scene, setup: SceneSetup(size: Size(width: Double(window.width), height: Double(window.height)), image: options.image),
                                         link: link, overlay: overlay, logCapacity: options.frames ?? 100_000)
        } catch {
            printError("\(error)")
            return 1
        }
        pipeline.isOverlayVisible = options.showsOverlay
        pipeline.onCycleComplete = { [weak self] in
            guard let self, self.options.autoplay else { return }
            self.pipeline.scene.go()
        }
        let waiter: FrameWaiter
        do { waiter = try FrameWaiter() } catch {
            printError("\(error)")
            return 1
        }
        waiter.watch(window.connectionFileDescriptor)
        if StopSignals.descriptor >= 0 { waiter.watch(StopSignals.descriptor) }
        link.handler = { [unowned self] frame in self.frame(frame) }

        LayerClock.advance(to: 0)
        if options.autoplay { pipeline.scene.go() }
        while running {
            window.processEvents(into: &events)
            for event in events { handle(event) }
            events.removeAll(keepingCapacity: true)
            guard running else { break }
            // Whatever changes the picture (resize, scene switch, overlay) draws a frame even with
            // media time paused; animations only run with it.
            link.isPaused = isHidden || !(pipeline.hasPendingRedraw || !timeline.isPaused && pipeline.isAnimating)
            // Events read from the socket while handling the last batch are not on the descriptor.
            if window.hasQueuedEvents { continue }
            do { try waiter.wait(until: link.nextDeadline) } catch {
                printError("\(error)")
                return 1
            }
            if StopSignals.pending != nil { break }
            _ = link.service()
            if let frames = options.frames, pipeline.log.count >= frames { running = false }
        }
        let status = finish()
        if let signal = StopSignals.pending { return StopSignals.exitStatus(for: signal) }
        return status
    }

    /// Closes the window, then writes `--stats` and the summary: every ending comes here (q, the
    /// close button, a destroyed window, the server's loss, a stop signal).
    private func finish() -> Int32 {
        let report = RunReport(scene: pipeline.kind, width: window.width, height: window.height,
                               mode: window.transport == .sharedMemory ? "window MIT-SHM" : "window XPutImage",
                               log: pipeline.log, statistics: link.statistics, elapsed: lastFrameWall - (firstFrameWall ?? lastFrameWall),
                               measuredFramesPerSecond: link.statistics.framesPerSecondOverall)
        window.close()
        StopSignals.releaseWindow()
        var status: Int32 = writeStats(report, to: options.statsPath) ? 0 : outputErrorStatus
        print(report.summary)
        if lostConnection, status == 0 { status = unavailableStatus }
        return status
    }

    // MARK: Frames

    private func frame(_ frame: DisplayLink.Frame) {
        let wallStart = CACurrentMediaTime()
        if firstFrameWall == nil { firstFrameWall = wallStart }
        timeline.sync(toClock: frame.targetTimestamp)
        // A redraw while paused shows the same media time: no tick for scenes that count them.
        render(deliversTick: !timeline.isPaused)
        lastFrameWall = CACurrentMediaTime()
    }

    private func render(deliversTick: Bool) {
        let target = window.acquireFrameBuffer()
        pipeline.produceFrame(mediaTime: timeline.time, into: target, deliversTick: deliversTick)
        let start = CACurrentMediaTime()
        window.present(damage: pipeline.targetDamage)
        pipeline.finishFrame(blit: CACurrentMediaTime() - start)
    }

    // MARK: Events

    private func handle(_ event: WindowEvent) {
        switch event {
        case let .key(key): handle(key)
        case .close, .destroyed: running = false
        case let .resize(width, height):
            // The frame buffer is clamped to the largest bitmap; the scene renders at its size.
            let frame = X11Window.frameSize(forWindowWidth: width, height: height)
            do { try pipeline.resize(width: frame.width, height: frame.height) } catch {
                printError("\(error)")
            }
        case .expose: isHidden = false  // the window re-blitted it from the last frame
        case .hidden: isHidden = true
        case .shown: isHidden = false
        case .connectionLost:
            running = false
            // An interrupted connection (a stop signal on a stuck server) is not a lost server.
            guard StopSignals.pending == nil else { return }
            lostConnection = true
            printError("lost the connection to the X server \(window.displayName)")
        }
    }

    /// Brings media time and the layer clock up to now, so that what a key starts begins now.
    private func catchUp() {
        timeline.sync(toClock: link.clock.now())
        LayerClock.advance(to: timeline.time)
    }

    private func handle(_ key: Key) {
        if traceKeys { printError("key \(key) at media time \(fixed(timeline.time, 4))\(timeline.isPaused ? " (paused)" : "")") }
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
            render(deliversTick: true)
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
            running = false
        }
    }

    private func screenshot() {
        let path: String
        if let given = options.screenshotPath {
            path = given
        } else {
            screenshotCount += 1
            path = "live-player-\(pipeline.kind.rawValue)-\(screenshotCount).png"
        }
        // A key pressed before the first frame still saves the scene, not an empty bitmap.
        if pipeline.lastRendered == nil { render(deliversTick: false) }
        if writeScreenshot(pipeline.lastRendered ?? pipeline.sceneBitmap, to: path) {
            print("screenshot: \(path)")
            fflush(nil)  // stdout may be a pipe or file: show the path now
        }
    }
}

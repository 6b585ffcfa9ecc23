// HeadlessPlayer: the same frame path into an off-screen bitmap, on a virtual clock.

import DisplayClock
import LayerHost
import LiveLayers
import Raster

/// Renders a scene without a window: on a virtual clock as fast as frames can be made, or at
/// the target rate with `--realtime`; for `--frames N`, for one whole go cycle, or exactly the
/// frame at `--at T`.
@MainActor
struct HeadlessPlayer {
    let options: PlayerOptions
    /// The longest a cycle may run when the scene never completes one (rays turn forever).
    static let longestCycle = 12.0

    func run() -> Int32 {
        let virtual = VirtualClock(now: 0)
        let clock: any MediaClock = options.realtime ? MonotonicClock() : virtual
        let interval = options.frameRate.interval
        let link = DisplayLink(refreshRate: 1 / interval, clock: clock, start: clock.now())
        let pipeline: FramePipeline
        do {
            pipeline = try FramePipeline(kind: options.scene, setup: SceneSetup(size: Size(width: Double(options.width), height: Double(options.height)), image: options.image,
                                                                   animation: options.animation, animationLayer: options.animationLayer,
                                                                   background: options.background),
                                         link: link, overlay: nil, logCapacity: options.frames ?? (options.at != nil ? 1 : 4096))
        } catch {
            printError("\(error)")
            return 64
        }
        var cycles = 0
        pipeline.onCycleComplete = { cycles += 1 }
        let startTime = clock.now()
        var wallStart = 0.0, wallEnd = 0.0

        let source = HeadlessFrames(pipeline: pipeline, startTime: startTime)
        let host = HeadlessHost(bitmap: pipeline.sceneBitmap, link: link, source: source)
        if let at = options.at {
            // The scene appears at 0, go is pressed at 0; every tick before T animates (the line
            // scene counts them), and the frame at exactly T is rendered.
            LayerClock.advance(to: LayerClock.currentTime)
            let base = LayerClock.currentTime
            pipeline.scene.go()
            var tick = 0
            // A late T is minutes of ticks: a stop signal ends it (an atomic load per tick).
            while Double(tick) * interval < at, StopSignals.pending == nil {
                pipeline.scene.frameDelivered(at: base + Double(tick) * interval)
                LayerClock.advance(to: base + Double(tick) * interval)
                tick += 1
            }
            wallStart = CACurrentMediaTime()
            if StopSignals.pending == nil { host.drawFrame(at: base + at) }
            wallEnd = CACurrentMediaTime()
        } else {
            // Without --frames, a Lottie animation plays once: the run ends on its last frame
            // (out point) rather than looping to the longest cycle.
            if options.frames == nil, !options.autoplay, let transport = pipeline.scene as? any TransportControls {
                transport.isLooping = false
            }
            let base = LayerClock.currentTime
            source.base = base
            LayerClock.advance(to: base)
            pipeline.scene.go()
            pipeline.onCycleComplete = {
                cycles += 1
                if options.autoplay { pipeline.scene.autoplayNext() }
            }
            wallStart = CACurrentMediaTime()
            host.run {
                guard StopSignals.pending == nil else { return true }
                if let frames = options.frames { return pipeline.log.count >= frames }
                return pipeline.log.count > 0 && ((cycles > 0 && (!pipeline.isAnimating || pipeline.scene.animatesForever)) || source.mediaTime - base >= Self.longestCycle)
            }
            wallEnd = CACurrentMediaTime()
        }

        let report = RunReport(scene: options.scene, width: options.width, height: options.height, mode: "headless",
                               log: pipeline.log, statistics: link.statistics, elapsed: wallEnd - wallStart)
        // Each output is attempted and the summary printed whatever fails: nothing is lost
        // to an earlier error. Stopped before T, there is no frame to save: the summary says 0 frames.
        var status: Int32 = 0
        let rendered = options.at == nil || pipeline.log.count > 0
        if rendered, let path = options.screenshotPath, !writeScreenshot(pipeline.sceneBitmap, to: path) { status = outputErrorStatus }
        if !writeStats(report, to: options.statsPath) { status = outputErrorStatus }
        print(report.summary)
        if let signal = StopSignals.pending { return StopSignals.exitStatus(for: signal) }
        return status
    }
}

/// The headless host's frame source: the pipeline at media time `base` plus the clock's time
/// since the start; a frame is always due (the run decides when to end).
@MainActor
private final class HeadlessFrames: FrameSource {
    let pipeline: FramePipeline
    let startTime: Double
    var base = 0.0
    private(set) var mediaTime = 0.0

    init(pipeline: FramePipeline, startTime: Double) {
        self.pipeline = pipeline
        self.startTime = startTime
    }

    func nextFrameTime(now: Double) -> Double { now }

    func mediaTime(for frame: DisplayLink.Frame) -> Double {
        mediaTime = base + frame.targetTimestamp - startTime
        return mediaTime
    }

    func drawFrame(at mediaTime: Double, into target: Bitmap) -> [IntRect] {
        pipeline.produceFrame(mediaTime: mediaTime, into: target)
        return pipeline.targetDamage
    }

    func framePresented(blitDuration: Double) { pipeline.finishFrame(blit: 0) }
}

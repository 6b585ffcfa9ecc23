// HeadlessPlayer: the same frame path into an off-screen bitmap, on a virtual clock.

import DisplayClock
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
            pipeline = try FramePipeline(kind: options.scene, setup: SceneSetup(size: Size(width: Double(options.width), height: Double(options.height)), image: options.image),
                                         link: link, overlay: nil, logCapacity: options.frames ?? (options.at != nil ? 1 : 4096))
        } catch {
            printError("\(error)")
            return 64
        }
        var cycles = 0
        pipeline.onCycleComplete = { cycles += 1 }
        let startTime = clock.now()
        var mediaTime = 0.0
        var wallStart = 0.0, wallEnd = 0.0

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
            if StopSignals.pending == nil {
                pipeline.produceFrame(mediaTime: base + at, into: pipeline.sceneBitmap)
                pipeline.finishFrame(blit: 0)
            }
            wallEnd = CACurrentMediaTime()
        } else {
            let base = LayerClock.currentTime
            link.handler = { frame in
                mediaTime = base + frame.targetTimestamp - startTime
                pipeline.produceFrame(mediaTime: mediaTime, into: pipeline.sceneBitmap)
                pipeline.finishFrame(blit: 0)
            }
            LayerClock.advance(to: base)
            pipeline.scene.go()
            pipeline.onCycleComplete = {
                cycles += 1
                if options.autoplay { pipeline.scene.go() }
            }
            wallStart = CACurrentMediaTime()
            while StopSignals.pending == nil {
                if let frames = options.frames {
                    if pipeline.log.count >= frames { break }
                } else if pipeline.log.count > 0, (cycles > 0 && !pipeline.isAnimating) || mediaTime - base >= Self.longestCycle {
                    break
                }
                guard let deadline = link.nextDeadline else { break }
                if options.realtime { clock.wait(until: deadline) } else { virtual.advance(to: max(deadline, virtual.now())) }
                _ = link.service()
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

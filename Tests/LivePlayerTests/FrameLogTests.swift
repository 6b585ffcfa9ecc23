import DisplayClock
import Raster
import Testing
@testable import live_player
@testable import LiveLayers

/// The frame log behind `--stats`: each frame's row carries the drops of the tick that began it.
@MainActor
@Suite(.serialized) struct FrameLogTests {
    /// A frame drawn between ticks (a screenshot's redraw of a pending step) dropped nothing:
    /// its row said the last tick's drops again, so adding up the `dropped` column counted them
    /// twice.
    @Test func framesDrawnBetweenTicksCarryNoDrops() throws {
        LayerRuntime.shared.reset()
        let link = DisplayLink(refreshRate: 60, clock: VirtualClock(now: 0), start: 0)
        let pipeline = try FramePipeline(kind: .orbit, setup: SceneSetup(size: Size(width: 200, height: 150), image: nil),
                                         link: link, overlay: nil, logCapacity: 8)
        link.handler = { frame in
            pipeline.produceFrame(mediaTime: frame.targetTimestamp, into: pipeline.sceneBitmap)
            pipeline.finishFrame(blit: 0)
        }
        #expect(link.service(now: 0))
        // Woken four refreshes later: the tick stands for the latest deadline, three dropped.
        #expect(link.service(now: 4.0 / 60 + 0.001))
        #expect(link.lastFrame?.droppedFrames == 3)
        pipeline.produceFrame(mediaTime: 4.0 / 60, into: pipeline.sceneBitmap)
        pipeline.finishFrame(blit: 0)
        #expect(link.service(now: 5.0 / 60 + 0.001))
        #expect(pipeline.log.records.map(\.dropped) == [0, 3, 0, 0])
        link.invalidate()
    }
}

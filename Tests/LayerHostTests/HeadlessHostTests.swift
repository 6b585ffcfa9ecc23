// HeadlessHostTests: the host's frame loop on a virtual clock: frames when due, none while waiting.

import DisplayClock
import LayerHost
@testable import LiveLayers
import Raster
import Testing

@MainActor
@Suite(.serialized) struct HeadlessHostTests {
    /// A 100×20 black root with a white 10×10 square whose x slides from 5 to 85 during
    /// `[begin, begin + 1]`, added at time 0.
    private func slidingSquare(begin: Double) throws -> HeadlessHost {
        LayerRuntime.shared.reset()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 100, height: 20)
        let square = Layer()
        square.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        square.backgroundColor = .white
        root.addSublayer(square)
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 5.0
        slide.toValue = 85.0
        slide.duration = 1
        slide.beginTime = begin
        square.add(slide, forKey: "slide")
        let source = RecordingSource(LayerTreeSource(rootLayer: root))
        return HeadlessHost(bitmap: try Bitmap(width: 100, height: 20),
                            link: DisplayLink(refreshRate: 60, clock: VirtualClock(now: 0), start: 0), source: source)
    }

    /// A delayed animation (beginTime 1 s ahead) is drawn at the first tick at or after its
    /// begin, and the host delivers no frame while it waits: the clock jumps to the begin.
    @Test func delayedAnimationIsDrawnOnTimeWithoutSpinning() throws {
        let host = try slidingSquare(begin: 1)
        let source = try #require(host.source as? RecordingSource)
        host.run { source.drawn.count > 200 }
        // Each frame shows its link frame's targetTimestamp, a period after its timestamp.
        let timestamps = source.drawn.map { $0 - 1.0 / 60 }
        #expect(abs(try #require(timestamps.first) - 0) < 1e-9)   // the first picture
        let second = try #require(timestamps.dropFirst().first)
        #expect(abs(second - 1) < 1e-9)                      // then nothing until the begin
        #expect(!timestamps.contains { $0 > 1e-9 && $0 < 1 - 1e-9 })   // no spinning while waiting
        // The slide runs at 60 Hz until a frame shows its end (each frame shows its
        // targetTimestamp, a period later), then the host is idle and run returns.
        let last = try #require(timestamps.last)
        #expect(abs(last + 1.0 / 60 - 2) < 1e-9)
        #expect(timestamps.count < 70)
        // Removed on completion: the square is back at its model position.
        #expect(host.bitmap[5, 5] == Color.white.premultipliedPixel)
        #expect(host.bitmap[90, 5] == Color.black.premultipliedPixel)
    }

    /// While a frame callback is set, the link ticks every refresh, as a CADisplayLink does.
    @Test func frameCallbackTicksEveryRefresh() throws {
        let host = try slidingSquare(begin: 10)
        var ticks = 0
        host.onFrame = { _ in ticks += 1 }
        host.run { ticks >= 30 }
        #expect(ticks == 30)
        #expect(abs(host.link.clock.now() - 29.0 / 60) < 1e-9)
    }

    /// Any media time can be drawn directly, by the same path as the ticks.
    @Test func drawsAnyMediaTime() throws {
        let host = try slidingSquare(begin: 1)
        let bitmap = host.drawFrame(at: 1.5)   // half-way: x = 45, the square covers 40..<50
        #expect(bitmap[45, 5] == Color.white.premultipliedPixel)
        #expect(bitmap[5, 5] == Color.black.premultipliedPixel)
        #expect(bitmap[45, 15] == Color.black.premultipliedPixel)
    }
}

/// Passes everything to a layer tree's source and remembers the media time of each frame drawn.
@MainActor
private final class RecordingSource: FrameSource {
    let inner: LayerTreeSource
    private(set) var drawn: [Double] = []

    init(_ inner: LayerTreeSource) { self.inner = inner }

    func nextFrameTime(now: Double) -> Double { inner.nextFrameTime(now: now) }

    func drawFrame(at mediaTime: Double, into target: Bitmap) -> [IntRect] {
        drawn.append(mediaTime)
        return inner.drawFrame(at: mediaTime, into: target)
    }
}

// HeadlessHost: the same frame path into an off-screen bitmap, on a virtual or real clock.

import DisplayClock
import LiveLayers
import Raster

/// Renders a layer tree (or any ``FrameSource``) into a ``Bitmap`` without a window: frames at
/// any media time (``drawFrame(at:)``), or ticks of a display link on a ``VirtualClock`` as
/// fast as they can be made (``run(until:)``). Screenshots, tests and `--headless` runs use it.
@MainActor
public final class HeadlessHost {
    /// The bitmap frames are drawn into; it keeps the last frame.
    public let bitmap: Bitmap
    /// The display link whose ticks draw frames in ``run(until:)``.
    public let link: DisplayLink
    /// What the frames show.
    public let source: any FrameSource
    /// Called at each tick of the link, before the frame is drawn. While it is set, the link
    /// ticks at every refresh (as ``WindowHost/onFrame``).
    public var onFrame: ((DisplayLink.Frame) -> Void)?
    /// Whether any frame has been drawn.
    public private(set) var hasDrawn = false

    /// A host drawing `source` into `bitmap` on `link` (a virtual clock's link runs as fast as
    /// frames are made; any other clock's link waits for each deadline).
    public init(bitmap: Bitmap, link: DisplayLink, source: any FrameSource) {
        self.bitmap = bitmap
        self.link = link
        self.source = source
    }

    /// A `width` × `height` host showing `rootLayer` on a 60 Hz link of a virtual clock starting at 0.
    /// - Throws: ``BitmapError`` when the bitmap cannot be made at that size.
    public convenience init(width: Int, height: Int, rootLayer: Layer, frameRate: Double = 60,
                            clearColor: Color = .black) throws(BitmapError) {
        let clock = VirtualClock(now: 0)
        self.init(bitmap: try Bitmap(width: width, height: height),
                  link: DisplayLink(refreshRate: frameRate, clock: clock, start: 0),
                  source: LayerTreeSource(rootLayer: rootLayer, clearColor: clearColor))
    }

    /// Draws the frame at `mediaTime` into ``bitmap`` and returns it.
    @discardableResult
    public func drawFrame(at mediaTime: Double) -> Bitmap {
        _ = source.drawFrame(at: mediaTime, into: bitmap)
        source.framePresented(blitDuration: 0)
        hasDrawn = true
        return bitmap
    }

    /// Delivers the link's ticks until `done` returns true (asked before each tick) or the
    /// source has nothing more to draw. On a ``VirtualClock`` time jumps to each deadline (and
    /// to a delayed animation's begin); on another clock the host waits for it.
    public func run(until done: () -> Bool) {
        link.handler = { [unowned self] frame in
            onFrame?(frame)
            drawFrame(at: source.mediaTime(for: frame))
        }
        defer { link.handler = nil }
        let virtual = link.clock as? VirtualClock
        while !done() {
            let now = link.clock.now()
            let due = onFrame != nil ? now : source.nextFrameTime(now: now)
            guard due.isFinite else { break }
            link.isPaused = due > now
            guard let deadline = link.isPaused ? due : link.nextDeadline else { break }
            if let virtual { virtual.advance(to: max(deadline, virtual.now())) } else { link.clock.wait(until: deadline) }
            if link.isPaused { continue }
            _ = link.service()
        }
    }

    /// Delivers `count` ticks, one per refresh of the link.
    public func run(frames count: Int) {
        var drawn = 0
        let counting = onFrame
        onFrame = { frame in
            drawn += 1
            counting?(frame)
        }
        defer { onFrame = counting }
        run { drawn >= count }
    }
}

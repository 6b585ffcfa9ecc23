// FrameSource: what a host asks of the thing it shows: when the next frame is due, and the frame.

import DisplayClock
import LiveLayers
import Raster

/// Produces the frames a ``WindowHost`` or ``HeadlessHost`` shows, and says when the next one is due.
///
/// ``LayerTreeSource`` renders a layer tree; an application with more on screen than layers
/// (an overlay, its own media time) conforms its own type. Hosts call these methods on the
/// main actor, from their one frame loop.
@MainActor
public protocol FrameSource: AnyObject {
    /// The time, on the host's clock, at which the next frame is due: `now` or earlier for at
    /// once, a later time for a delayed change (an animation's `beginTime`), `.infinity` when
    /// nothing will change. The host sleeps until then, or until an event arrives.
    func nextFrameTime(now: Double) -> Double

    /// The media time the display link's `frame` shows (by default its `targetTimestamp`).
    func mediaTime(for frame: DisplayLink.Frame) -> Double

    /// Draws the frame at `mediaTime` into `target` and returns the rectangles that changed;
    /// pixels outside them keep the previous frame.
    func drawFrame(at mediaTime: Double, into target: Bitmap) -> [IntRect]

    /// The frame just drawn reached the window (headless: it is complete); `blitDuration` is the
    /// seconds spent sending it.
    func framePresented(blitDuration: Double)

    /// The frame buffer is now `width` × `height` pixels and blank: the next frame redraws it all.
    func frameBufferResized(width: Int, height: Int)
}

extension FrameSource {
    public func mediaTime(for frame: DisplayLink.Frame) -> Double { frame.targetTimestamp }
    public func framePresented(blitDuration: Double) {}
    public func frameBufferResized(width: Int, height: Int) {}
}

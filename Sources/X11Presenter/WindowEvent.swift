// WindowEvent: what the window reports to the frame loop.

import Raster

/// Something that happened to the window, in the order the server reported it.
public enum WindowEvent: Equatable, Sendable {
    /// A key went down (again, with ``KeyEvent/isRepeat``, while held).
    case keyDown(KeyEvent)
    /// A key went up.
    case keyUp(KeyEvent)
    /// The pointer moved over the window.
    case pointerMoved(PointerEvent)
    /// A pointer button went down over the window; the window receives the pointer's motion and
    /// the button's release even outside it until the button goes up.
    case pointerDown(PointerEvent)
    /// A pointer button went up.
    case pointerUp(PointerEvent)
    /// The scroll wheel turned.
    case scroll(ScrollEvent)
    /// The pointer came into the window, at this location (window pixels).
    case pointerEntered(Point)
    /// The pointer left the window, at this location (window pixels).
    case pointerExited(Point)
    /// The window received the keyboard focus.
    case focusGained
    /// The window lost the keyboard focus.
    case focusLost
    /// The user asked to close the window (`WM_DELETE_WINDOW`).
    case close
    /// Another client destroyed the window (`XDestroyWindow`, `xdotool windowclose`): nothing
    /// more can be shown in it, and presenting does nothing.
    case destroyed
    /// The window changed size. The next ``X11Window/acquireFrameBuffer()`` returns a new,
    /// blank frame buffer of this size, so the whole frame must be drawn again; until then the
    /// last frame buffer (and its pixels) stays as it was.
    case resize(width: Int, height: Int)
    /// Part of the window was uncovered; the presenter already re-blitted it from the last frame
    /// (unless a resize came first: then the next frame redraws it all).
    case expose(IntRect)
    /// The window was unmapped (iconified, or hidden by a window manager): nothing drawn is seen.
    case hidden
    /// The window is mapped, on screen again.
    case shown
    /// The X server went away (it crashed, was killed, or the connection was interrupted with a
    /// ``ConnectionInterrupter``). The window can show nothing more; close it.
    case connectionLost
    /// A vblank asked for with ``X11Window/requestVblank(atOrAfter:)`` happened (Present's
    /// `CompleteNotify` of kind NotifyMSC, or the completion of a frame presented for that vblank,
    /// reported just before this as ``presented(serial:timing:skipped:)``).
    case vblank(PresentTiming)
    /// A frame presented with ``X11Window/present(damage:atMSC:)`` completed: shown at `timing`'s
    /// vblank, or `skipped` (a newer frame replaced it before its vblank).
    case presented(serial: UInt32, timing: PresentTiming, skipped: Bool)
}

/// When a vblank happened, as the Present extension reports it.
public struct PresentTiming: Equatable, Sendable {
    /// Microseconds of `CLOCK_MONOTONIC` (Present's UST).
    public var ust: UInt64
    /// The vblank counter (Present's MSC).
    public var msc: UInt64

    public init(ust: UInt64, msc: UInt64) {
        self.ust = ust
        self.msc = msc
    }
}

// WindowVblanks: the window's Present vblanks as the display link's VblankSource, and the host's
// record of which present carries which frame.

import DisplayClock
import X11Presenter

/// Passes the link's vblank requests to the window (a frame queued for that vblank answers it,
/// else Present's NotifyMSC). DisplayClock knows
/// nothing of X11 and X11Presenter nothing of the link; this is where they meet.
/// Used on the frame thread only, like the window.
final class WindowVblanks: VblankSource {
    private unowned let window: X11Window

    init(window: X11Window) { self.window = window }

    func requestVblank(atOrAfter msc: Int64) {
        window.requestVblank(atOrAfter: UInt64(max(0, msc)))
    }
}

/// Which frame each outstanding present carries, so a completion can be told to the link. A
/// fixed ring: recording allocates nothing.
struct PresentedFrames {
    private static let capacity = 16
    private var serials = [UInt32](repeating: 0, count: PresentedFrames.capacity)
    private var frames = [Int](repeating: -1, count: PresentedFrames.capacity)
    private var next = 0

    mutating func record(serial: UInt32, frameIndex: Int) {
        serials[next] = serial
        frames[next] = frameIndex
        next = (next + 1) % Self.capacity
    }

    /// The frame index of present `serial`, forgotten once taken.
    mutating func take(serial: UInt32) -> Int? {
        for i in 0..<Self.capacity where serials[i] == serial && frames[i] >= 0 {
            defer { frames[i] = -1 }
            return frames[i]
        }
        return nil
    }
}

// VblankSource: how a display link asks a presenter for vblanks, without knowing the presenter.

/// What ticks a ``DisplayLink``.
public enum TickSource: Sendable, Hashable {
    /// Its own absolute timer, on the refresh grid of ``DisplayLink/refreshRate``.
    case timer
    /// The display's vblanks, reported by a ``VblankSource``.
    case vblank
}

/// Something that can tell a ``DisplayLink`` when the display refreshes: in X11, the Present
/// extension's `PresentNotifyMSC`.
///
/// The protocol has two halves. The link asks with ``requestVblank(atOrAfter:)``; the presenter
/// answers, once the vblank has happened, by calling ``DisplayLink/receiveVblank(_:now:)`` with its
/// time and counter. The link may ask again before the last request was answered (at every tick
/// of the timer that stands in for vblanks that stopped, after a frame that overran): answer
/// every request, as Present's `NotifyMSC` does, not only the newest. When the timer's ticks come
/// before the display's answers, each request is followed by a newer one before its answer
/// arrives, and an answer to an older request is what hands the link back to the vblanks.
public protocol VblankSource: AnyObject {
    /// Asks to be told of vblank `msc`, or of the next one if `msc` has already passed (0: the
    /// next vblank, whatever its number).
    func requestVblank(atOrAfter msc: Int64)
}

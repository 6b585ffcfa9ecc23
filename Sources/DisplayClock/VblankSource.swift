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
/// time and counter. The link keeps at most one request outstanding and asks again after each
/// answer, so a source needs no queue of its own.
public protocol VblankSource: AnyObject {
    /// Asks to be told of vblank `msc`, or of the next one if `msc` has already passed (0: the
    /// next vblank, whatever its number).
    func requestVblank(atOrAfter msc: Int64)
}

// Vblank: one refresh of the display, as a presenter reports it (UST and MSC).

/// One vertical blank of the display: when it happened and which one it was.
///
/// X11's Present extension calls these UST (unadjusted system time, microseconds of
/// `CLOCK_MONOTONIC`) and MSC (media stream counter: vblanks counted by the server). A presenter
/// hands them to ``DisplayLink/receiveVblank(_:now:)`` in seconds, on the link's clock.
public struct Vblank: Sendable, Hashable {
    /// When the vblank happened, in seconds on the link's clock (`CLOCK_MONOTONIC`).
    public var time: Double
    /// The vblank's number: one more for every refresh of the display.
    public var msc: Int64

    /// A vblank at `time` seconds with counter `msc`.
    public init(time: Double, msc: Int64) {
        self.time = time
        self.msc = msc
    }

    /// A vblank as X11 Present reports it: `ust` in microseconds of `CLOCK_MONOTONIC`.
    public init(ustMicroseconds ust: UInt64, msc: UInt64) {
        self.init(time: Double(ust) * 1e-6, msc: Int64(truncatingIfNeeded: msc))
    }
}

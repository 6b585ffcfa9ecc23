// DisplayLink.Frame: what one tick tells its callback.

extension DisplayLink {
    /// One tick of a ``DisplayLink``: the deadline it stands for and how the wake-up went.
    ///
    /// Animate with ``targetTimestamp``, as Apple recommends for `CADisplayLink`: it is when the
    /// frame being drawn will be shown. Every callback of a frame sees the same values.
    public struct Frame: Sendable, Hashable {
        /// The deadline this tick stands for (CADisplayLink's `timestamp`).
        public var timestamp: Double
        /// The next deadline: when the frame drawn now will be shown (CADisplayLink's
        /// `targetTimestamp`). Equal to ``timestamp`` when the link is unthrottled.
        public var targetTimestamp: Double
        /// The frame interval in effect, `targetTimestamp - timestamp` (CADisplayLink's `duration`);
        /// when unthrottled, the time since the previous tick (0 for the first).
        public var duration: Double
        /// The number of frames delivered before this one by this link.
        public var frameIndex: Int
        /// How late the wake-up was: the time the link ran minus ``timestamp``. Always less than
        /// one ``duration`` (a later wake-up skips deadlines and counts them in ``droppedFrames``).
        public var lateness: Double
        /// Deadlines skipped since the previous tick, because the previous frame overran or the
        /// wake-up came more than a frame late. Never counts time spent paused; 0 for the first frame.
        public var droppedFrames: Int
        /// The counter of the vblank this tick stands for, when the link knows it (it ticks on a
        /// ``VblankSource``, or fell back to its timer from one); nil on a plain timer.
        public var msc: Int64?
        /// The counter of the vblank at ``targetTimestamp``: where a presenter should show the frame
        /// drawn now (X11 Present's `target_msc`). Nil when ``msc`` is.
        public var targetMSC: Int64?

        public init(
            timestamp: Double, targetTimestamp: Double, duration: Double,
            frameIndex: Int, lateness: Double, droppedFrames: Int,
            msc: Int64? = nil, targetMSC: Int64? = nil
        ) {
            self.timestamp = timestamp
            self.targetTimestamp = targetTimestamp
            self.duration = duration
            self.frameIndex = frameIndex
            self.lateness = lateness
            self.droppedFrames = droppedFrames
            self.msc = msc
            self.targetMSC = targetMSC
        }

        /// When the link actually ran: ``timestamp`` plus ``lateness``.
        public var wakeTime: Double { timestamp + lateness }
    }
}

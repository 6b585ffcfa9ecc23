// DisplayLink: a CADisplayLink for Linux. Ticks on absolute deadlines and accounts for every drop.

/// Calls its handler once per frame, on deadlines `start + k × period` of a monotonic clock, and
/// says for every frame how late it ran and how many deadlines were dropped before it.
///
/// Modelled on `CADisplayLink`: ``Frame`` carries `timestamp`, `targetTimestamp` and `duration`;
/// ``preferredFramesPerSecond`` and ``preferredFrameRateRange`` choose a whole divisor of the
/// ``refreshRate`` (60 Hz unless told otherwise; 30 fps on 60 Hz ticks every other deadline);
/// ``isPaused`` and ``invalidate()`` behave as there. ``isUnthrottled`` runs as fast as frames
/// can be made, for profiling.
///
/// ## Driving it
/// The link never owns a thread. Either call ``run(until:)``, which sleeps on the ``clock`` between
/// frames, or share one wait with other event sources: block until ``nextDeadline`` (nil while
/// paused, so the wait is on descriptors only) with a ``FrameWaiter``, then call ``service()``,
/// which delivers a frame if one is due.
///
/// ## Deadlines and drops
/// Deadlines are computed, never accumulated, so a million frames later they are still exact.
/// A deadline is due once the clock has reached it (`deadline <= now`).
/// - A wake-up delivers the latest due deadline; due deadlines before it are dropped. Lateness is
///   therefore always under one frame interval.
/// - When the handler returns at or after the deadline its frame was drawn for
///   (``Frame/targetTimestamp``), that frame missed it: every deadline up to the return time is
///   dropped and the link resumes at the first deadline after it, without catch-up ticks. A frame
///   that ran 1.5 intervals drops one deadline; one that ran exactly 1.0 also drops one, because it
///   was not ready before its target.
/// - Drops are reported on the next frame (``Frame/droppedFrames``) and in ``statistics``. The
///   first frame reports none: a caller that starts servicing late (still setting up) gets the
///   latest due deadline without drops.
/// - Pausing never counts as dropping: on resume the link continues at the first deadline not
///   yet past, in phase with the deadlines before the pause.
///
/// ## Stages
/// ``recordStage(_:duration:)`` (or ``measure(_:_:)``) times the parts of a frame; when the next
/// tick reports drops, ``statistics`` blames the stage that made the frame overrun. See
/// ``FrameStatistics``.
///
/// ## Threads
/// A link is confined to the thread that drives it: create it, set its properties, service it and
/// read its statistics from that one thread. It is deliberately not `Sendable`; the values it
/// produces (``Frame``, ``FrameStatistics/Snapshot``) are, so send those instead.
public final class DisplayLink {
    /// What a link calls once per frame.
    public typealias Handler = (Frame) -> Void

    /// Called once per delivered frame. Cleared by ``invalidate()``.
    public var handler: Handler?

    /// Where the link gets its time and how it sleeps in ``run(until:)``.
    public let clock: any MediaClock

    /// Frame counts, rates, percentiles, histogram and drop attribution of this link.
    public let statistics: FrameStatistics

    /// The display's refresh rate in Hz, the grid deadlines sit on. Must be finite and positive.
    /// Changing it keeps the phase of the last delivered frame.
    public var refreshRate: Double {
        didSet {
            precondition(refreshRate.isFinite && refreshRate > 0, "DisplayLink refreshRate must be finite and positive, got \(refreshRate)")
            regrid()
        }
    }

    /// The rates the link may tick at; see ``FrameRateRange``. Default: the refresh rate.
    public var preferredFrameRateRange: FrameRateRange = .default {
        didSet { regrid() }
    }

    /// The preferred rate in frames per second, 0 for the refresh rate, as CADisplayLink. Setting
    /// it sets ``preferredFrameRateRange`` to that single rate; the link then ticks at the nearest
    /// whole divisor of the refresh rate (24 on 60 Hz gives 20).
    public var preferredFramesPerSecond: Int {
        get { Int(preferredFrameRateRange.preferred.rounded()) }
        set { preferredFrameRateRange = newValue > 0 ? FrameRateRange(exactly: Double(newValue)) : .default }
    }

    /// When true, the link ignores deadlines and delivers a frame on every ``service()``, as fast as
    /// frames can be made: ``nextDeadline`` is always already due, frames are stamped with the time
    /// they run, and nothing counts as dropped. For profiling. Default false.
    public var isUnthrottled = false {
        didSet { regrid() }
    }

    /// Whether ticks are suspended. A paused link has no ``nextDeadline`` and costs nothing;
    /// resuming counts no drops and delivers no catch-up frames.
    public var isPaused = false {
        didSet {
            guard isPaused != oldValue, isValid else { return }
            if isPaused {
                statistics.noteDiscontinuity()
                vblank.ledger.noteDiscontinuity()
            } else {
                nextIndex = firstIndex(atOrAfter: clock.now())
                if tickSource == .vblank { vblank.waitingSince = clock.now() }
                armVblankRequest()
            }
        }
    }

    /// False once ``invalidate()`` has been called.
    public private(set) var isValid = true

    /// The most recently delivered frame.
    public private(set) var lastFrame: Frame?

    /// Seconds between deadlines the link delivers: the refresh period times the divisor chosen by
    /// ``preferredFrameRateRange``; 0 when unthrottled.
    public var frameInterval: Double {
        isUnthrottled ? 0 : Double(divisor) * basePeriod
    }

    /// The absolute time (on ``clock``) of the next frame, or nil when the link is paused or
    /// invalid, in which case there is nothing to wait for. Already past when a frame is due.
    public var nextDeadline: Double? {
        guard isValid, !isPaused else { return nil }
        if isUnthrottled { return lastServiceEnd }
        return tickSource == .vblank ? vblankWatchdogDeadline : deadline(nextIndex)
    }

    // Deadline k of the refresh grid is `epoch + k × basePeriod`; the link delivers every
    // `divisor`-th one, counted from `nextIndex`. Ticking on vblanks, index k is vblank
    // `mscBase + k` and the grid is the line fitted to them (see DisplayLink+Vblank.swift).
    var epoch: Double
    var basePeriod: Double
    var divisor = 1
    var nextIndex = 0
    var lastDeliveredIndex: Int?
    /// Drops found when a handler returned late, reported with the next frame.
    var pendingDrops = 0
    /// When the last handler returned (unthrottled: the next frame is due from then).
    var lastServiceEnd: Double
    var framesDelivered = 0
    var isDelivering = false

    // Vblank ticking: see DisplayLink+Vblank.swift.
    var vblank = VblankState()

    /// A link ticking at `refreshRate` Hz on `clock`, with its first deadline at `start` (default,
    /// or when `start` is not finite: the clock's current time, so the first frame is due at once).
    /// `historyCapacity` is the number of recent frames ``statistics`` keeps (at least 120).
    public init(
        refreshRate: Double = 60,
        clock: any MediaClock = MonotonicClock(),
        start: Double? = nil,
        historyCapacity: Int = FrameStatistics.defaultHistoryCapacity,
        handler: Handler? = nil
    ) {
        precondition(refreshRate.isFinite && refreshRate > 0, "DisplayLink refreshRate must be finite and positive, got \(refreshRate)")
        self.refreshRate = refreshRate
        self.clock = clock
        self.handler = handler
        statistics = FrameStatistics(historyCapacity: historyCapacity)
        basePeriod = 1 / refreshRate
        epoch = start.flatMap { $0.isFinite ? $0 : nil } ?? clock.now()
        lastServiceEnd = epoch
    }

    /// Stops the link for good: no more frames, ``nextDeadline`` is nil, and the handler (with
    /// whatever it captured) is released. Statistics stay readable.
    public func invalidate() {
        isValid = false
        handler = nil
    }

    /// Delivers a frame if one is due at the clock's current time. Returns whether it did.
    @discardableResult
    public func service() -> Bool {
        service(now: clock.now())
    }

    /// Delivers a frame if one is due at `now` (the time the caller woke up, on ``clock``): the
    /// latest due deadline, counting the due deadlines before it as dropped. Returns whether it
    /// delivered. Calls from inside the handler are ignored.
    @discardableResult
    public func service(now: Double) -> Bool {
        guard isValid, !isPaused, !isDelivering, now.isFinite else { return false }
        let frame: Frame
        if isUnthrottled {
            frame = Frame(
                timestamp: now, targetTimestamp: now,
                duration: lastFrame.map { max(0, now - $0.wakeTime) } ?? 0,
                frameIndex: framesDelivered, lateness: 0, droppedFrames: 0
            )
        } else {
            if tickSource == .vblank {
                // Ticking on vblanks, the timer is only the watchdog: it fires when they stop.
                guard now >= vblankWatchdogDeadline else { return false }
                fallBackToTimer(now: now)
            }
            guard deadline(nextIndex) <= now else { return false }
            reanchorIfFarBehind(now)
            let index = lastIndex(atOrBefore: now, from: nextIndex)
            frame = Frame(
                timestamp: deadline(index),
                targetTimestamp: deadline(index + divisor),
                duration: frameInterval,
                frameIndex: framesDelivered,
                lateness: now - deadline(index),
                // Before the first frame there was no tick to drop, however late the caller is.
                droppedFrames: lastFrame == nil ? 0 : pendingDrops + (index - nextIndex) / divisor,
                msc: vblankCounter(ofIndex: index),
                targetMSC: vblankCounter(ofIndex: index + divisor)
            )
            pendingDrops = 0
            lastDeliveredIndex = index
            nextIndex = index + divisor
        }
        deliver(frame, wakeTime: now)
        return true
    }

    /// Records how long `stage` took in the current frame (added up if recorded more than once).
    /// Call it between one tick and the next; see ``FrameStatistics`` for how drops are blamed.
    public func recordStage(_ stage: FrameStage, duration: Double) {
        statistics.recordStage(stage, duration: duration)
    }

    /// Runs `body`, recording the time it took on ``clock`` as `stage` of the current frame.
    public func measure<Result>(_ stage: FrameStage, _ body: () throws -> Result) rethrows -> Result {
        let start = clock.now()
        defer { recordStage(stage, duration: clock.now() - start) }
        return try body()
    }

    func deliver(_ frame: Frame, wakeTime: Double) {
        // On vblanks a frame is seen at its vblank: intervals are between those, not wake-ups.
        statistics.record(frame, wakeTime: wakeTime, intervalTime: tickSource == .vblank ? frame.timestamp : wakeTime)
        vblank.ledger.noteDelivered(frame)
        lastFrame = frame
        framesDelivered += 1

        isDelivering = true
        handler?(frame)
        isDelivering = false

        let end = clock.now()
        lastServiceEnd = end
        guard isValid, !isPaused, !isUnthrottled else { return }
        // The frame just drawn is shown at deadline(nextIndex); returning at or after it missed it.
        if deadline(nextIndex) <= end {
            let missed = lastIndex(atOrBefore: end, from: nextIndex)
            pendingDrops += (missed - nextIndex) / divisor + 1
            nextIndex = missed + divisor
        }
        armVblankRequest()
    }

    // MARK: Deadline grid

    func deadline(_ index: Int) -> Double {
        epoch + Double(index) * basePeriod
    }

    /// The last delivery index from `start` on (in steps of the divisor) whose deadline is at or
    /// before `time`; requires `deadline(start) <= time`.
    func lastIndex(atOrBefore time: Double, from start: Int) -> Int {
        let step = Double(divisor) * basePeriod
        var index = start + Int(((time - deadline(start)) / step).rounded(.down)) * divisor
        // The division can be off by one ulp either way; settle on the exact comparison.
        while deadline(index + divisor) <= time { index += divisor }
        while index > start && deadline(index) > time { index -= divisor }
        return index
    }

    /// The first delivery index after the last delivered frame, in phase with it, whose deadline
    /// is at or after `time`: a deadline exactly at `time` is still due, not missed.
    func firstIndex(atOrAfter time: Double) -> Int {
        reanchorIfFarBehind(time)
        let start = lastDeliveredIndex.map { $0 + divisor } ?? nextIndex
        guard deadline(start) < time else { return start }
        let index = lastIndex(atOrBefore: time, from: start)
        return deadline(index) >= time ? index : index + divisor
    }

    /// Recomputes the grid after the rate or mode changed: deadlines continue from the last
    /// delivered one (so the phase is kept), at the new interval, from the first not yet past.
    /// Before the first frame the start stays the first deadline.
    func regrid() {
        basePeriod = vblankPeriod ?? 1 / refreshRate
        divisor = preferredFrameRateRange.divisor(forRefreshRate: refreshRate)
        guard let lastFrame else { return }
        // On vblanks the next tick keeps its counter: moving it by time would skip vblanks
        // without counting them.
        let vblankOffset = tickSource == .vblank && vblank.mscBase != nil ? lastDeliveredIndex.map { nextIndex - $0 } : nil
        // Index 0 becomes the last delivered frame, so its vblank becomes the counters' base.
        rebaseVblankCounter(onto: lastDeliveredIndex)
        epoch = lastFrame.timestamp
        lastDeliveredIndex = 0
        nextIndex = divisor
        if isUnthrottled { return }
        if let vblankOffset {
            nextIndex = max(divisor, vblankOffset)
            return
        }
        nextIndex = firstIndex(atOrAfter: clock.now())
    }

    /// Restarts the grid at `time` when it is so far ahead of the last deadline (centuries, or
    /// a test's absurd jump) that indices would overflow.
    private func reanchorIfFarBehind(_ time: Double) {
        let reference = lastDeliveredIndex.map(deadline) ?? deadline(nextIndex)
        guard (time - reference) / basePeriod > 1e12 else { return }
        vblank.mscBase = nil
        epoch = time
        lastDeliveredIndex = nil
        nextIndex = 0
    }
}

// DisplayLink+Vblank: ticking on the display's vblanks, with the timer as the watchdog's fallback.

/// What a link keeps while it ticks on a ``VblankSource``.
struct VblankState {
    var source: (any VblankSource)?
    var tickSource = TickSource.timer
    var fit = RefreshFit()
    /// The counter of grid index 0; nil until the first vblank (or after the grid was restarted).
    var mscBase: Int64?
    /// The vblank last asked for, so the same one is not asked for twice.
    var requested: Int64?
    /// When the link started waiting for a first vblank (attached, resumed, or fell back).
    var waitingSince = 0.0
    var ledger = PresentationLedger()
    var onTickSourceChange: ((TickSource) -> Void)?
}

extension DisplayLink {
    /// What ticks the link now: ``TickSource/vblank`` while a ``VblankSource`` reports vblanks,
    /// ``TickSource/timer`` otherwise (no source, or the source's vblanks stopped).
    public var tickSource: TickSource { vblank.tickSource }

    /// The refresh rate fitted to the reported vblanks (least squares over the last
    /// ``RefreshFit/capacity``), nil before two of them.
    public var fittedRefreshRate: Double? { vblank.fit.rate }

    /// The fit of the reported vblanks.
    public var refreshFit: RefreshFit { vblank.fit }

    /// Called when ``tickSource`` changes: the vblanks stopped and the timer took over, or they
    /// came back. A player says so; the link never prints.
    public var onTickSourceChange: ((TickSource) -> Void)? {
        get { vblank.onTickSourceChange }
        set { vblank.onTickSourceChange = newValue }
    }

    /// Ticks the link on `source`'s vblanks from now on.
    ///
    /// The link asks `source` for the vblank of its next tick (every ``frameInterval``: 30 fps on
    /// 60 Hz asks for every second vblank) and ticks when the source answers with
    /// ``receiveVblank(_:now:)``. Frames are stamped with the vblank times of the fitted line, so
    /// intervals are whole refresh periods; ``refreshRate`` follows the fitted rate, and
    /// ``preferredFrameRateRange`` chooses among divisors of it.
    ///
    /// The timer stays as a watchdog: when no vblank has come 0.9 frame intervals after the one
    /// expected (1.9 refresh periods for the first; 95 ms, a 20 Hz display's two periods, until
    /// six vblanks have settled the fit), ``tickSource`` becomes ``TickSource/timer``
    /// and the link ticks on its grid, at the fitted rate and phase, until vblanks come back.
    /// Unthrottled links ignore vblanks.
    public func tickOnVblanks(from source: any VblankSource) {
        vblank.source = source
        vblank.requested = nil
        vblank.mscBase = nil
        vblank.waitingSince = clock.now()
        // Not a change to report: the caller chose it.
        vblank.tickSource = .vblank
        armVblankRequest()
    }

    /// Stops asking for vblanks: the link ticks on its timer, at ``refreshRate``.
    public func tickOnTimer() {
        vblank.source = nil
        vblank.requested = nil
        vblank.mscBase = nil
        setTickSource(.timer)
        regrid()
    }

    /// Reports a vblank, at the clock's current time; delivers a frame if it is due.
    @discardableResult
    public func receiveVblank(_ reported: Vblank) -> Bool {
        receiveVblank(reported, now: clock.now())
    }

    /// Reports a vblank that the caller learned of at `now` (on ``clock``), and delivers a frame if
    /// one is due: the vblank of the next tick or a later one. Returns whether it delivered.
    ///
    /// A vblank reported more than a frame late (the answer waited while a long frame was drawn)
    /// delivers the latest due tick of the grid and counts the ones before it as dropped, as a late
    /// timer wake-up does. If the link had fallen back to its timer, it ticks on vblanks again.
    @discardableResult
    public func receiveVblank(_ reported: Vblank, now: Double) -> Bool {
        guard isValid, !isDelivering, vblank.source != nil, !isUnthrottled, reported.time.isFinite, now.isFinite else { return false }
        // The answer to "the next vblank, whatever its number" may be stamped with the time it
        // was sent rather than the vblank's: it places the counter but stays out of the fit.
        let isFirstAnswer = vblank.requested == 0
        if vblank.requested.map({ reported.msc >= $0 }) ?? false { vblank.requested = nil }
        if !isFirstAnswer { vblank.fit.add(reported) }
        if vblank.tickSource == .timer || vblank.mscBase == nil {
            anchor(on: reported)
            setTickSource(.vblank)
        } else {
            follow(reported)
        }
        guard !isPaused, let base = vblank.mscBase else { return false }
        let index = Int(clamping: reported.msc - base)
        guard index >= nextIndex else {
            armVblankRequest()
            return false
        }
        // The latest tick of the grid, in phase with the next one, that is due by the counter or,
        // for an answer read late, by the clock.
        var due = nextIndex + (index - nextIndex) / divisor * divisor
        if deadline(due + divisor) <= now { due = lastIndex(atOrBefore: now, from: due) }
        let frame = Frame(
            timestamp: deadline(due),
            targetTimestamp: deadline(due + divisor),
            duration: frameInterval,
            frameIndex: framesDelivered,
            lateness: max(0, now - deadline(due)),
            droppedFrames: lastFrame == nil ? 0 : pendingDrops + (due - nextIndex) / divisor,
            msc: base + Int64(due),
            targetMSC: base + Int64(due + divisor)
        )
        pendingDrops = 0
        lastDeliveredIndex = due
        nextIndex = due + divisor
        deliver(frame, wakeTime: now)
        adoptFittedRate()
        return true
    }

    /// Reports what the display did with the frame of tick `frameIndex`: shown at vblank `msc`,
    /// or skipped (`msc` nil: a newer frame replaced it before it was shown).
    ///
    /// The display is the truth about drops: vblanks between consecutive shown frames beyond one
    /// frame interval are the drops a viewer saw. ``statistics`` is corrected to that count, once
    /// per drop: a frame shown later than its target adds drops (blamed on the longest stage of
    /// the frame just finished if it took more than half its interval, else unattributed), and
    /// they are taken back when the link counts the same missed vblanks itself. Report frames as
    /// the display reports them: an older frame reported after a newer one (shown over it) counts
    /// as a frame never seen. Counting restarts after a pause. See ``PresentationLedger``.
    public func presentationCompleted(frameIndex: Int, msc: Int64?) {
        let change = vblank.ledger.complete(frameIndex: frameIndex, shownAt: msc, divisor: divisor)
        if change != 0 { statistics.correctDrops(by: change) }
    }

    /// The drops the display showed beyond those the link counted itself (negative: fewer), as
    /// ``presentationCompleted(frameIndex:msc:)`` corrected them since the last discontinuity.
    public var dropsFoundByDisplay: Int { vblank.ledger.applied }

    // MARK: Internals

    /// The refresh period fitted to the vblanks, when ticking on them.
    var vblankPeriod: Double? {
        vblank.source == nil ? nil : settledPeriod
    }

    /// The fitted period once enough vblanks back it: a fit of two or three millisecond-stamped
    /// vblanks can be several percent off, and grid times decide how many vblanks a slow frame
    /// missed.
    private var settledPeriod: Double? {
        vblank.fit.count >= Self.settledFitCount ? vblank.fit.period : nil
    }

    static let settledFitCount = 6

    /// When the watchdog gives up on vblanks.
    var vblankWatchdogDeadline: Double {
        // Until the fit settles, the refresh may be slower than the link guessed (a 30 Hz
        // display, a link made for 60): wait as long as a 20 Hz display would need.
        let settled = settledPeriod != nil
        let first = vblank.waitingSince + max(1.9 * basePeriod, settled ? 0 : 0.095)
        guard vblank.mscBase != nil else { return first }
        return max(first, deadline(nextIndex) + max(0.9 * max(frameInterval, basePeriod), settled ? 0 : 0.095))
    }

    func vblankCounter(ofIndex index: Int) -> Int64? {
        vblank.source == nil ? nil : vblank.mscBase.map { $0 + Int64(index) }
    }

    /// Asks the source for the vblank of the next tick, unless that request is out already.
    func armVblankRequest() {
        guard let source = vblank.source, isValid, !isPaused, !isUnthrottled else { return }
        let wanted: Int64 = vblank.mscBase.map { $0 + Int64(nextIndex) } ?? 0
        guard vblank.requested != wanted || vblank.tickSource == .timer && wanted == 0 else { return }
        vblank.requested = wanted
        source.requestVblank(atOrAfter: wanted)
    }

    /// After a regrid makes grid index `index` the new index 0, moves the counters' base with it.
    func rebaseVblankCounter(onto index: Int?) {
        guard let base = vblank.mscBase else { return }
        vblank.mscBase = index.map { base + Int64($0) }
    }

    func fallBackToTimer(now: Double) {
        vblank.requested = nil
        setTickSource(.timer)
        // Frames keep their vblank counters on the timer's grid, so the display's word on them
        // still reconciles: the ledger goes on.
        statistics.noteDiscontinuity()
    }

    private func setTickSource(_ source: TickSource) {
        guard vblank.tickSource != source else { return }
        vblank.tickSource = source
        if source == .timer { vblank.waitingSince = clock.now() }
        vblank.onTickSourceChange?(source)
    }

    /// Starts the grid at `reported`'s vblank: it is index 0 and due now. Used for the first vblank and
    /// when vblanks come back after the timer stood in.
    private func anchor(on reported: Vblank) {
        if vblank.tickSource == .timer { statistics.noteDiscontinuity() }
        vblank.mscBase = reported.msc
        basePeriod = settledPeriod ?? 1 / refreshRate
        // Once the fit has settled, on its line, where follow() keeps the grid: a stamp can be
        // far off it (a server may stamp an answer it sends late with the time it sends it).
        // Laid on that stamp, the grid jumped by a fraction of a period, and a timer standing in
        // again before the next vblank ticked off the line. Only for a counter the fit holds: an
        // answer kept out of it may count on another display.
        if settledPeriod != nil, vblank.fit.newest?.msc == reported.msc,
           let onLine = vblank.fit.time(ofMSC: reported.msc, fallbackPeriod: basePeriod) {
            epoch = onLine
        } else {
            epoch = reported.time
        }
        lastDeliveredIndex = nil
        // Counters never go back: a vblank reported late, after the timer ticked past it, does
        // not tick; the next tick is the vblank the last frame was drawn for.
        let lastTarget = lastFrame?.targetMSC ?? reported.msc
        nextIndex = Int(clamping: max(0, lastTarget - reported.msc))
    }

    /// Lays the grid on the fitted line (same counters, new period and phase).
    private func follow(_ reported: Vblank) {
        guard let base = vblank.mscBase else { return }
        guard let period = settledPeriod, let start = vblank.fit.time(ofMSC: base, fallbackPeriod: basePeriod) else {
            // Not settled: the nominal period, in phase with the newest vblank.
            epoch = reported.time - Double(reported.msc - base) * basePeriod
            return
        }
        basePeriod = period
        epoch = start
    }

    /// Makes ``refreshRate`` the fitted rate once the fit has settled and differs by more than
    /// 0.02 %, so frame-rate ranges choose among divisors of the real refresh.
    private func adoptFittedRate() {
        guard vblank.fit.count >= 8, let rate = vblank.fit.rate, abs(rate - refreshRate) > 2e-4 * refreshRate else { return }
        refreshRate = rate
    }
}

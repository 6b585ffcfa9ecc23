// PlayerClock: what paces the windowed player's frames, in the words of the overlay, the summary
// line and --stats.

import DisplayClock

/// Which source ticks the player and why, with the rate taken from its display link.
struct PlayerClock {
    enum Source: String {
        /// Present's vblanks (a frame's completion, else NotifyMSC), frames shown with PresentPixmap.
        case present
        /// The link's own timer: no Present, `--vsync timer` or `--fps max`.
        case timer
    }

    /// Where the refresh rate comes from: vblanks fitted, XRandR, or the 60 Hz default.
    enum RateSource: String {
        case present, xrandr, `default`
    }

    /// What paces the run. A run paced by Present stays a Present run while the timer stands in
    /// for vblanks that stopped for a moment (``isStandingIn``, counted in ``fallbacks``).
    var source: Source
    /// Why the timer runs, as the label says it ("no Present", "--vsync timer").
    var reason: StaticString?
    /// The timer is standing in right now for vblanks that stopped; the overlay says so.
    var isStandingIn = false
    /// The rate XRandR gave (or the default) before any vblank.
    var displayRateSource: RateSource
    /// How many times the timer stood in for vblanks that stopped.
    var fallbacks = 0

    /// The refresh rate and where it came from, as the link knows it now. The fit outlives a
    /// stand-in: the display's refresh did not change because its vblanks were late.
    func refresh(of link: DisplayLink) -> (rate: Double, source: RateSource) {
        if source == .present, let fitted = link.fittedRefreshRate { return (fitted, .present) }
        return (link.refreshRate, displayRateSource)
    }

    /// Writes the label (`vsync present 144.0 Hz`, `timer 60 Hz (no Present)`, `timer max
    /// (unthrottled)`) into `line`, without allocating. `live` labels this moment, for the
    /// overlay: `timer 60 Hz (vblanks stopped)` while the timer stands in; otherwise the run.
    func write(into line: inout ASCIILine, link: DisplayLink, live: Bool = true) {
        let rate = refresh(of: link).rate
        switch source {
        case .present where live && isStandingIn:
            line.append("timer ")
            line.append(fixed: rate, digits: 1)
            line.append(" Hz (vblanks stopped)")
        case .present:
            line.append("vsync present ")
            line.append(fixed: rate, digits: 1)
            line.append(" Hz")
        case .timer where link.isUnthrottled:
            line.append("timer max (unthrottled)")
        case .timer:
            line.append("timer ")
            if abs(rate - rate.rounded()) < 0.05 { line.append(Int(rate.rounded())) } else { line.append(fixed: rate, digits: 1) }
            line.append(" Hz")
            if let reason {
                line.append(" (")
                line.append(reason)
                line.append(")")
            }
        }
    }

    /// The label as a string, for the summary line (with the timer's stand-ins, if any).
    func label(link: DisplayLink) -> String {
        var line = ASCIILine()
        write(into: &line, link: link, live: false)
        let text = String(decoding: line.bytes, as: UTF8.self)
        return fallbacks > 0 && source == .present ? text + " (timer stood in \(fallbacks)x)" : text
    }

    /// The `"clock"` object of `--stats`.
    func json(link: DisplayLink) -> String {
        let (rate, rateSource) = refresh(of: link)
        return "{\"source\": \"\(source.rawValue)\", \"refreshRate\": \(rate), \"refreshRateSource\": \"\(rateSource.rawValue)\", \"timerFallbacks\": \(fallbacks)}"
    }
}

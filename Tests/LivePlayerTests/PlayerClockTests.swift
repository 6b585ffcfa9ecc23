import DisplayClock
import Testing
@testable import live_player

/// What the overlay, the summary line and `--stats` say about the run's pacing.
@Suite struct PlayerClockTests {
    func live(_ clock: PlayerClock, _ link: DisplayLink) -> String {
        var line = ASCIILine()
        clock.write(into: &line, link: link)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// A Present run whose vblanks stopped for a moment (a loaded machine) stays a Present run in
    /// the summary and the JSON, with the stand-ins counted; only the overlay says what ticks now.
    /// Before, the run's source became "timer" and its rate the 60 Hz default for good.
    @Test func aTimerStandInLeavesTheRunAPresentRun() {
        let link = DisplayLink(refreshRate: 144, clock: VirtualClock(now: 0), start: 0)
        var clock = PlayerClock(source: .present, reason: nil, displayRateSource: .default)
        clock.isStandingIn = true
        clock.fallbacks = 2
        #expect(live(clock, link) == "timer 144.0 Hz (vblanks stopped)")
        #expect(clock.label(link: link) == "vsync present 144.0 Hz (timer stood in 2x)")
        #expect(clock.json(link: link).hasPrefix("{\"source\": \"present\""))
        #expect(clock.json(link: link).hasSuffix("\"timerFallbacks\": 2}"))

        clock.isStandingIn = false
        #expect(live(clock, link) == "vsync present 144.0 Hz")
    }

    @Test func aTimerRunSaysWhy() {
        let link = DisplayLink(refreshRate: 60, clock: VirtualClock(now: 0), start: 0)
        let clock = PlayerClock(source: .timer, reason: "no Present", displayRateSource: .default)
        #expect(live(clock, link) == "timer 60 Hz (no Present)")
        #expect(clock.label(link: link) == "timer 60 Hz (no Present)")
        #expect(clock.json(link: link) == "{\"source\": \"timer\", \"refreshRate\": 60.0, \"refreshRateSource\": \"default\", \"timerFallbacks\": 0}")
    }
}

import DisplayClock

/// A display on a virtual clock: vblank `n` happens at `n × period` (plus a fixed jitter pattern,
/// as Xvfb's millisecond timer gives), and answers each of a link's requests, in order, as
/// Present's NotifyMSC does: at the requested vblank, or at once with the current one if it has
/// passed.
final class FakeDisplay: VblankSource {
    let period: Double
    /// Added to the stamp of vblank `n`: `jitter[n % jitter.count]`.
    var jitter: [Double] = [0]
    /// How long after its vblank an answer reaches the link (a busy server sends it late).
    var latency = 0.0
    /// Vblanks from this counter on are never reported (the server stopped answering).
    var stopsAt: Int64 = .max
    private(set) var requests: [Int64] = []
    /// The requests not answered yet, oldest first.
    private var outstanding: [Int64] = []

    init(rate: Double) { period = 1 / rate }

    func requestVblank(atOrAfter msc: Int64) {
        requests.append(msc)
        outstanding.append(msc)
    }

    func time(of msc: Int64) -> Double { Double(msc) * period + jitter[Int(msc % Int64(jitter.count))] }

    /// The vblank that answers the oldest outstanding request, if it is sent at or after `now`.
    func answer(after now: Double) -> Vblank? {
        guard let oldest = outstanding.first else { return nil }
        let current = Int64((now / period).rounded(.down))
        let msc = max(oldest, current)
        guard msc < stopsAt else { return nil }
        return Vblank(time: time(of: msc), msc: msc)
    }

    func answered() { outstanding.removeFirst() }
}

/// Drives a link from a `FakeDisplay` and its own watchdog timer, as the player's loop does.
final class VblankHarness {
    let clock: VirtualClock
    let link: DisplayLink
    let display: FakeDisplay
    private(set) var frames: [DisplayLink.Frame] = []
    private(set) var sourceChanges: [(TickSource, Double)] = []
    var onFrame: (DisplayLink.Frame) -> Void = { _ in }

    init(displayRate: Double, linkRate: Double = 60, start: Double = 10) {
        clock = VirtualClock(now: start)
        display = FakeDisplay(rate: displayRate)
        link = DisplayLink(refreshRate: linkRate, clock: clock)
        link.handler = { [unowned self] frame in
            frames.append(frame)
            onFrame(frame)
        }
        link.onTickSourceChange = { [unowned self] source in sourceChanges.append((source, clock.now())) }
        link.tickOnVblanks(from: display)
    }

    /// Runs until the clock reaches `end`: each step is the earlier of the display's answer and
    /// the link's deadline.
    func run(until end: Double) {
        while clock.now() < end {
            let answer = display.answer(after: clock.now())
            let answerTime = answer.map { max($0.time + display.latency, clock.now()) }
            let deadline = link.nextDeadline
            if let answer, let answerTime, answerTime <= (deadline ?? .infinity), answerTime <= end {
                clock.advance(to: answerTime)
                display.answered()
                link.receiveVblank(answer)
            } else if let deadline, deadline <= end {
                clock.advance(to: deadline)
                link.service()
            } else {
                clock.advance(to: end)
            }
        }
    }
}

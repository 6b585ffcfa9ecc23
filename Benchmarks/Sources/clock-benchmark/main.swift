// clock-benchmark: DisplayLink wake-up lateness against the timers a Swift programmer would use (issue 2).
//
// One run measures each source for `--ticks` ticks at `--hz` (in turns of ticks/rounds): how late each wake-up came
// after its deadline (wake time − deadline, both on CLOCK_MONOTONIC) and how many deadlines passed
// without a tick. Sources:
//   link-waiter     DisplayLink driven by FrameWaiter (timerfd + poll), the player's loop
//   link-waiter-rt  the same on a SCHED_FIFO thread (RealtimeScheduling; skipped without the privilege)
//   link-sleep      DisplayLink.run(until:): clock_nanosleep(TIMER_ABSTIME), timer slack lowered to 1 ns
//   link-sleep50    the same with the kernel's default 50 µs timer slack: the plain C clock_nanosleep loop
//   dispatch        DispatchSourceTimer, leeway 0, on a serial queue
//   timer           Foundation Timer on the main RunLoop
import Dispatch
import DisplayClock
import Foundation
import Synchronization

struct Options {
    var ticks = 600
    var hz = 60.0
    static let allSources = ["link-waiter", "link-waiter-rt", "link-sleep", "link-sleep50", "dispatch", "timer"]
    var sources = allSources
    var rounds = 10
    var label = ""

    static let usage = """
        usage: clock-benchmark [--ticks N] [--hz RATE] [--rounds R] [--sources a,b,...] [--label TEXT]
          --rounds: the sources take turns, ticks/R at a time, so all see the same load (default 10)
          sources: link-waiter, link-waiter-rt, link-sleep, link-sleep50, dispatch, timer
                   (default: all, in that order)
        """

    init(arguments: [String]) throws(BenchmarkError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            switch flag {
            case "--ticks":
                guard let n = Int(value), n >= 2, n <= 1_000_000 else { throw .usage("--ticks must be 2...1000000") }
                ticks = n
            case "--hz":
                guard let rate = Double(value), rate.isFinite, rate >= 1, rate <= 1000 else { throw .usage("--hz must be 1...1000") }
                hz = rate
            case "--sources":
                let names = value.split(separator: ",").map(String.init)
                let unknown = names.filter { !Options.allSources.contains($0) }
                guard unknown.isEmpty, !names.isEmpty else { throw .usage("unknown source: \(unknown.joined(separator: ","))") }
                sources = names
            case "--rounds":
                guard let n = Int(value), n >= 1, n <= 1000 else { throw .usage("--rounds must be 1...1000") }
                rounds = n
            case "--label":
                label = value
            default:
                throw .usage("unknown option \(flag)")
            }
        }
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self { case .usage(let message): "clock-benchmark: \(message)\n\(Options.usage)" }
    }
}

/// The lateness of each tick and the deadlines that passed without one.
struct Measurement {
    var latenesses: [Double] = []
    var dropped = 0

    /// Nearest-rank percentile of the latenesses, in microseconds.
    func percentile(_ permille: Int) -> Double {
        let sorted = latenesses.sorted()
        let rank = max(1, (permille * sorted.count + 999) / 1000)
        return sorted[rank - 1] * 1e6
    }
}

/// Ticks recorded from a timer callback on another thread. The lock is uncontended: the
/// benchmark only reads after the timer has stopped.
final class TickLog: Sendable {
    private let state = Mutex(Measurement())
    private let start: Double
    private let period: Double
    private let lastIndex = Mutex(-1)

    init(start: Double, period: Double, capacity: Int) {
        self.start = start
        self.period = period
        state.withLock { $0.latenesses.reserveCapacity(capacity) }
    }

    /// Records a wake-up at `now`: its deadline is the latest grid instant at or before it (a tick a
    /// quarter period early would count as negative lateness), and grid instants skipped since
    /// the previous tick are drops. Returns the number of ticks so far.
    func record(now: Double) -> Int {
        let index = Int(((now - start) / period + 0.25).rounded(.down))
        let previous = lastIndex.withLock { last in
            defer { last = index }
            return last
        }
        return state.withLock { measurement in
            measurement.latenesses.append(now - (start + Double(index) * period))
            if previous >= 0 { measurement.dropped += max(0, index - previous - 1) }
            return measurement.latenesses.count
        }
    }

    var measurement: Measurement { state.withLock { $0 } }
}

func measureDisplayLink(ticks: Int, hz: Double, clock: MonotonicClock = MonotonicClock(), waiter: FrameWaiter?) throws -> Measurement {
    var result = Measurement()
    result.latenesses.reserveCapacity(ticks)
    let link = DisplayLink(refreshRate: hz, clock: clock, start: CACurrentMediaTime() + 1 / hz)
    link.handler = { frame in
        result.latenesses.append(frame.lateness)
        result.dropped += frame.droppedFrames
        if result.latenesses.count == ticks { link.invalidate() }
    }
    if let waiter {
        while let deadline = link.nextDeadline {
            try waiter.wait(until: deadline)
            link.service()
        }
    } else {
        link.run(until: .infinity)
    }
    return result
}

func measureDispatch(ticks: Int, hz: Double) -> Measurement {
    let periodNanoseconds = UInt64((1e9 / hz).rounded())
    let startNanoseconds = DispatchTime.now().uptimeNanoseconds + periodNanoseconds
    let log = TickLog(start: Double(startNanoseconds) / 1e9, period: Double(periodNanoseconds) / 1e9, capacity: ticks)
    let done = DispatchSemaphore(value: 0)
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "clock-benchmark.dispatch"))
    timer.schedule(
        deadline: DispatchTime(uptimeNanoseconds: startNanoseconds),
        repeating: .nanoseconds(Int(periodNanoseconds)),
        leeway: .nanoseconds(0)
    )
    timer.setEventHandler {
        if log.record(now: CACurrentMediaTime()) == ticks {
            timer.cancel()
            done.signal()
        }
    }
    timer.resume()
    done.wait()
    return log.measurement
}

func measureFoundationTimer(ticks: Int, hz: Double) -> Measurement {
    let period = 1 / hz
    let start = CACurrentMediaTime() + period
    let log = TickLog(start: start, period: period, capacity: ticks)
    let finished = Mutex(false)
    let timer = Timer(fire: Date(timeIntervalSinceNow: period), interval: period, repeats: true) { timer in
        if log.record(now: CACurrentMediaTime()) == ticks {
            timer.invalidate()
            finished.withLock { $0 = true }
        }
    }
    RunLoop.current.add(timer, forMode: .default)
    // Timers do not end `run(mode:before:)` early, so run to a time just past the last tick,
    // with a margin for ticks that come late.
    let end = Date(timeIntervalSinceNow: Double(ticks + 1) * period + 2)
    while !finished.withLock({ $0 }) && Date() < end {
        _ = RunLoop.current.run(mode: .default, before: end)
    }
    timer.invalidate()
    return log.measurement
}

/// The first three fields of /proc/loadavg, to show how busy the machine was.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// One source's display name, and one burst of `ticks` ticks from it.
func source(_ source: String, defaultSlack: Int?) -> (name: String, measure: (Int, Double) throws -> Measurement?) {
    switch source {
    case "link-waiter":
        return ("DisplayLink + FrameWaiter (timerfd + poll)", { try measureDisplayLink(ticks: $0, hz: $1, waiter: FrameWaiter()) })
    case "link-waiter-rt":
        return ("DisplayLink + FrameWaiter, SCHED_FIFO thread", { ticks, hz in
            guard RealtimeScheduling.request() else { return nil }
            defer { RealtimeScheduling.restoreNormal() }
            return try measureDisplayLink(ticks: ticks, hz: hz, waiter: FrameWaiter())
        })
    case "link-sleep":
        return ("DisplayLink.run (clock_nanosleep abs, slack 1 ns)", { try measureDisplayLink(ticks: $0, hz: $1, waiter: nil) })
    case "link-sleep50":
        let slack = defaultSlack.map { "\($0 / 1000) µs" } ?? "default"
        return ("DisplayLink.run (clock_nanosleep abs, slack \(slack)) = the C loop", {
            try measureDisplayLink(ticks: $0, hz: $1, clock: MonotonicClock(timerSlack: nil), waiter: nil)
        })
    case "dispatch":
        return ("DispatchSourceTimer (leeway 0)", { measureDispatch(ticks: $0, hz: $1) })
    default:
        return ("Foundation Timer (RunLoop)", { measureFoundationTimer(ticks: $0, hz: $1) })
    }
}

func run() throws {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let defaultSlack = TimerSlack.current
    let title = options.label.isEmpty ? "" : " (\(options.label))"
    let rounds = min(options.rounds, options.ticks)
    print("clock-benchmark\(title): \(options.ticks) ticks at \(options.hz) Hz per source, interleaved in \(rounds) rounds;"
        + " lateness = wake time - deadline on CLOCK_MONOTONIC")
    print("main-thread timer slack before the run: \(defaultSlack.map { "\($0) ns" } ?? "unknown"); load average: \(loadAverage())")

    // Sources take turns in short bursts, so that all of them see the same background load.
    let sources = options.sources.map { source($0, defaultSlack: defaultSlack) }
    var results = Array(repeating: Measurement(), count: sources.count)
    var permitted = Array(repeating: true, count: sources.count)
    for round in 0..<rounds {
        let ticks = options.ticks / rounds + (round < options.ticks % rounds ? 1 : 0)
        for (index, source) in sources.enumerated() where permitted[index] {
            // Every source starts from the thread's original slack.
            if let defaultSlack { TimerSlack.set(nanoseconds: defaultSlack) }
            guard let burst = try source.measure(ticks, options.hz) else {
                permitted[index] = false
                continue
            }
            results[index].latenesses += burst.latenesses
            results[index].dropped += burst.dropped
        }
    }
    print("load average after: \(loadAverage())")
    print("")
    print("| source | median µs | p99 µs | max µs | dropped |")
    print("|---|---:|---:|---:|---:|")
    for (index, source) in sources.enumerated() {
        guard permitted[index] else {
            print("| \(source.name) | not permitted | | | |")
            continue
        }
        let row = [results[index].percentile(500), results[index].percentile(990), results[index].percentile(1000)]
            .map { String(format: "%.0f", $0) }
        print("| \(source.name) | \(row[0]) | \(row[1]) | \(row[2]) | \(results[index].dropped) |")
    }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}

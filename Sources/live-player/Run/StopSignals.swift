// StopSignals: SIGINT, SIGTERM, SIGQUIT and SIGHUP end a run like `q` does, wherever it waits.

import Synchronization
import X11Presenter
#if canImport(Glibc)
import Glibc
#endif

/// The first stop signal's number, 0 before one arrives. Set by the handler (a lock-free atomic
/// is async-signal-safe); read by every loop, cheaply enough to ask on each tick.
private let receivedStopSignal = Atomic<Int32>(0)
/// The write ends of the self-pipes: the frame loop's and the watchdog's. The handler touches
/// nothing but these, the atomic and `write`.
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1
nonisolated(unsafe) private var watchdogPipe: Int32 = -1
/// Whether the frame loop has seen the stop (asked ``StopSignals/pending``).
private let stopNoticed = Atomic<Bool>(false)
/// The window being opened or shown, with its display's name: what the watchdog interrupts.
private let guardedWindow = Mutex<(interrupter: ConnectionInterrupter, display: String)?>(nil)

/// Turns SIGINT, SIGTERM, SIGQUIT and SIGHUP into a flag and bytes on a pipe (the self-pipe trick), and
/// makes sure the run ends within a second even when the X server stopped answering.
///
/// The frame loop watches ``descriptor`` in its one wait, sees the stop like any other event, and
/// ends the run cleanly: window closed, shared memory released, `--stats` written, the summary
/// printed, and exit status 128 + the signal number, as a shell expects. Headless loops ask
/// ``pending`` on every tick. SIGQUIT (Ctrl-\\) is a stop like the others: the Swift runtime
/// would otherwise print a backtrace for it and let the run go on. SIGHUP is the terminal going.
///
/// Xlib can block where no descriptor is watched: in `XOpenDisplay`, `XSync` or a full socket,
/// when the server is stopped. A watchdog thread gives the frame loop half a second to notice the
/// stop and let go of the window; then it interrupts the connection (``ConnectionInterrupter``),
/// which returns the blocked call so the run ends as above. Blocked in `XOpenDisplay`, before
/// there is a connection to interrupt, nothing has been rendered: after another half second it
/// says so and exits with the signal's status.
@MainActor
enum StopSignals {
    /// The frame loop's read end, non-blocking; readable once a stop signal arrived. -1 before ``install()``.
    private(set) static var descriptor: Int32 = -1

    /// The signals that end a run.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGQUIT, SIGHUP]

    /// Installs the handlers and starts the watchdog once; later calls do nothing.
    static func install() {
        guard descriptor < 0 else { return }
        guard let loop = makePipe(), let watchdog = makePipe() else { return }
        descriptor = loop.read
        stopSignalPipe = loop.write
        watchdogPipe = watchdog.write
        watchdogReadEnd = watchdog.read
        _ = receivedStopSignal.load(ordering: .relaxed)  // initialized before any handler runs
        startWatchdog()
        for number in signals { installHandler(for: number) }
    }

    /// The first stop signal that arrived, if any; an atomic load, cheap enough for every tick.
    static var pending: Int32? {
        let number = receivedStopSignal.load(ordering: .relaxed)
        guard number != 0 else { return nil }
        stopNoticed.store(true, ordering: .relaxed)
        return number
    }

    /// The exit status for a run ended by `signal`: 128 + its number (130 SIGINT, 143 SIGTERM, 131 SIGQUIT, 129 SIGHUP).
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// From now until ``releaseWindow()``, the watchdog may interrupt `interrupter`'s connection
    /// to `display` if a stop signal finds the frame loop blocked on the server.
    static func guardWindow(_ interrupter: ConnectionInterrupter, display: String) {
        guardedWindow.withLock { $0 = (interrupter, display) }
    }

    /// The window is closed (or was never opened): nothing left for the watchdog to interrupt.
    static func releaseWindow() {
        guardedWindow.withLock { $0 = nil }
    }

    private static func makePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }
}

nonisolated(unsafe) private var watchdogReadEnd: Int32 = -1

// Outside the main actor: the handler and the thread run in no actor's context.
private func installHandler(for number: Int32) {
    signal(number) { number in
        _ = receivedStopSignal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(stopSignalPipe, &byte, 1)
        _ = write(watchdogPipe, &byte, 1)
    }
}

private func startWatchdog() {
    var thread = pthread_t()
    if pthread_create(&thread, nil, { _ in runWatchdog(); return nil }, nil) == 0 { pthread_detach(thread) }
}

/// The watchdog thread: sleeps until a stop signal, then makes sure no X call holds the run.
private func runWatchdog() {
    var descriptor = pollfd(fd: watchdogReadEnd, events: Int16(POLLIN), revents: 0)
    while poll(&descriptor, 1, -1) < 1 {}
    let signal = receivedStopSignal.load(ordering: .relaxed)
    /// Whether the frame loop saw the stop and let go of the window (or never had one).
    func settled() -> Bool {
        stopNoticed.load(ordering: .relaxed) && guardedWindow.withLock { $0 == nil }
    }
    func waitForSettling(_ seconds: Double) -> Bool {
        for _ in 0..<Int(seconds * 100) {
            if settled() { return true }
            usleep(10_000)
        }
        return settled()
    }
    if waitForSettling(0.5) { return }
    // Headless loops ask for the flag on every tick: only X calls block without looking.
    guard let window = guardedWindow.withLock({ $0 }) else { return }
    window.interrupter.interrupt()
    if waitForSettling(0.5) { return }
    // With a connection, no X call can block any more: the loop ends the run itself, with its
    // summary, once the frame it is drawing is done.
    guard guardedWindow.withLock({ $0 != nil }), !window.interrupter.isAttached else { return }
    let name = String(cString: strsignal(signal))
    let line = "live-player: \(name): the X server \(window.display) does not answer the connection; exiting, nothing was rendered\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    _exit(128 + signal)
}

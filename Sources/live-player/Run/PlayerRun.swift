// PlayerRun: picks the windowed or headless player, and ends every run the same way.

import DisplayClock
import Raster
import X11Presenter
#if canImport(Glibc)
import Glibc
#endif

/// Starts a run and returns its exit status.
@MainActor
enum PlayerRun {
    static func start(_ options: PlayerOptions) -> Int32 {
        // A write to a dead X connection must end in a clear message, not a silent SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        StopSignals.install()
        // The frame thread is this one: SCHED_FIFO keeps wake-ups punctual beside busy processes
        // (clock-benchmark: p99 0.1 ms instead of several ms), when the kernel grants it.
        if options.realtimePriority, !RealtimeScheduling.request() {
            printError("--priority realtime: the kernel refused SCHED_FIFO (it needs root or CAP_SYS_NICE); normal scheduling")
        }
        guard !options.headless else { return HeadlessPlayer(options: options).run() }
        let window: X11Window
        // A stopped X server blocks XOpenDisplay and XSync where no signal is looked at: the
        // stop-signal watchdog interrupts the connection instead.
        let interrupter = ConnectionInterrupter()
        StopSignals.guardWindow(interrupter, display: options.displayName ?? getenv("DISPLAY").map { String(cString: $0) } ?? "")
        do {
            let size = (options.width, options.height)
            // --fps max and --vsync timer show each frame as soon as it is made, paced by no
            // vblank: through Present too, from MIT-SHM pixmaps (the server's release of a frame
            // then arrives where it costs no allocation, unlike a blit's ShmCompletion), else blitted.
            let showsAtOnce = options.vsync == .timer || options.frameRate == .unlimited
            window = try X11Window(.init(displayName: options.displayName, title: "live-player: \(options.scene.rawValue)",
                                         width: size.0, height: size.1, usesSharedMemory: options.usesSharedMemory,
                                         usesPresent: true, presentsOnlyFromSharedMemory: showsAtOnce,
                                         className: "live-player", interrupter: interrupter))
        } catch {
            StopSignals.releaseWindow()
            switch error {
            case .noDisplayNamed where options.vsync == .present:
                printError("--vsync present: \(error)")
                return 64
            case .noDisplayNamed:
                // Nothing was asked for (no --display, DISPLAY unset or empty): the frames can
                // still be made and measured off-screen.
                printError("\(error); running headless")
                return HeadlessPlayer(options: options).run()
            case .cannotOpenDisplay:
                // A display was asked for: running without it would hide the failure.
                printError("\(error)")
                return unavailableStatus
            default:
                printError("\(error)")
                return 1
            }
        }
        if options.vsync == .present, case let .blit(reason) = window.presentation {
            window.close()
            printError("--vsync present: cannot pace frames to vblanks: \(reason ?? "Present is not in use")")
            return 64
        }
        return WindowedPlayer(options: options, window: window).run()
    }
}

/// The exit status when the display asked for cannot be reached: EX_UNAVAILABLE.
let unavailableStatus: Int32 = 69

/// Writes `message` to stderr as `live-player: message`.
func printError(_ message: String) {
    let line = "live-player: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// The exit status of a run whose output (`--stats`, a screenshot) could not be written:
/// EX_IOERR. The summary line is printed all the same.
let outputErrorStatus: Int32 = 74

/// Writes `report` to `--stats`, if given; false (after naming the file and the reason) when
/// it cannot. Every step is checked, `fclose` included: a full disk often shows only there,
/// when stdio flushes its buffer.
func writeStats(_ report: RunReport, to path: String?) -> Bool {
    guard let path else { return true }
    guard let file = fopen(path, "w") else {
        printError("cannot write --stats '\(path)': \(String(cString: strerror(errno)))")
        return false
    }
    var failure: Int32 = 0
    if report.json.withCString({ fputs($0, file) }) < 0 || fflush(file) != 0 { failure = errno }
    if fclose(file) != 0, failure == 0 { failure = errno }
    guard failure == 0 else {
        printError("cannot write --stats '\(path)': \(String(cString: strerror(failure)))")
        return false
    }
    return true
}

/// Writes `bitmap` as PNG to `path`; false (after saying why) when it cannot.
func writeScreenshot(_ bitmap: Bitmap, to path: String) -> Bool {
    do {
        try bitmap.writePNG(to: path)
        return true
    } catch {
        printError("cannot write the screenshot '\(path)': \(error)")
        return false
    }
}

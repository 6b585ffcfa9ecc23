// Example: an example's layer tree, run in a window or headless, by the player's flags.

@_exported import DisplayClock
@_exported import LayerHost
@_exported import LiveLayers
@_exported import Raster
@_exported import X11Presenter
#if canImport(Glibc)
import Glibc
#endif

/// How an example runs, from its command line: in a window (`--display NAME`), or with
/// `--headless` off-screen on a virtual clock; `--frames N` ends the run after N frames and
/// `--screenshot FILE` saves the last one as PNG.
public struct ExampleOptions: Sendable {
    public var isHeadless = false
    public var frames: Int?
    public var screenshotPath: String?
    public var displayName: String?

    /// Parses `arguments` (without the program's name); `nil` after printing the usage.
    public init?(_ arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--headless": isHeadless = true
            case "--frames": guard let n = rest.popFirst().flatMap(Int.init), n > 0 else { return nil }; frames = n
            case "--screenshot": guard let path = rest.popFirst() else { return nil }; screenshotPath = path
            case "--display": guard let name = rest.popFirst() else { return nil }; displayName = name
            default: return nil
            }
        }
    }
}

/// Whether the command line asks for a headless run.
public var isHeadlessRun: Bool { CommandLine.arguments.contains("--headless") }

/// The local time of day in seconds.
public func secondsSinceMidnight() -> Double {
    var now = time(nil)
    var local = tm()
    localtime_r(&now, &local)
    return Double(local.tm_hour * 3600 + local.tm_min * 60 + local.tm_sec)
}

/// Runs `root` (`width` × `height`) as the command line says, calling `onFrame` at each tick
/// and `onEvent` for each window event, then exits with the run's status.
@MainActor
public func runExample(title: String, width: Int, height: Int, root: Layer,
                       onFrame: ((DisplayLink.Frame) -> Void)? = nil,
                       onEvent: @escaping (WindowEvent) -> Void = { _ in }) -> Never {
    exit(run(title: title, width: width, height: height, root: root, onFrame: onFrame, onEvent: onEvent))
}

@MainActor
private func run(title: String, width: Int, height: Int, root: Layer,
                 onFrame: ((DisplayLink.Frame) -> Void)?, onEvent: @escaping (WindowEvent) -> Void) -> Int32 {
    guard let options = ExampleOptions(Array(CommandLine.arguments.dropFirst())) else {
        fail("usage: \(title) [--headless] [--frames N] [--screenshot FILE.png] [--display NAME]")
        return 64
    }
    var frames = 0
    let last: Bitmap
    if options.isHeadless {
        let host: HeadlessHost
        do { host = try HeadlessHost(width: width, height: height, rootLayer: root) } catch {
            fail("\(error)")
            return 1
        }
        host.onFrame = { frame in onFrame?(frame) }
        host.run(frames: options.frames ?? 60)
        last = host.bitmap
    } else {
        let host: WindowHost
        do { host = try WindowHost(title: title, width: width, height: height, rootLayer: root, displayName: options.displayName) } catch {
            fail("\(error)")
            return 69
        }
        // A frame callback keeps the link ticking every refresh: only set one when needed, so
        // an example at rest sleeps.
        if onFrame != nil || options.frames != nil {
            host.onFrame = { frame in
                onFrame?(frame)
                frames += 1
                if let limit = options.frames, frames >= limit { host.stop() }
            }
        }
        host.onEvent = onEvent
        do { try host.run() } catch {
            fail("\(error)")
            return 1
        }
        last = host.window.acquireFrameBuffer()
    }
    if let path = options.screenshotPath {
        do { try last.writePNG(to: path) } catch {
            fail("cannot write '\(path)': \(error)")
            return 74
        }
    }
    return 0
}

private func fail(_ message: String) {
    let line = "\(CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? "example"): \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

// LivePlayer: the command line (swift-argument-parser). Bad input exits with 64 (EX_USAGE).

import ArgumentParser
import Lottie
import Raster
import X11Presenter
#if canImport(Glibc)
import Glibc
#endif

@main
struct LivePlayer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-player",
        abstract: "Plays Core Animation scenes in an X11 window, rendered in software.",
        discussion: """
            Keys: g/space/Return go, r reverse, p pause, Right one frame (paused), s slow animations, \
            f overlay, c screenshot, 1-6 orbit buttons, Tab next scene, q/Escape quit. \
            play: space pause/resume, g/r forward/backward, Left/Right one frame, Home/End first/last frame, l looping.
            """
    )

    @Argument(help: "The scene to play: \(SceneKind.allCases.map(\.rawValue).joined(separator: ", ")); or play FILE.json.")
    var scene: String?

    @Argument(help: ArgumentHelp("With play: the Lottie file (Bodymovin JSON, or a .lottie archive).", valueName: "FILE.json"))
    var file: String?

    @Option(help: ArgumentHelp("With play: the colour behind the animation (#RRGGBB, #RRGGBBAA or a name); default transparent.", valueName: "COLOR"))
    var background: String?

    @Flag(help: "List the scenes and exit.")
    var list = false

    // Numeric options take the next argument whatever it looks like (`.unconditional`), so that a
    // negative number is reported as out of range rather than as a missing value.
    @Option(parsing: .unconditional, help: ArgumentHelp("Window or frame size, WxH (1...16384 each, at most 64 megapixels); default: the scene's.", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Target frame rate: a number of frames per second (a whole divisor of the refresh with Present), or max (unpaced); default: the display's refresh rate.", valueName: "N|max"))
    var fps: String?

    @Option(help: ArgumentHelp("What paces frames: present (the X server's vblanks through the Present extension) or timer (at the XRandR rate); default: present when the server has it.", valueName: "present|timer"))
    var vsync: String?

    @Option(help: ArgumentHelp("The X display to use; default: $DISPLAY. One that cannot be reached is an error (status 69); with neither, the run is headless.", valueName: "NAME"))
    var display: String?

    @Flag(name: .customLong("no-shm"), help: "Send frames with XPutImage instead of MIT-SHM.")
    var noSharedMemory = false

    @Flag(name: .customLong("no-overlay"), help: "Start with the FPS overlay hidden.")
    var noOverlay = false

    @Flag(help: "Press go at the start, and again after each completion (pk plays back between goes).")
    var autoplay = false

    @Option(help: ArgumentHelp("A PNG image for the arrow scene, scaled to its square.", valueName: "FILE.png"))
    var image: String?

    @Flag(help: "Render off-screen on a virtual clock, without a window.")
    var headless = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Render this many frames and end: headless (default: one whole go cycle), or in a window this many refreshes, drawn whether anything moves or not.", valueName: "N"))
    var frames: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Go at media time 0 and render exactly the frame at this time (headless).", valueName: "SECONDS"))
    var at: Double?

    @Option(help: ArgumentHelp("Write the last frame (headless) or the c key's screenshots to this PNG.", valueName: "FILE.png"))
    var screenshot: String?

    @Option(help: ArgumentHelp("Write per-frame stage timings and the summary to this JSON file.", valueName: "FILE.json"))
    var stats: String?

    @Flag(help: "Headless: pace frames at the target rate instead of as fast as possible.")
    var realtime = false

    @Option(help: ArgumentHelp("Frame-thread scheduling: normal, or realtime (SCHED_FIFO; needs root or CAP_SYS_NICE, and a throttled --fps).", valueName: "normal|realtime"))
    var priority = "normal"

    /// The checked options; set by `validate()`.
    private var options: PlayerOptions?

    private enum CodingKeys: String, CodingKey {
        case scene, file, background, list, size, fps, vsync, display, noSharedMemory, noOverlay, autoplay, image, headless, frames, at, screenshot, stats, realtime, priority
    }

    mutating func validate() throws {
        if list { return }
        guard let scene else {
            throw ValidationError("no scene given; scenes: \(SceneKind.names) (or --list)")
        }
        guard let kind = SceneKind(rawValue: scene) else {
            throw ValidationError("unknown scene '\(scene)'; scenes: \(SceneKind.names), or play FILE.json")
        }
        var options = PlayerOptions(scene: kind, width: kind.defaultSize.width, height: kind.defaultSize.height)
        if kind == .play {
            guard let file else { throw ValidationError("play needs a Lottie file: live-player play FILE.json") }
            let (animation, built) = try Self.loadAnimation(file)
            options.animation = animation
            options.animationLayer = built
            // Native size, scaled down when it would exceed the largest frame.
            let native = animation.size
            let shrink = min(1, (Double(Self.largestFramePixels) / (native.width * native.height)).squareRoot())
            options.width = max(1, min(Bitmap.maximumSide, Int((native.width * shrink).rounded(.up))))
            options.height = max(1, min(Bitmap.maximumSide, Int((native.height * shrink).rounded(.up))))
            if let background {
                guard let color = Self.parseColor(background) else {
                    throw ValidationError("--background must be #RRGGBB, #RRGGBBAA or a colour name (black, white, ...); got '\(background)'")
                }
                options.background = color
            }
        } else if file != nil {
            throw ValidationError("unexpected argument '\(file!)': only play takes a file")
        } else if background != nil {
            throw ValidationError("--background is for play FILE.json")
        }
        if let size {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
                throw ValidationError("--size must be WxH, such as 800x600; got '\(size)'")
            }
            guard (1...Bitmap.maximumSide).contains(w), (1...Bitmap.maximumSide).contains(h) else {
                throw ValidationError("--size \(size) is out of range: each side must be 1...\(Bitmap.maximumSide)")
            }
            guard w * h <= Self.largestFramePixels else {
                throw ValidationError(Self.frameTooLarge(width: w, height: h))
            }
            options.width = w
            options.height = h
        }
        if let fps {
            if fps.lowercased() == "max" {
                options.frameRate = .unlimited
            } else if let n = Int(fps), (1...1000).contains(n) {
                options.frameRate = .fixed(n)
            } else if Int(fps) != nil {
                throw ValidationError("--fps \(fps) is out of range: --fps must be 1...1000 or max")
            } else {
                throw ValidationError("--fps must be 1...1000 or max; got '\(fps)'")
            }
        }
        if let vsync {
            guard let choice = VsyncChoice(rawValue: vsync.lowercased()), choice != .automatic else {
                throw ValidationError("--vsync must be present or timer; got '\(vsync)'")
            }
            options.vsync = choice
        }
        if options.vsync == .present {
            // Unpaced frames and vblank pacing exclude each other; so do vblanks and no window.
            if options.frameRate == .unlimited { throw ValidationError("--vsync present paces frames to vblanks; it cannot be combined with --fps max") }
            if headless || at != nil { throw ValidationError("--vsync present needs a window; it cannot be combined with --headless or --at") }
        }
        if let frames {
            guard frames > 0, frames <= 10_000_000 else { throw ValidationError("--frames \(frames) is out of range: --frames must be 1...10000000") }
            options.frames = frames
        }
        if let at {
            guard at.isFinite, at >= 0, at <= 1e6 else { throw ValidationError("--at \(at) is out of range: --at must be a time in seconds, 0...1000000") }
            options.at = at
        }
        if let image {
            do { options.image = try Bitmap(pngFile: image) } catch {
                throw ValidationError("cannot read the image '\(image)': \(error)")
            }
        }
        if let screenshot { try Self.checkWritable(screenshot, option: "--screenshot") }
        if let stats { try Self.checkWritable(stats, option: "--stats") }
        if let screenshot, let stats, Self.sameFile(screenshot, stats) {
            // The stats are written last: the PNG would end up holding the JSON.
            throw ValidationError("--screenshot and --stats both name '\(stats)'; give each its own file")
        }
        if let display, display.isEmpty { throw ValidationError("--display: empty name; give one such as :0, or leave --display out") }
        options.displayName = display
        options.usesSharedMemory = !noSharedMemory
        options.showsOverlay = !noOverlay
        options.autoplay = autoplay
        options.headless = headless || at != nil
        options.screenshotPath = screenshot
        options.statsPath = stats
        if realtime, !options.headless, !(display ?? getenv("DISPLAY").map { String(cString: $0) } ?? "").isEmpty {
            // A window is paced by the display (--fps, --vsync); the flag would be ignored. With no
            // display asked for the run falls back to headless, where it applies.
            throw ValidationError("--realtime paces headless runs (--headless or --at); a window is paced by the display: use --fps or --vsync")
        }
        options.realtime = realtime
        switch priority.lowercased() {
        case "normal": options.realtimePriority = false
        case "realtime":
            // A real-time thread that never sleeps would starve its core.
            guard options.frameRate != .unlimited else {
                throw ValidationError("--priority realtime needs a throttled rate; with --fps max the frame thread would never sleep")
            }
            options.realtimePriority = true
        default: throw ValidationError("--priority must be normal or realtime; got '\(priority)'")
        }
        self.options = options
    }

    /// The most pixels a frame may have: 64 megapixels (8192x8192). Memory grows with the pixels,
    /// about ``bytesPerPixel`` in the costliest scene (arrow: the frame, the scene bitmap, the
    /// scaled picture and the mask); the limit keeps a run near 1.2 GB.
    static let largestFramePixels = X11Window.maximumFramePixels
    /// What the arrow scene was measured to hold per pixel of its frame (maximum RSS,
    /// 4096x4096: 314 MB).
    static let bytesPerPixel = 18.0

    /// Exact pixel counts: rounded to megapixels, a size just past the limit read as the limit.
    static func frameTooLarge(width: Int, height: Int) -> String {
        let pixels = width * height
        let gigabytes = Double(pixels) * bytesPerPixel / 1e9
        return "--size \(width)x\(height) is out of range: \(pixels) pixels would need about \(fixed(gigabytes, 1)) GB "
            + "(\(Int(bytesPerPixel)) bytes a pixel); the limit is \(largestFramePixels) pixels, such as 8192x8192"
    }

    /// Decodes and builds the animation at `path`, once (the play scene shows the layer built
    /// here: a long time-remapped file takes a while to build); malformed files exit with 65
    /// (EX_DATAERR), as do files too large to play, after saying where the problem is. Features
    /// the player does not draw are listed once on stderr, and the rest plays.
    private static func loadAnimation(_ path: String) throws -> (LottieAnimation, AnimationLayer) {
        do {
            let animation = try LottieAnimation(contentsOfFile: path)
            let built = try MainActor.assumeIsolated { try animation.makeLayer() }
            for line in MainActor.assumeIsolated({ built.unsupportedFeatures }) { printError("\(path): not supported, not drawn: \(line)") }
            return (animation, built)
        } catch let error as LottieError {
            if case .unreadable = error { throw ValidationError("\(error)") }
            printError("\(path): \(error)")
            throw ExitCode(65)
        }
    }

    /// A colour from `#RGB`, `#RRGGBB`, `#RRGGBBAA` or a few names.
    static func parseColor(_ text: String) -> Color? {
        let names: [String: Color] = ["black": .black, "white": .white, "red": .red, "green": .green, "blue": .blue,
                                      "gray": Color(white: 0.5), "grey": Color(white: 0.5), "transparent": .clear, "clear": .clear]
        if let named = names[text.lowercased()] { return named }
        var digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
        if digits.count == 6 { return Color(rgb: UInt32(value)) }
        return Color(rgb: UInt32(value >> 8), alpha: Double(value & 0xFF) / 255)
    }

    /// Fails unless `path` can be created or written: a writable file, device or FIFO, or a new
    /// name in a writable folder.
    private static func checkWritable(_ path: String, option: String) throws {
        guard !path.isEmpty else { throw ValidationError("\(option): empty path") }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var info = stat()
        if stat(path, &info) == 0 {
            // A device or a FIFO (/dev/null, a pipe another process reads) takes the output as
            // a file does; a folder or a block device does not.
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                let example = option == "--stats" ? "stats.json" : "shot.png"
                throw ValidationError("\(option): cannot write '\(path)': '\(path)' is a folder; name a file in it, such as '\(path.hasSuffix("/") ? path : path + "/")\(example)'")
            }
            guard kind == S_IFREG || kind == S_IFCHR || kind == S_IFIFO, access(path, W_OK) == 0 else {
                throw ValidationError("\(option): cannot write '\(path)'")
            }
        } else {
            let dir = folder.isEmpty ? "/" : folder
            guard stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, access(dir, W_OK) == 0 else {
                throw ValidationError("\(option): cannot write '\(path)': folder '\(dir)' is missing or not writable")
            }
        }
    }

    /// Whether `a` and `b` name one regular file (or one new file in the same folder), however
    /// spelt: the same device and inode, or the same name in the same resolved folder. Devices
    /// and FIFOs may take both outputs (`/dev/null` for each).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var infoA = stat(), infoB = stat()
        let existsA = stat(a, &infoA) == 0, existsB = stat(b, &infoB) == 0
        if existsA || existsB {
            return existsA && existsB && infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino
                && infoA.st_mode & S_IFMT == S_IFREG
        }
        func resolved(_ path: String) -> String? {
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            guard let real = realpath(folder, nil) else { return nil }
            defer { free(real) }
            return String(cString: real) + "/" + name
        }
        guard let resolvedA = resolved(a) else { return false }
        return resolvedA == resolved(b)
    }

    mutating func run() throws {
        if list {
            for kind in SceneKind.allCases { print("\(padRight(kind.rawValue, 10)) \(kind.summary)") }
            return
        }
        guard let options else { throw ValidationError("no scene given") }
        // run() is called on the main thread; the layer tree and the player live there.
        nonisolated(unsafe) let checked = options
        let status = MainActor.assumeIsolated { PlayerRun.start(checked) }
        if status != 0 { throw ExitCode(status) }
    }
}

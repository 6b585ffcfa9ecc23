// FPSOverlay: measured FPS, per-stage frame times, drops and a frame-interval graph, over the scene.

import DisplayClock
import Raster

/// The FPS overlay (key f): what the redraw path is doing, measured on the display link.
///
/// Shows the FPS over the last second, p50/p99 of each stage (animate, draw, composite, blit),
/// dropped frames in total and in the last second with the stage blamed, the target rate, and
/// the last 120 frame intervals as bars against the frame budget, dropped frames in red. Its own
/// drawing happens in the composite stage, so its cost is in the figures it shows.
///
/// The text is rebuilt four times a second into reused byte buffers (``ASCIILine``) and the bars
/// are drawn every frame; neither allocates once the overlay is warm.
///
/// A frame too small for all of it (a small Lottie's window) gets a compact form instead: the FPS
/// and drops on one line over the last 60 intervals, so that the overlay is not cut off and leaves
/// most of the animation in view.
@MainActor
final class FPSOverlay {
    static let size = (width: 336, height: 196)
    /// The compact form's size, used where ``size`` and its inset do not fit.
    static let compactSize = (width: 132, height: 51)
    private static let inset = 8
    private static let stages: [(FrameStage, String)] = [(.animate, "animate"), (.draw, "draw"), (.composite, "composite"), (.present, "blit")]

    /// How frames reach the screen ("MIT-SHM", "XPutImage", "headless"). A new one is shown in
    /// the next frame drawn, not at the next refresh of the text.
    var transportLabel: String {
        didSet { if transportLabel != oldValue { lastTextUpdate = -.infinity } }
    }
    /// The target rate, for the text and the budget line.
    var frameRate: FrameRate
    /// What paces the frames (a window's); nil headless.
    var clock: PlayerClock?
    private var lines = [ASCIILine](repeating: ASCIILine(), count: FPSOverlay.lineCount)
    private static let lineCount = 10
    private var lastTextUpdate = -Double.infinity
    /// The clock that paces the text's refresh (tests hold it still).
    var currentTime: () -> Double = { CACurrentMediaTime() }
    /// What the first line shows: a new scene or size rebuilds the text at once (a paused player
    /// draws one frame after a resize or Tab, and it must not name the old ones).
    private var shownScene: SceneKind?
    private var shownSize = (0, 0)
    private var shownPlayback: PlaybackStatus?
    /// Whether the display link has paused (nothing animates, media time paused): the FPS line
    /// then says `idle`. Its figure is the last second of frames up to the last one drawn, and
    /// no frame comes to refresh it, so it would go on showing a rate while nothing is drawn.
    var isLinkIdle = false
    /// Whether the text on screen says idle (``isLinkIdle`` when the overlay was last drawn).
    private(set) var shownIdle = false
    /// A wait for frames shorter than this (a delayed animation about to begin) is not shown
    /// as idle: the text changes no faster than four times a second anyway.
    static let idleThreshold = 0.25
    private let textColor = Color.white
    private let dimColor = Color(white: 0.7)

    init(transportLabel: String, frameRate: FrameRate) {
        self.transportLabel = transportLabel
        self.frameRate = frameRate
        views.reserveCapacity(Self.viewLimit + 1)
        // Opening the font and rendering its glyphs took 8-19 ms on the first windowed frame,
        // which then came late: do it now, before frames are timed.
        Self.typeface?.prepareASCII(size: Self.textSize)
    }

    /// Whether a frame of `bounds` gets the compact form: the whole overlay, inset on both sides,
    /// does not fit in it.
    static func isCompact(in bounds: IntRect) -> Bool {
        bounds.width < size.width + 2 * inset || bounds.height < size.height + 2 * inset
    }

    /// Where the overlay goes in a frame of `bounds`: the top-left corner, inset by 8 pixels.
    func frame(in bounds: IntRect) -> IntRect {
        let size = Self.isCompact(in: bounds) ? Self.compactSize : Self.size
        return IntRect(x: Self.inset, y: Self.inset, width: size.width, height: size.height).intersection(bounds)
    }

    /// Whether the text was built for the compact form.
    private var shownCompact = false
    /// The compact form's one line: `FPS 59.9  drops 2`.
    private var compactLine = ASCIILine()

    /// Draws the overlay into `rect` of `target`, and returns the part of `target` it changed.
    ///
    /// The dimmed scene and the text are kept in a picture of the overlay's size, rebuilt when
    /// the text changes (four times a second, or at once for a new scene, size or played frame),
    /// when `sceneChanged` says the pixels under `rect` changed (in `scene`, or in `target`: a
    /// full redraw), or when `rect` moves. Other frames only put the graph back over the picture:
    /// the frame writes and the window sends the graph's 240×52 pixels, not the overlay's 336×196.
    /// `scene` is the scene as rendered, without the overlay; nil dims what `target` holds
    /// (then everything is redrawn, as `target` already holds the last overlay).
    /// `playback` is the play scene's frame; a new one rebuilds the text at once (a step while
    /// paused draws one frame, and it must show the frame it went to).
    @discardableResult
    func draw(into target: Bitmap, in rect: IntRect, under scene: Bitmap? = nil, sceneChanged: Bool = true,
              scene kind: SceneKind, playback: PlaybackStatus? = nil, link: DisplayLink) -> IntRect {
        guard !rect.isEmpty else { return .zero }
        var redrawsAll = sceneChanged || scene == nil || scene === target || rect != pictureRect
        let now = currentTime()
        let compact = Self.isCompact(in: target.bounds)
        if now - lastTextUpdate >= 0.25 || kind != shownScene || shownSize != (target.width, target.height)
            || Self.needsText(playback, shown: shownPlayback) || isLinkIdle != shownIdle {
            lastTextUpdate = now
            shownIdle = isLinkIdle
            shownScene = kind
            shownSize = (target.width, target.height)
            shownPlayback = playback
            shownCompact = compact
            if compact { rebuildCompactText(link: link) } else { rebuildText(scene: kind, size: (target.width, target.height), link: link) }
            redrawsAll = true
        }
        let graph = compact
            ? IntRect(x: rect.x + 6, y: rect.y + 6 + 11 + 2, width: Self.compactGraphFrames * 2, height: 26)
            : IntRect(x: rect.x + 6, y: rect.y + 6 + 11 * (lines.count - 2) + 2, width: Self.graphFrames * 2, height: 52)
        guard let picture = picture(sized: rect) else {
            // No memory for the picture: draw straight into the target, all of it.
            dim(rect, of: target)
            drawText(into: overlayView(of: target, rect))
            drawGraph(into: target, at: graph, clip: rect, link: link)
            pictureRect = nil
            return rect
        }
        if redrawsAll {
            Self.copy(rect, of: scene ?? target, to: picture, atX: 0, y: 0)
            dim(picture.bounds, of: picture)
            drawText(into: picture)
            Self.copy(picture.bounds, of: picture, to: target, atX: rect.x, y: rect.y)
            pictureRect = rect
        } else {
            // The bars move every frame: the picture under the graph, then the new bars.
            let area = graph.intersection(rect)
            Self.copy(IntRect(x: area.x - rect.x, y: area.y - rect.y, width: area.width, height: area.height),
                      of: picture, to: target, atX: area.x, y: area.y)
        }
        drawGraph(into: target, at: graph, clip: rect, link: link)
        return redrawsAll ? rect : graph.intersection(rect)
    }

    /// The overlay's text lines, drawn into `bitmap` (the overlay's own pixels, origin at its corner).
    private func drawText(into bitmap: Bitmap) {
        guard !shownCompact else {
            draw(compactLine, into: bitmap, at: Point(x: 6, y: 6), color: textColor)
            return
        }
        var y = 6.0
        for (i, line) in lines.enumerated() {
            let color = i >= lines.count - 2 ? dimColor : textColor
            draw(line, into: bitmap, at: Point(x: 6, y: y), color: color)
            y += 11
            if i == lines.count - 3 { y += 58 }  // room for the graph above the keys
        }
    }

    private func draw(_ line: ASCIILine, into bitmap: Bitmap, at origin: Point, color: Color) {
        if let face = Self.typeface {
            face.draw(ascii: line.bytes, size: Self.textSize, into: bitmap, at: origin, color: color)
        } else {
            PixelFont.standard.draw(ascii: line.bytes, into: bitmap, at: origin, color: color)
        }
    }

    /// Where the picture was last put in the target (nil: not put since it was last changed).
    private var pictureRect: IntRect?
    private var pictureStore: Bitmap?

    /// The overlay's picture for `rect`'s size, made when the size changes.
    private func picture(sized rect: IntRect) -> Bitmap? {
        if let made = pictureStore, made.width == rect.width, made.height == rect.height { return made }
        pictureStore = try? Bitmap(width: rect.width, height: rect.height)
        pictureRect = nil
        return pictureStore
    }

    /// Copies `region` of `source` to `target` with its corner at (`x`, `y`); what falls outside
    /// either bitmap is skipped. (No views: a view is an object, and this runs every frame.)
    private static func copy(_ region: IntRect, of source: Bitmap, to target: Bitmap, atX x: Int, y: Int) {
        // Target pixel (tx, ty) takes source pixel (tx + dx, ty + dy).
        let dx = region.x - x, dy = region.y - y
        let from = region.intersection(source.bounds)
        let to = IntRect(x: from.x - dx, y: from.y - dy, width: from.width, height: from.height).intersection(target.bounds)
        guard !to.isEmpty else { return }
        source.withUnsafeMutablePixels { src in
            target.withRows(in: to) { row, pixels in
                pixels.baseAddress!.update(from: src.baseAddress! + ((row + dy) * source.stride + to.x + dx), count: to.width)
            }
        }
    }

    /// Whether the frame line must change now rather than at the next quarter second: a new
    /// direction or looping, or a paused frame stepped (a playing frame changes every frame;
    /// four updates a second read better and cost less).
    private static func needsText(_ playback: PlaybackStatus?, shown: PlaybackStatus?) -> Bool {
        guard let playback, let shown else { return (playback == nil) != (shown == nil) }
        return playback.direction != shown.direction || playback.isLooping != shown.isLooping
            || playback.frameCount != shown.frameCount || (playback.direction == .paused && playback.frame != shown.frame)
    }

    /// DejaVu Sans Mono at 10 px: its 6-pixel advance fits the lines the pixel font did, and
    /// light hinting keeps it crisp. The pixel font stands in when no font can be opened.
    private static let typeface = Typeface.named("DejaVu Sans Mono")
    private static let textSize = 10.0
    /// Views of the overlay's rectangle, one for each frame buffer a window takes turns with (a
    /// Present ring has three), newest first.
    private var views: [(target: ObjectIdentifier, rect: IntRect, bitmap: Bitmap)] = []
    private static let viewLimit = 4

    /// A view of the overlay's rectangle of `target`, kept while both stay the same.
    private func overlayView(of target: Bitmap, _ rect: IntRect) -> Bitmap {
        if let i = views.firstIndex(where: { $0.target == ObjectIdentifier(target) && $0.rect == rect }) { return views[i].bitmap }
        let made = target.view(of: rect) ?? target
        // A view keeps its frame buffer alive: the oldest goes, so a replaced ring is let go.
        if views.count >= Self.viewLimit { views.removeLast() }
        views.insert((ObjectIdentifier(target), rect, made), at: 0)
        return made
    }

    /// Darkens the scene under the overlay to 25 %, so the text reads on any background.
    private func dim(_ rect: IntRect, of target: Bitmap) {
        target.withRows(in: rect) { _, row in
            for i in row.indices {
                let p = row[i]
                row[i] = 0xFF00_0000 | (p >> 2) & 0x3F_3F3F
            }
        }
    }

    /// The compact form's line: the FPS over the last second and the drops in total.
    private func rebuildCompactText(link: DisplayLink) {
        compactLine.clear()
        compactLine.append("FPS ")
        appendRate(to: &compactLine, link: link)
        compactLine.append("  drops ")
        compactLine.append(link.statistics.framesDropped)
    }

    /// The FPS over the last second, or `idle` while the link is paused.
    private func appendRate(to line: inout ASCIILine, link: DisplayLink) {
        if shownIdle { line.append("idle") } else { line.append(fixed: link.statistics.framesPerSecondLastSecond, digits: 1) }
    }

    private func rebuildText(scene: SceneKind, size: (Int, Int), link: DisplayLink) {
        let statistics = link.statistics
        for i in lines.indices { lines[i].clear() }
        lines[0].append(scene.rawValue)
        lines[0].append(" ")
        lines[0].append(size.0)
        lines[0].append("x")
        lines[0].append(size.1)
        lines[0].append("  ")
        lines[0].append(transportLabel)

        lines[1].append("FPS ")
        appendRate(to: &lines[1], link: link)
        lines[1].append("  ")
        if let clock {
            // `vsync present 144.0 Hz`, `timer 60 Hz (no Present)`: the source and its rate.
            clock.write(into: &lines[1], link: link)
            if case let .fixed(n) = frameRate {
                lines[1].append(", ")
                lines[1].append(n)
                lines[1].append(" fps")
            }
        } else {
            lines[1].append("target ")
        }
        switch frameRate {
        case _ where clock != nil: break
        case .display:
            lines[1].append("display rate")
        case let .fixed(n):
            lines[1].append(n)
            lines[1].append(" fps, budget ")
            lines[1].append(fixed: 1000 / Double(n), digits: 1)
            lines[1].append(" ms")
        case .unlimited:
            lines[1].append("max (unthrottled)")
        }

        lines[2].append("stage       p50 ms   p99 ms")
        var droppedLastSecond = 0
        for (offset, (stage, name)) in Self.stages.enumerated() {
            let p = statistics.durationPercentiles(of: stage)
            lines[3 + offset].append(name)
            lines[3 + offset].pad(to: 10)
            lines[3 + offset].appendRightAligned(width: 8) { $0.append(fixed: p.p50 * 1000, digits: 2) }
            lines[3 + offset].appendRightAligned(width: 9) { $0.append(fixed: p.p99 * 1000, digits: 2) }
            droppedLastSecond += statistics.dropsInLastSecond(blamedOn: stage)
        }
        let unattributed = statistics.dropsInLastSecond(blamedOn: .unattributed)
        droppedLastSecond += unattributed

        lines[7].append("dropped ")
        lines[7].append(statistics.framesDropped)
        lines[7].append(" total, ")
        lines[7].append(droppedLastSecond)
        lines[7].append(" last s")
        var blamed = false
        for (stage, name) in Self.stages {
            let recent = statistics.dropsInLastSecond(blamedOn: stage)
            guard recent > 0 else { continue }
            lines[7].append(blamed ? " " : ": ")
            lines[7].append(name)
            lines[7].append(" ")
            lines[7].append(recent)
            blamed = true
        }
        if unattributed > 0 {
            lines[7].append(blamed ? " other " : ": other ")
            lines[7].append(unattributed)
        }
        if let playback = shownPlayback {
            // `frame 12 / 60  paused  looping`, and the transport's keys.
            lines[8].append("frame ")
            lines[8].append(playback.frame)
            lines[8].append(" / ")
            lines[8].append(playback.frameCount)
            switch playback.direction {
            case .forward: lines[8].append("  playing")
            case .reverse: lines[8].append("  reverse")
            case .paused: lines[8].append("  paused")
            }
            lines[8].append(playback.isLooping ? "  looping" : "  once")
            lines[9].append("space pause  g/r  Left/Right  Home/End  l loop")
        } else {
            lines[8].append("g/space/Ret go  r reverse  p pause  Right step")
            lines[9].append("s slow  f overlay  c shot  1-6 orbit  Tab  q quit")
        }
    }

    private static let graphFrames = 120
    private static let compactGraphFrames = 60

    /// The last frame intervals (one per 2 pixels of `area`'s width) as 1-pixel bars 2 pixels apart
    /// (so steady frames read as bars, not a slab), full height = two budgets, with the budget
    /// line; a frame after a drop is red.
    private func drawGraph(into target: Bitmap, at area: IntRect, clip: IntRect, link: DisplayLink) {
        let statistics = link.statistics
        let budget = link.frameInterval > 0 ? link.frameInterval : frameRate.interval
        let kept = min(statistics.framesDelivered, statistics.historyCapacity)
        var index = 0, column = 0
        let skip = max(0, kept - area.width / 2)
        statistics.forEachRecentFrame { sample in
            defer { index += 1 }
            guard index >= skip, let interval = sample.interval else {
                if index >= skip { column += 1 }
                return
            }
            let fraction = min(1, interval / (2 * budget))
            let h = max(1, Int((fraction * Double(area.height)).rounded()))
            let color: UInt32 = sample.droppedFrames > 0 ? 0xFFFF_3030 : 0xFF40_D060
            target.fill(IntRect(x: area.x + column * 2, y: area.maxY - h, width: 1, height: h).intersection(clip), with: color)
            column += 1
        }
        let budgetY = area.maxY - area.height / 2
        target.fill(IntRect(x: area.x, y: budgetY, width: area.width, height: 1).intersection(clip), with: 0xFFFF_D040)
    }
}

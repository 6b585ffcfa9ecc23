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
/// The text is rebuilt four times a second (strings allocate); the bars are drawn every frame.
@MainActor
final class FPSOverlay {
    static let size = (width: 336, height: 196)
    private static let graphFrames = 120
    private static let stages: [(FrameStage, String)] = [(.animate, "animate"), (.draw, "draw"), (.composite, "composite"), (.present, "blit")]

    /// How frames reach the screen ("MIT-SHM", "XPutImage", "headless").
    var transportLabel: String
    /// The target rate, for the text and the budget line.
    var frameRate: FrameRate
    private var lines: [String] = []
    private var lastTextUpdate = -Double.infinity
    private let textColor = Color.white
    private let dimColor = Color(white: 0.7)

    init(transportLabel: String, frameRate: FrameRate) {
        self.transportLabel = transportLabel
        self.frameRate = frameRate
        lines.reserveCapacity(16)
    }

    /// Where the overlay goes in a frame of `bounds`: the top-left corner, inset by 8 pixels.
    func frame(in bounds: IntRect) -> IntRect {
        IntRect(x: 8, y: 8, width: Self.size.width, height: Self.size.height).intersection(bounds)
    }

    /// Draws the overlay into `rect` of `target`.
    func draw(into target: Bitmap, in rect: IntRect, scene: SceneKind, link: DisplayLink) {
        guard !rect.isEmpty else { return }
        dim(rect, of: target)
        let now = CACurrentMediaTime()
        if now - lastTextUpdate >= 0.25 {
            lastTextUpdate = now
            rebuildText(scene: scene, size: (target.width, target.height), statistics: link.statistics)
        }
        let font = PixelFont.standard
        var y = Double(rect.y + 6)
        for (i, line) in lines.enumerated() {
            font.draw(line, into: target, at: Point(x: Double(rect.x + 6), y: y), color: i >= lines.count - 2 ? dimColor : textColor)
            y += 11
            if i == lines.count - 3 { y += 58 }  // room for the graph above the keys
        }
        drawGraph(into: target, at: IntRect(x: rect.x + 6, y: rect.y + 6 + 11 * (lines.count - 2) + 2, width: Self.graphFrames * 2, height: 52),
                  clip: rect, statistics: link.statistics)
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

    private func rebuildText(scene: SceneKind, size: (Int, Int), statistics: FrameStatistics) {
        lines.removeAll(keepingCapacity: true)
        let target: String
        switch frameRate {
        case let .fixed(n): target = "\(n) fps, budget \(fixed(1000 / Double(n), 1)) ms"
        case .unlimited: target = "max (unthrottled)"
        }
        lines.append("\(scene.rawValue) \(size.0)x\(size.1)  \(transportLabel)")
        lines.append("FPS \(fixed(statistics.framesPerSecondLastSecond, 1))  target \(target)")
        lines.append("stage       p50 ms   p99 ms")
        var droppedLastSecond = 0, blame = ""
        for (stage, name) in Self.stages {
            let p = statistics.durationPercentiles(of: stage)
            lines.append(padRight(name, 10) + padLeft(fixed(p.p50 * 1000, 2), 8) + padLeft(fixed(p.p99 * 1000, 2), 9))
            let recent = statistics.dropsInLastSecond(blamedOn: stage)
            droppedLastSecond += recent
            if recent > 0 { blame += " \(name) \(recent)" }
        }
        let unattributed = statistics.dropsInLastSecond(blamedOn: .unattributed)
        droppedLastSecond += unattributed
        if unattributed > 0 { blame += " other \(unattributed)" }
        lines.append("dropped \(statistics.framesDropped) total, \(droppedLastSecond) last s" + (blame.isEmpty ? "" : ":" + blame))
        lines.append("g/space/Ret go  r reverse  p pause  Right step")
        lines.append("s slow  f overlay  c shot  1-6 orbit  Tab  q quit")
    }

    /// The last 120 frame intervals as 1-pixel bars 2 pixels apart (so steady frames read as bars,
    /// not a slab), full height = two budgets, with the budget line; a frame after a drop is red.
    private func drawGraph(into target: Bitmap, at area: IntRect, clip: IntRect, statistics: FrameStatistics) {
        let budget = frameRate.interval
        let kept = min(statistics.framesDelivered, statistics.historyCapacity)
        var index = 0, column = 0
        let skip = max(0, kept - Self.graphFrames)
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

// RunReport: the one-line summary every run ends with, and the --stats JSON file.

import DisplayClock

/// What a run did, for the summary line and `--stats`.
struct RunReport {
    var scene: SceneKind
    var width: Int
    var height: Int
    var mode: String
    var log: FrameLog
    var statistics: FrameStatistics
    /// Wall-clock seconds from the first frame's start to the last frame's end.
    var elapsed: Double

    private static let stages: [(FrameStage, String)] = [(.animate, "animate"), (.draw, "draw"), (.composite, "composite"), (.present, "blit")]

    /// When set, the FPS to report instead of frames over elapsed time: a window reports the
    /// display link's overall rate, which leaves out the time it slept with nothing to animate.
    var measuredFramesPerSecond: Double?

    /// What paced a window's frames (`vsync present 144.0 Hz`), for the summary line, and its
    /// `"clock"` object for `--stats`; nil headless.
    var clockLabel: String?
    var clockJSON: String?

    var framesPerSecond: Double { measuredFramesPerSecond ?? (elapsed > 0 ? Double(log.count) / elapsed : 0) }

    /// `arrow 1920x1080 headless: 600 frames in 1.52 s, 394.7 FPS, drops 0 (animate 0, draw 0, composite 0, blit 0), frame time p50 2.41 ms p99 3.10 ms`
    var summary: String {
        let drops = Self.stages.map { "\($0.1) \(statistics.drops(blamedOn: $0.0))" }.joined(separator: ", ")
        let other = statistics.drops(blamedOn: .unattributed)
        return "\(scene.rawValue) \(width)x\(height) \(mode): \(log.count) frames in \(fixed(elapsed, 2)) s, "
            + "\(fixed(framesPerSecond, 1)) FPS, drops \(statistics.framesDropped) (\(drops)\(other > 0 ? ", other \(other)" : "")), "
            + "frame time p50 \(fixed(log.totalPercentile(0.5) * 1000, 2)) ms p99 \(fixed(log.totalPercentile(0.99) * 1000, 2)) ms"
            + (clockLabel.map { ", \($0)" } ?? "")
    }

    /// The per-frame stage timings (milliseconds) and the summary, as JSON.
    var json: String {
        var out = "{\n  \"scene\": \"\(scene.rawValue)\",\n  \"width\": \(width),\n  \"height\": \(height),\n"
        out += "  \"mode\": \"\(mode)\",\n  \"frameCount\": \(log.count),\n  \"elapsedSeconds\": \(elapsed),\n"
        out += "  \"framesPerSecond\": \(framesPerSecond),\n  \"framesDropped\": \(statistics.framesDropped),\n"
        out += "  \"dropsByStage\": {" + Self.stages.map { "\"\($0.1)\": \(statistics.drops(blamedOn: $0.0))" }.joined(separator: ", ")
        out += ", \"unattributed\": \(statistics.drops(blamedOn: .unattributed))},\n"
        let intervals = statistics.intervalPercentiles()
        out += "  \"frameIntervalMs\": {\"p50\": \(intervals.p50 * 1000), \"p99\": \(intervals.p99 * 1000)},\n"
        out += "  \"frameTimeMs\": {\"p50\": \(log.totalPercentile(0.5) * 1000), \"p99\": \(log.totalPercentile(0.99) * 1000)},\n"
        if let clockJSON { out += "  \"clock\": \(clockJSON),\n" }
        out += "  \"summary\": \"\(summary)\",\n  \"frames\": [\n"
        for (i, r) in log.records.enumerated() {
            out += "    {\"index\": \(i), \"mediaTime\": \(r.mediaTime), \"animateMs\": \(r.animate * 1000), \"drawMs\": \(r.draw * 1000), "
            out += "\"compositeMs\": \(r.composite * 1000), \"blitMs\": \(r.blit * 1000), \"totalMs\": \(r.total * 1000), \"dropped\": \(r.dropped)\(r.msc.map { ", \"msc\": \($0)" } ?? "")"
            if let tick = r.tick {
                out += ", \"tickTimestamp\": \(tick.timestamp), \"tickTime\": \(tick.time)\(tick.vblankUST.map { ", \"vblankUST\": \($0)" } ?? "")"
            }
            out += "}"
            out += i == log.records.count - 1 ? "\n" : ",\n"
        }
        out += "  ]\n}\n"
        return out
    }
}

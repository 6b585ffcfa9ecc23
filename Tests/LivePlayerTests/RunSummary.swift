import Foundation

/// The figures of the line every run ends with, parsed, so that tests assert on numbers rather
/// than on text: `pk 96x64 headless: 181 frames in 1.47 s, 122.9 FPS, drops 0 (animate 0, …),
/// frame time p50 8.04 ms p99 17.91 ms`.
struct RunSummary: Equatable {
    var scene: String
    var width: Int
    var height: Int
    var mode: String
    var frames: Int
    var seconds: Double
    var framesPerSecond: Double
    var drops: Int
    var p50Milliseconds: Double
    var p99Milliseconds: Double

    /// The summary in `output` (the last line that parses), or `nil`.
    init?(in output: String) {
        for line in output.split(separator: "\n").reversed() {
            if let summary = RunSummary(line: String(line)) {
                self = summary
                return
            }
        }
        return nil
    }

    private init?(line: String) {
        let pattern = #/^(\w+) (\d+)x(\d+) ([^:]+): (\d+) frames in ([\d.]+) s, ([\d.]+) FPS, drops (\d+) \(.*\), frame time p50 ([\d.]+) ms p99 ([\d.]+) ms$/#
        guard let m = line.wholeMatch(of: pattern),
              let width = Int(m.2), let height = Int(m.3), let frames = Int(m.5), let seconds = Double(m.6),
              let fps = Double(m.7), let drops = Int(m.8), let p50 = Double(m.9), let p99 = Double(m.10)
        else { return nil }
        self.init(scene: String(m.1), width: width, height: height, mode: String(m.4), frames: frames, seconds: seconds,
                  framesPerSecond: fps, drops: drops, p50Milliseconds: p50, p99Milliseconds: p99)
    }

    private init(scene: String, width: Int, height: Int, mode: String, frames: Int, seconds: Double,
                 framesPerSecond: Double, drops: Int, p50Milliseconds: Double, p99Milliseconds: Double) {
        self.scene = scene
        self.width = width
        self.height = height
        self.mode = mode
        self.frames = frames
        self.seconds = seconds
        self.framesPerSecond = framesPerSecond
        self.drops = drops
        self.p50Milliseconds = p50Milliseconds
        self.p99Milliseconds = p99Milliseconds
    }
}

// ConformanceRule: the Lottie corpus's scoring rule (../shared/lottie/README.md), in Swift.

import Raster

/// How one rendered frame compares with one reference frame under the corpus's rule.
public struct FrameScore: Sendable, Equatable {
    /// The fraction of bad pixels (0...1).
    public var badFraction: Double
    /// Intersection over union of the pixels with alpha ≥ 128 in either image.
    public var inkIoU: Double

    /// At most 1 % bad pixels and an ink IoU of at least 0.95.
    public var passes: Bool { badFraction <= ConformanceRule.maximumBad && inkIoU >= ConformanceRule.minimumIoU }
}

/// The scoring rule of the Lottie corpus.
///
/// Both images are composited over white and, separately, over black. A pixel is bad when, over
/// either background, its largest channel difference exceeds 0.1 against every pixel of the
/// other image within one pixel of it, checked both ways (so a one-pixel shift is forgiven but
/// a missing thin line is not). A frame passes when at most 1 % of its pixels are bad and the
/// ink IoU is at least 0.95.
public enum ConformanceRule {
    public static let tolerance = 0.1
    public static let maximumBad = 0.01
    public static let minimumIoU = 0.95

    /// Scores `ours` against `reference` (same size; otherwise every pixel counts as bad).
    public static func score(_ ours: Bitmap, against reference: Bitmap) -> FrameScore {
        guard ours.width == reference.width, ours.height == reference.height else { return FrameScore(badFraction: 1, inkIoU: 0) }
        let w = ours.width, h = ours.height
        // Premultiplied pixels composite over black as they are, and over white by adding 1 − alpha.
        func channels(_ p: UInt32, over background: Int) -> (Int, Int, Int) {
            let a = Int(p >> 24), r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
            let add = background * (255 - a)
            return (r + add, g + add, b + add)
        }
        let limit = Int((tolerance * 255).rounded(.down))  // differences are whole steps of 1/255
        var bad = [Bool](repeating: false, count: w * h)
        for background in 0...1 {
            for y in 0..<h {
                for x in 0..<w {
                    let o = channels(ours[x, y], over: background), r = channels(reference[x, y], over: background)
                    guard differs(o, r, limit) else { continue }
                    var oursUnmatched = true, referenceUnmatched = true
                    for dy in -1...1 {
                        for dx in -1...1 where dx != 0 || dy != 0 {
                            let nx = min(w - 1, max(0, x + dx)), ny = min(h - 1, max(0, y + dy))
                            if oursUnmatched && !differs(o, channels(reference[nx, ny], over: background), limit) { oursUnmatched = false }
                            if referenceUnmatched && !differs(r, channels(ours[nx, ny], over: background), limit) { referenceUnmatched = false }
                        }
                    }
                    if oursUnmatched || referenceUnmatched { bad[y * w + x] = true }
                }
            }
        }
        var union = 0, intersection = 0
        for y in 0..<h {
            for x in 0..<w {
                let a = ours[x, y] >> 24 >= 128, b = reference[x, y] >> 24 >= 128
                if a || b { union += 1 }
                if a && b { intersection += 1 }
            }
        }
        let badCount = bad.reduce(0) { $0 + ($1 ? 1 : 0) }
        return FrameScore(badFraction: Double(badCount) / Double(w * h),
                          inkIoU: union == 0 ? 1 : Double(intersection) / Double(union))
    }

    private static func differs(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ limit: Int) -> Bool {
        abs(a.0 - b.0) > limit || abs(a.1 - b.1) > limit || abs(a.2 - b.2) > limit
    }
}

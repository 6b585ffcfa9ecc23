// ConformanceRule: the Lottie corpus's scoring rule (../shared/lottie/README.md), in Swift.

import Raster

/// Premultiplied ARGB pixels, as a value that can cross actors.
public struct PixelImage: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixels of `bitmap`.
    public init(_ bitmap: Bitmap) {
        var pixels: [UInt32] = []
        pixels.reserveCapacity(bitmap.width * bitmap.height)
        bitmap.withUnsafeMutablePixels { buffer in
            for y in 0..<bitmap.height {
                let row = y * bitmap.stride
                pixels.append(contentsOf: buffer[row..<row + bitmap.width])
            }
        }
        self.init(width: bitmap.width, height: bitmap.height, pixels: pixels)
    }
}

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

    /// Channel differences are whole steps of 1/255: more than 0.1 is more than 25 steps.
    private static let limit = Int((tolerance * 255).rounded(.down))

    public static func score(_ ours: Bitmap, against reference: Bitmap) -> FrameScore {
        score(PixelImage(ours), against: PixelImage(reference))
    }

    /// Scores `ours` against `reference` (same size; otherwise every pixel counts as bad).
    public static func score(_ ours: PixelImage, against reference: PixelImage) -> FrameScore {
        guard ours.width == reference.width, ours.height == reference.height else { return FrameScore(badFraction: 1, inkIoU: 0) }
        let w = ours.width, h = ours.height
        let o = ours.pixels, r = reference.pixels
        var bad = 0, union = 0, intersection = 0
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let p = o[i], q = r[i]
                let inkP = p >> 24 >= 128, inkQ = q >> 24 >= 128
                if inkP || inkQ { union += 1 }
                if inkP && inkQ { intersection += 1 }
                // Only pixels that differ where they are can be bad.
                if p == q || !differs(p, q, over: 0) && !differs(p, q, over: 1) { continue }
                var isBad = false
                for background in 0...1 where differs(p, q, over: background) {
                    var oursUnmatched = true, referenceUnmatched = true
                    for dy in -1...1 {
                        let ny = min(h - 1, max(0, y + dy))
                        for dx in -1...1 where dx != 0 || dy != 0 {
                            let j = ny * w + min(w - 1, max(0, x + dx))
                            if oursUnmatched && !differs(p, r[j], over: background) { oursUnmatched = false }
                            if referenceUnmatched && !differs(q, o[j], over: background) { referenceUnmatched = false }
                        }
                    }
                    if oursUnmatched || referenceUnmatched { isBad = true; break }
                }
                if isBad { bad += 1 }
            }
        }
        return FrameScore(badFraction: Double(bad) / Double(w * h), inkIoU: union == 0 ? 1 : Double(intersection) / Double(union))
    }

    /// Whether two premultiplied pixels differ by more than the tolerance in a channel, composited
    /// over black (`background` 0: the channels as they are) or white (1: plus 1 − alpha).
    @inline(__always)
    private static func differs(_ p: UInt32, _ q: UInt32, over background: Int) -> Bool {
        let da = background == 0 ? 0 : Int(q >> 24) - Int(p >> 24)
        let dr = Int((p >> 16) & 0xFF) - Int((q >> 16) & 0xFF) + da
        let dg = Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF) + da
        let db = Int(p & 0xFF) - Int(q & 0xFF) + da
        return dr > limit || dr < -limit || dg > limit || dg < -limit || db > limit || db < -limit
    }
}

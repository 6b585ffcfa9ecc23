import Foundation
@testable import Raster
import Testing

/// ``TrackedCoverage`` reports the pixels whose coverage changed, not whole rows of the shape.
@Suite struct TrackedCoverageTests {
    static func recording(_ rect: Rect, clip: IntRect) -> FillRecording {
        let recording = FillRecording()
        let context = GraphicsContext(recordingInto: recording, clip: clip)
        context.setFillColor(.white)
        context.fill(rect)
        return recording
    }

    /// One update: the rectangles reported, and the mask afterwards.
    static func update(_ coverage: TrackedCoverage, _ rect: Rect, clip: IntRect) -> [IntRect] {
        var changed: [IntRect] = []
        coverage.update(recording(rect, clip: clip), transform: .identity, alpha: 255, clip: clip) { changed.append($0) }
        return changed
    }

    /// A bar lengthened by 10 pixels on the right changes 10 columns of each of its rows: the
    /// damage holds those columns, not the bar's whole width (its rows' spans grew, and the
    /// columns they share with last frame's spans are unchanged). Shortened, the same. The
    /// rasterizer's edge cells reach up to two pixels past an edge, so the damage may too.
    @Test(arguments: [(0.0, 300.0, 310.0), (0.5, 300.5, 310.5), (20.0, 310.0, 300.0)])
    func aLengthenedSpanDamagesOnlyItsNewColumns(left: Double, before: Double, after: Double) throws {
        let clip = IntRect(x: 0, y: 0, width: 400, height: 40)
        let coverage = try TrackedCoverage(width: 400, height: 40)
        _ = Self.update(coverage, Rect(x: left, y: 10, width: before - left, height: 20), clip: clip)
        let changed = Self.update(coverage, Rect(x: left, y: 10, width: after - left, height: 20), clip: clip)
        let area = changed.reduce(0) { $0 + $1.area }
        let lo = Int(min(before, after).rounded(.down)) - 2, hi = Int(max(before, after).rounded(.up)) + 2
        #expect(area > 0)
        #expect(area <= (hi - lo) * 20, "changed \(changed)")
        for rect in changed { #expect(rect.x >= lo && rect.maxX <= hi, "\(rect) outside columns \(lo)..<\(hi)") }
        // The mask holds the new bar exactly.
        let fresh = try TrackedCoverage(width: 400, height: 40)
        _ = Self.update(fresh, Rect(x: left, y: 10, width: after - left, height: 20), clip: clip)
        for y in 0..<40 {
            for x in 0..<400 { #expect(coverage.mask[x, y] == fresh.mask[x, y], "(\(x), \(y))") }
        }
    }
}

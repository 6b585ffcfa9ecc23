@testable import LiveLayers
import Raster
import Testing

/// ``DamageRegion`` merges rectangles only where the union adds few pixels.
@Suite struct DamageRegionTests {
    /// A moving shape's damage comes as bands of rows of growing width (the arrow's head, a
    /// triangle): the bands stay a few rectangles holding about their own pixels, not one box.
    @Test func bandsOfATriangleAreNotMergedIntoItsBox() {
        var region = DamageRegion()
        var bands = 0
        for k in 0..<10 {
            region.add(IntRect(x: 100, y: 16 * k, width: 8 + 12 * k, height: 16))
            bands += 16 * (8 + 12 * k)
        }
        let area = region.rects.reduce(0) { $0 + $1.area }
        #expect(region.rects.count <= DamageRegion.maximumCount)
        #expect(area <= bands * 5 / 4, "\(region.rects): \(area) pixels for \(bands)")
        for k in 0..<10 {
            let band = IntRect(x: 100, y: 16 * k, width: 8 + 12 * k, height: 16)
            #expect(coveredByUnion(band, region.rects), "\(band) not covered by \(region.rects)")
        }
    }

    /// More rectangles than the maximum, far apart: the two whose union adds fewest merge, and
    /// every rectangle is still covered.
    @Test func pastTheMaximumTheCheapestPairMerges() {
        var region = DamageRegion()
        var added: [IntRect] = []
        for k in 0..<(DamageRegion.maximumCount + 3) {
            let r = IntRect(x: 200 * k, y: (k % 2) * 300, width: 20, height: 20)
            added.append(r)
            region.add(r)
        }
        #expect(region.rects.count <= DamageRegion.maximumCount)
        for r in added { #expect(region.rects.contains { $0.intersection(r) == r }, "\(r) not covered by \(region.rects)") }
        let area = region.rects.reduce(0) { $0 + $1.area }
        let box = added.dropFirst().reduce(added[0]) { $0.union($1) }
        #expect(area < box.area / 4, "merged into \(region.rects)")
    }

    /// Whether `rects` (disjoint) cover every pixel of `band`.
    private func coveredByUnion(_ band: IntRect, _ rects: [IntRect]) -> Bool {
        rects.reduce(0) { $0 + $1.intersection(band).area } == band.area
    }
}

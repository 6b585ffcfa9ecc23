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

    /// The merging arithmetic is the union's area, to the pixel: random rectangles (overlapping,
    /// touching, far apart, one inside another) merge into the same rectangles as a reference
    /// that forms each union and measures it.
    @Test func mergesExactlyAsTheUnionsAreaSays() {
        var random = SplitMix(seed: 9)
        for _ in 0..<300 {
            var region = DamageRegion()
            var reference = ReferenceRegion()
            for _ in 0..<Int(random.next() % 40 + 1) {
                let r = IntRect(x: Int(random.next() % 1900) - 100, y: Int(random.next() % 1100) - 100,
                                width: Int(random.next() % 90), height: Int(random.next() % 90))
                region.add(r)
                reference.add(r)
                #expect(region.rects == reference.rects)
            }
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

/// ``DamageRegion``'s rules written with `IntRect`'s own union, intersection and area.
private struct ReferenceRegion {
    var rects: [IntRect] = []

    mutating func add(_ rect: IntRect) {
        guard !rect.isEmpty else { return }
        insert(rect)
    }

    private mutating func insert(_ rect: IntRect) {
        for other in rects where other.intersection(rect) == rect { return }
        var r = rect
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < rects.count {
                let other = rects[i], union = r.union(other)
                if !r.intersection(other).isEmpty || union.area - r.area - other.area <= DamageRegion.mergeWaste {
                    r = union
                    rects.swapAt(i, rects.count - 1)
                    rects.removeLast()
                    merged = true
                } else {
                    i += 1
                }
            }
        }
        rects.append(r)
        while rects.count > DamageRegion.maximumCount {
            var best = (i: 0, j: 1, waste: Int.max)
            for i in 0..<rects.count {
                for j in (i + 1)..<rects.count {
                    let waste = rects[i].union(rects[j]).area - rects[i].area - rects[j].area
                    if waste < best.waste { best = (i, j, waste) }
                }
            }
            let union = rects[best.i].union(rects[best.j])
            rects.swapAt(best.j, rects.count - 1)
            rects.removeLast()
            rects.swapAt(best.i, rects.count - 1)
            rects.removeLast()
            insert(union)
        }
    }
}

// DamageRegion: the pixel rectangles that changed in a frame, merged into a few.

import Raster

/// A small set of pixel rectangles covering every changed pixel.
///
/// Rectangles are merged when they overlap or when merging them wastes little area, and all of
/// them collapse into one beyond ``maximumCount``, so the presenter blits a handful of regions.
struct DamageRegion {
    static let maximumCount = 8
    private(set) var rects: [IntRect] = []
    /// How many non-empty rectangles were added so far (never reset): a subtree whose
    /// preparation left it unchanged changed nothing (cached offscreen pictures).
    private(set) var additions = 0

    init() {
        rects.reserveCapacity(Self.maximumCount * 2)
    }

    mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    var isEmpty: Bool { rects.isEmpty }

    mutating func add(_ rect: IntRect) {
        guard !rect.isEmpty else { return }
        additions &+= 1
        // Already covered (the common case once a busy frame's damage has grown): nothing to do.
        for other in rects where other.x <= rect.x && other.y <= rect.y && other.maxX >= rect.maxX && other.maxY >= rect.maxY {
            return
        }
        var r = rect
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < rects.count {
                let other = rects[i]
                let union = r.union(other)
                // Merge when the union costs at most a quarter more than the two apart.
                if !r.intersection(other).isEmpty || union.area * 4 <= (r.area + other.area) * 5 {
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
        if rects.count > Self.maximumCount {
            var all = rects[0]
            for other in rects.dropFirst() { all = all.union(other) }
            rects.removeAll(keepingCapacity: true)
            rects.append(all)
        }
    }

    mutating func clip(to bounds: IntRect) {
        var i = 0
        while i < rects.count {
            rects[i] = rects[i].intersection(bounds)
            if rects[i].isEmpty { rects.swapAt(i, rects.count - 1); rects.removeLast() } else { i += 1 }
        }
    }
}

// DamageRegion: the pixel rectangles that changed in a frame, merged into a few.

import Raster

/// A small set of pixel rectangles covering every changed pixel.
///
/// Rectangles are merged when they overlap or when their union adds at most ``mergeWaste``
/// pixels, and beyond ``maximumCount`` the two whose union adds fewest are merged, so the
/// presenter blits a handful of regions.
struct DamageRegion {
    static let maximumCount = 8
    /// Each rectangle costs a walk of the layer tree to redraw it, about as long as redrawing a
    /// few hundred pixels; merging costs every pixel the union adds. A bound relative to the
    /// rectangles' areas (a quarter, before) chained the 16-row bands of a moving shape's damage
    /// into one box: the arrow's head, a triangle, damaged twice the pixels that changed.
    static let mergeWaste = 512
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
        insert(rect)
    }

    private mutating func insert(_ rect: IntRect) {
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
                if Self.overlap(r, other) || Self.waste(r, other) <= Self.mergeWaste {
                    r = r.union(other)
                    rects.swapAt(i, rects.count - 1)
                    rects.removeLast()
                    merged = true
                } else {
                    i += 1
                }
            }
        }
        rects.append(r)
        while rects.count > Self.maximumCount { mergeCheapestPair() }
    }

    /// Replaces the two rectangles whose union adds the fewest pixels by that union (and any
    /// rectangle it then overlaps).
    private mutating func mergeCheapestPair() {
        var best = (i: 0, j: 1, waste: Int.max)
        for i in 0..<rects.count {
            let a = rects[i]
            for j in (i + 1)..<rects.count {
                let waste = Self.waste(a, rects[j])
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

    // The region's rectangles are never empty, so a union needs none of `IntRect.union`'s
    // cases, and its area is taken with wrapping arithmetic: device rectangles lie within ±2^30
    // (`IntRect(enclosing:)`), and for an absurd one a wrong figure changes only which
    // rectangles merge, never what they cover. With the checks and clamps, each pair of a
    // busy frame's search cost ~60 instructions: half of a frame of 100 scattered layers went to
    // merging its damage.

    /// Whether two non-empty rectangles share a pixel.
    @inline(__always)
    private static func overlap(_ a: IntRect, _ b: IntRect) -> Bool {
        max(a.x, b.x) < min(a.x &+ a.width, b.x &+ b.width) && max(a.y, b.y) < min(a.y &+ a.height, b.y &+ b.height)
    }

    /// The pixels that the union of two non-empty rectangles adds to them.
    @inline(__always)
    private static func waste(_ a: IntRect, _ b: IntRect) -> Int {
        let width = max(a.x &+ a.width, b.x &+ b.width) &- min(a.x, b.x)
        let height = max(a.y &+ a.height, b.y &+ b.height) &- min(a.y, b.y)
        return width &* height &- a.width &* a.height &- b.width &* b.height
    }

    mutating func clip(to bounds: IntRect) {
        var i = 0
        while i < rects.count {
            rects[i] = rects[i].intersection(bounds)
            if rects[i].isEmpty { rects.swapAt(i, rects.count - 1); rects.removeLast() } else { i += 1 }
        }
    }
}

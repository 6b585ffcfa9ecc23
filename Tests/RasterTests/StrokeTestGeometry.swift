// Test-only geometry for stroke outlines: winding numbers and areas measured independently of
// the rasterizer, on the flattened outline.
import Raster

/// A path flattened into edges, with the winding number of any point (the non-zero rule's input).
struct FlatOutline {
    private(set) var edges: [(Point, Point)] = []
    private(set) var bounds = Rect.zero

    init(_ path: Path, tolerance: Double = 0.005) {
        var start = Point.zero, last = Point.zero, started = false
        var collected: [(Point, Point)] = []
        path.forEachFlattened(tolerance: tolerance) { element in
            switch element {
            case let .move(p):
                if started, last != start { collected.append((last, start)) }
                start = p; last = p; started = true
            case let .line(p):
                collected.append((last, p)); last = p
            case .close:
                if last != start { collected.append((last, start)) }
                last = start
            }
        }
        if started, last != start { collected.append((last, start)) }
        edges = collected
        bounds = path.boundingBox
    }

    /// The winding number of `p`: +1 for each edge crossing upward on its left, −1 downward.
    func winding(at p: Point) -> Int {
        var w = 0
        for (a, b) in edges {
            let side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
            if a.y <= p.y {
                if b.y > p.y, side > 0 { w += 1 }
            } else if b.y <= p.y, side < 0 {
                w -= 1
            }
        }
        return w
    }

    /// The area where the winding number is not zero, by sampling the centres of a grid of
    /// `step`-sized cells over the bounds (row by row: the crossings of each sample row, sorted,
    /// give the winding along it); also reports whether windings of both signs occurred.
    func nonzeroArea(step: Double) -> (area: Double, mixedSigns: Bool) {
        var count = 0, positive = false, negative = false
        var crossings: [(x: Double, delta: Int)] = []
        let x0 = (bounds.minX / step).rounded(.down) * step + step / 2
        var y = (bounds.minY / step).rounded(.down) * step + step / 2
        while y < bounds.maxY {
            crossings.removeAll(keepingCapacity: true)
            for (a, b) in edges where (a.y <= y) != (b.y <= y) {
                let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                crossings.append((x, a.y <= y ? 1 : -1))
            }
            crossings.sort { $0.x < $1.x }
            // The winding at a sample is minus the sum of deltas of crossings to its right, which
            // equals the sum of deltas to its left (every row's deltas sum to zero).
            var w = 0, next = 0
            var x = x0
            while x < bounds.maxX {
                while next < crossings.count, crossings[next].x < x { w -= crossings[next].delta; next += 1 }
                if w != 0 { count += 1 }
                if w > 0 { positive = true } else if w < 0 { negative = true }
                x += step
            }
            y += step
        }
        return (Double(count) * step * step, positive && negative)
    }
}

/// The distance from `p` to the segment from `a` to `b`.
func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
    let d = b - a, len2 = d.x * d.x + d.y * d.y
    guard len2 > 0 else { return p.distance(to: a) }
    let t = min(1, max(0, ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / len2))
    return p.distance(to: a + d * t)
}

/// A small deterministic random generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Path {
    /// The points of a path of straight lines, for checking the ends of pieces.
    var subpathEndpoints: [(start: Point, end: Point)] {
        var result: [(Point, Point)] = []
        for element in elements {
            switch element {
            case let .move(p): result.append((p, p))
            case let .line(p), let .quadCurve(p, _), let .curve(p, _, _):
                if !result.isEmpty { result[result.count - 1].1 = p }
            case .closeSubpath:
                if !result.isEmpty { result[result.count - 1].1 = result[result.count - 1].0 }
            }
        }
        return result
    }

    /// The number of subpaths (moves).
    var subpathCount: Int { elements.filter { if case .move = $0 { true } else { false } }.count }
}

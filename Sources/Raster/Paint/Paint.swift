// Paint and Gradient: what a fill draws with.

/// What filled shapes are painted with.
///
/// Coordinates are in user space: the context's transform at the time of drawing maps them to
/// device pixels, as in Core Graphics.
public enum Paint {
    /// One colour.
    case solid(Color)
    /// A gradient along the line from `start` to `end`, extended with its end colours beyond them.
    case linearGradient(Gradient, start: Point, end: Point)
    /// A gradient from `center` (location 0) out to `radius` (location 1), extended beyond.
    case radialGradient(Gradient, center: Point, radius: Double)
    /// A bitmap, mapped from image space (pixels, origin top-left) to user space by `transform`,
    /// sampled bilinearly; transparent outside the image.
    case image(Bitmap, transform: Transform)
}

/// Colours at locations along 0...1, interpolated in premultiplied space (CGGradient).
public struct Gradient: Hashable, Sendable {
    /// One colour at one location.
    public struct Stop: Hashable, Sendable {
        public var location: Double
        public var color: Color
        public init(location: Double, color: Color) {
            self.location = location
            self.color = color
        }
    }

    /// The stops, sorted by location; non-finite locations are dropped, the rest clamped to 0...1.
    public private(set) var stops: [Stop]

    /// Creates a gradient from its stops, in any order.
    public init(stops: [(location: Double, color: Color)]) {
        self.stops = stops
            .filter { $0.location.isFinite }
            .map { Stop(location: min(1, max(0, $0.location)), color: $0.color) }
            .sorted { $0.location < $1.location }
    }

    /// Replaces the stops with `colors` at `locations` (spread evenly when `locations` is `nil`
    /// or has another count, as `CAGradientLayer` does), with the same clamping and sorting as
    /// ``init(stops:)``, in the existing storage: nothing is allocated when it is not shared
    /// and has room. Returns whether the stops changed.
    @discardableResult
    public mutating func setStops(colors: [Color], locations: [Double]?) -> Bool {
        let n = colors.count
        let given = locations.flatMap { $0.count == n ? $0 : nil }
        var changed = false, w = 0
        for i in 0..<n {
            let location = given?[i] ?? (n == 1 ? 0 : Double(i) / Double(n - 1))
            guard location.isFinite else { continue }
            let stop = Stop(location: min(1, max(0, location)), color: colors[i])
            if w < stops.count {
                if stops[w] != stop { stops[w] = stop; changed = true }
            } else {
                stops.append(stop)
                changed = true
            }
            w += 1
        }
        if w < stops.count {
            stops.removeLast(stops.count - w)
            changed = true
        }
        // Insertion sort: stable, in place, and stops are few. (Unchanged stops were sorted
        // already, so an unsorted input always reads as changed above.)
        if changed {
            for i in stops.indices.dropFirst() {
                var j = i
                while j > 0 && stops[j - 1].location > stops[j].location {
                    stops.swapAt(j - 1, j)
                    j -= 1
                }
            }
        }
        return changed
    }

    /// A two-colour gradient from `start` at 0 to `end` at 1.
    public init(from start: Color, to end: Color) {
        self.init(stops: [(0, start), (1, end)])
    }

    /// The colour at `t`, clamped to the end stops.
    public func color(at t: Double) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        var i = 1
        while stops[i].location < t { i += 1 }
        let a = stops[i - 1], b = stops[i]
        let span = b.location - a.location
        return span > 0 ? a.color.interpolated(to: b.color, fraction: (t - a.location) / span) : b.color
    }

    /// Fills `table` (256 entries) with premultiplied pixels for t = i/255.
    func fillLookupTable(_ table: UnsafeMutablePointer<UInt32>) {
        for i in 0..<256 { table[i] = color(at: Double(i) / 255).premultipliedPixel }
    }
}

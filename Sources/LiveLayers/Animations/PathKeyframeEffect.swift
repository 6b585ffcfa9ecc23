// PathKeyframeEffect: a point moving along a path, optionally turning with it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// A path as cubic segments with arc-length tables, for keyframe animation along it.
///
/// Lines and quadratic curves are raised to cubics, so one evaluation covers every element;
/// a move starts the next segment from the new point (the value jumps, as in Core Animation).
/// The tables of all segments are one array, so that rebuilding the track for another path
/// (a reused evaluator) reuses its storage.
struct PathTrack {
    struct Segment {
        var p0, p1, p2, p3: Point

        func point(at u: Double) -> Point {
            let v = 1 - u
            let a = v * v * v, b = 3 * v * v * u, c = 3 * v * u * u, d = u * u * u
            return Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }

        func tangent(at u: Double) -> Point {
            let v = 1 - u
            let d = 3 * v * v * (p1 - p0) + 6 * v * u * (p2 - p1) + 3 * u * u * (p3 - p2)
            if d.x * d.x + d.y * d.y > 1e-18 { return d }
            return p3 - p0
        }
    }

    static let samples = 32
    private(set) var segments: [Segment] = []
    /// Segment after segment, the cumulative arc length at `samples + 1` evenly spaced
    /// parameters (0 first).
    private(set) var lengths: [Double] = []

    /// Makes the track `path`'s, in the storage it has; false (with a warning) when the path
    /// has no segment.
    mutating func rebuild(from path: Path) -> Bool {
        segments.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        var current = Point.zero, start = Point.zero
        for element in path.elements {
            switch element {
            case let .move(p):
                current = p; start = p
            case let .line(p):
                addLine(current, p); current = p
            case let .quadCurve(p, c):
                add(current, current + (c - current) * (2.0 / 3), p + (c - p) * (2.0 / 3), p); current = p
            case let .curve(p, c1, c2):
                add(current, c1, c2, p); current = p
            case .closeSubpath:
                if current != start { addLine(current, start) }
                current = start
            }
        }
        guard !segments.isEmpty else {
            Diagnostics.warn("a keyframe path has no segment after its move; the animation is ignored")
            return false
        }
        return true
    }

    private mutating func add(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
        let s = Segment(p0: p0, p1: p1, p2: p2, p3: p3)
        var length = 0.0
        lengths.append(length)
        var previous = p0
        for k in 1...PathTrack.samples {
            let q = s.point(at: Double(k) / Double(PathTrack.samples))
            length += previous.distance(to: q)
            lengths.append(length)
            previous = q
        }
        segments.append(s)
    }

    private mutating func addLine(_ a: Point, _ b: Point) {
        add(a, a.interpolated(to: b, at: 1.0 / 3), a.interpolated(to: b, at: 2.0 / 3), b)
    }

    var segmentCount: Int { segments.count }

    /// The arc length of segment `i`.
    func length(of i: Int) -> Double { lengths[i * (Self.samples + 1) + Self.samples] }

    /// The parameter at which segment `i`'s arc length is `fraction` of its whole.
    func parameter(ofSegment i: Int, atLengthFraction fraction: Double) -> Double {
        let base = i * (Self.samples + 1)
        let total = lengths[base + Self.samples]
        guard total > 0 else { return fraction }
        let target = fraction * total
        let n = Self.samples
        var k = 0
        while k < n - 1 && lengths[base + k + 1] < target { k += 1 }
        let l0 = lengths[base + k], l1 = lengths[base + k + 1]
        let local = l1 > l0 ? (target - l0) / (l1 - l0) : 0
        return (Double(k) + local) / Double(n)
    }
}

@MainActor
final class PathKeyframeEffect: AnimationEffect {
    // Variables only for `rebuild` and `refill`, which a retired record's evaluator gets when
    // its layer adds another path animation; unchecked, since no access to them overlaps another.
    @exclusivity(unchecked) private(set) var accessor: PropertyAccessor<Point>
    @exclusivity(unchecked) private(set) var timing: TimingModel
    @exclusivity(unchecked) private(set) var timingFunction: TimingFunction?
    @exclusivity(unchecked) private(set) var track: PathTrack
    @exclusivity(unchecked) private(set) var schedule: KeyframeSchedule
    @exclusivity(unchecked) private(set) var isPaced: Bool
    @exclusivity(unchecked) private(set) var rotationMode: RotationMode?

    init(accessor: PropertyAccessor<Point>, timing: TimingModel, timingFunction: TimingFunction?, track: PathTrack,
         schedule: KeyframeSchedule, isPaced: Bool, rotationMode: RotationMode?) {
        self.accessor = accessor
        self.timing = timing
        self.timingFunction = timingFunction
        self.track = track
        self.schedule = schedule
        self.isPaced = isPaced
        self.rotationMode = rotationMode
    }

    /// Lets `body` rebuild the track and schedule in place, for another animation: this
    /// evaluator is no longer used by its old one.
    func rebuild(_ body: (inout PathTrack, inout KeyframeSchedule) -> Bool) -> Bool {
        body(&track, &schedule)
    }

    /// Sets the rest of what a new evaluator made with these arguments would have.
    func refill(accessor: PropertyAccessor<Point>, timing: TimingModel, timingFunction: TimingFunction?, isPaced: Bool,
                rotationMode: RotationMode?) {
        self.accessor = accessor
        self.timing = timing
        self.timingFunction = timingFunction
        self.isPaced = isPaced
        self.rotationMode = rotationMode
    }

    var keyPath: String { accessor.key }
    var timingModel: TimingModel { timing }

    func collectWrittenKeyPaths(into keys: inout [String]) {
        keys.append(keyPath)
        if rotationMode != nil { keys.append("transform") }     // turned along the path
    }

    func apply(to layer: Layer, parentTime t: Double) {
        guard let sample = timing.sample(parentTime: t) else { return }
        let p = timingFunction?.progress(at: sample.fraction) ?? sample.fraction
        let (point, angle) = evaluate(at: p)
        accessor.set(layer, point)
        if let rotationMode {
            let turn = rotationMode == .autoReverse ? angle + .pi : angle
            layer.state.transform = Transform(rotationAngle: turn).concatenating(layer.state.transform)
        }
    }

    /// The point and tangent angle at overall fraction `p`.
    func evaluate(at p: Double) -> (Point, Double) {
        let segments = track.segments
        if schedule.times.count == segments.count + 2 {
            // Discrete: hold each keyframe (the path's start, then each segment's end).
            var i = 0
            while i < segments.count && p >= schedule.times[i + 1] { i += 1 }
            let segment = segments[max(0, i - 1)]
            let point = i == 0 ? segment.p0 : segment.p3
            let d = segment.tangent(at: i == 0 ? 0 : 1)
            return (point, atan2(d.y, d.x))
        }
        let (i, u) = schedule.locate(p)
        let index = min(i, segments.count - 1)
        let segment = segments[index]
        let parameter = isPaced ? track.parameter(ofSegment: index, atLengthFraction: u) : u
        let d = segment.tangent(at: parameter)
        return (segment.point(at: parameter), atan2(d.y, d.x))
    }
}

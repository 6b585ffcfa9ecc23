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
struct PathTrack {
    struct Segment {
        var p0, p1, p2, p3: Point
        /// Cumulative arc length at `samples` evenly spaced parameters.
        var lengths: [Double]

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

        var length: Double { lengths.last ?? 0 }

        /// The parameter at which the arc length is `fraction` of the segment's.
        func parameter(atLengthFraction fraction: Double) -> Double {
            let total = length
            guard total > 0 else { return fraction }
            let target = fraction * total
            let n = lengths.count - 1
            var i = 0
            while i < n - 1 && lengths[i + 1] < target { i += 1 }
            let l0 = lengths[i], l1 = lengths[i + 1]
            let local = l1 > l0 ? (target - l0) / (l1 - l0) : 0
            return (Double(i) + local) / Double(n)
        }
    }

    static let samples = 32
    private(set) var segments: [Segment] = []

    init?(_ path: Path) {
        var current = Point.zero, start = Point.zero
        func add(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            var s = Segment(p0: p0, p1: p1, p2: p2, p3: p3, lengths: [0])
            var previous = p0
            for k in 1...PathTrack.samples {
                let q = s.point(at: Double(k) / Double(PathTrack.samples))
                s.lengths.append(s.lengths[k - 1] + previous.distance(to: q))
                previous = q
            }
            segments.append(s)
        }
        func line(_ a: Point, _ b: Point) { add(a, a.interpolated(to: b, at: 1.0 / 3), a.interpolated(to: b, at: 2.0 / 3), b) }
        for element in path.elements {
            switch element {
            case let .move(p):
                current = p; start = p
            case let .line(p):
                line(current, p); current = p
            case let .quadCurve(p, c):
                add(current, current + (c - current) * (2.0 / 3), p + (c - p) * (2.0 / 3), p); current = p
            case let .curve(p, c1, c2):
                add(current, c1, c2, p); current = p
            case .closeSubpath:
                if current != start { line(current, start) }
                current = start
            }
        }
        guard !segments.isEmpty else {
            Diagnostics.warn("a keyframe path has no segment after its move; the animation is ignored")
            return nil
        }
    }

    var segmentCount: Int { segments.count }
    var segmentLengths: [Double] { segments.map(\.length) }
}

@MainActor
final class PathKeyframeEffect: AnimationEffect {
    let accessor: PropertyAccessor<Point>
    let timing: TimingModel
    let timingFunction: TimingFunction?
    let track: PathTrack
    let schedule: KeyframeSchedule
    let isPaced: Bool
    let rotationMode: RotationMode?

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
        let segment = segments[min(i, segments.count - 1)]
        let parameter = isPaced ? segment.parameter(atLengthFraction: u) : u
        let d = segment.tangent(at: parameter)
        return (segment.point(at: parameter), atan2(d.y, d.x))
    }
}

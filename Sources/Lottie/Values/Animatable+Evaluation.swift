// Animatable+Evaluation: a property's value at any frame, as Bodymovin players compute it.

#if canImport(Glibc)
import Glibc
#endif
import LiveLayers

extension Keyframe {
    /// The easing of dimension `d` from this keyframe to the next: a cubic Bézier timing
    /// function with the out tangent as first control point and the in tangent as second.
    func timingFunction(dimension d: Int) -> TimingFunction {
        guard !easeOut.isEmpty, !easeIn.isEmpty else { return .linear }
        let o = easeOut[min(d, easeOut.count - 1)], i = easeIn[min(d, easeIn.count - 1)]
        return TimingFunction(controlPoints: o.x, o.y, i.x, i.y)
    }

    /// Whether every dimension eases the same way (so one timing function describes the segment).
    var hasUniformEasing: Bool {
        func same(_ list: [(x: Double, y: Double)]) -> Bool { list.allSatisfy { $0.x == list[0].x && $0.y == list[0].y } }
        return same(easeOut) && same(easeIn)
    }

    /// Whether the segment to the next keyframe follows a curved motion path.
    var hasSpatialTangents: Bool {
        (spatialOut?.contains { $0 != 0 } ?? false) || (spatialIn?.contains { $0 != 0 } ?? false)
    }
}

extension Animatable {
    /// The first and last keyframe times, or `nil` for a constant.
    var span: ClosedRange<Double>? {
        guard keyframes.count > 1, let first = keyframes.first?.time, let last = keyframes.last?.time, last >= first else { return nil }
        return first...last
    }

    /// The value at `frame` (in frames of the property's composition).
    func value(at frame: Double) -> Value {
        let k = keyframes
        if k.count == 1 || !(frame > k[0].time) { return k[0].value }
        if frame >= k[k.count - 1].time {
            let last = k[k.count - 1]
            return last.value
        }
        // The segment: the last keyframe at or before `frame`.
        var lo = 0, hi = k.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if k[mid].time <= frame { lo = mid } else { hi = mid }
        }
        let a = k[lo], b = k[lo + 1]
        let end = a.endValue ?? b.value
        if a.hold { return a.value }
        let length = b.time - a.time
        let u = length > 0 ? (frame - a.time) / length : 1
        if a.hasSpatialTangents, let from = a.value as? Vector, let to = end as? Vector, from.values.count >= 2 {
            let p = a.timingFunction(dimension: 0).progress(at: u)
            return SpatialCurve(from: from, to: to, out: a.spatialOut ?? [], in: a.spatialIn ?? []).point(atLengthFraction: p) as! Value
        }
        return a.value.lerp(to: end) { a.timingFunction(dimension: $0).progress(at: u) }
    }
}

/// A motion path between two keyframes: a cubic Bézier traversed at constant speed.
struct SpatialCurve {
    var p0, p1, p2, p3: (Double, Double)
    var extra: [Double]

    init(from: Vector, to: Vector, out: [Double], in inTangent: [Double]) {
        p0 = (from[0], from[1])
        p3 = (to[0], to[1])
        p1 = (p0.0 + out.at(0), p0.1 + out.at(1))
        p2 = (p3.0 + inTangent.at(0), p3.1 + inTangent.at(1))
        extra = from.values.count > 2 ? Array(from.values[2...]) : []
    }

    func point(at u: Double) -> (Double, Double) {
        let v = 1 - u
        let a = v * v * v, b = 3 * v * v * u, c = 3 * v * u * u, d = u * u * u
        return (a * p0.0 + b * p1.0 + c * p2.0 + d * p3.0, a * p0.1 + b * p1.1 + c * p2.1 + d * p3.1)
    }

    /// The point at `fraction` of the curve's arc length (extrapolating along the end tangents
    /// when the easing overshoots).
    func point(atLengthFraction fraction: Double) -> Vector {
        let samples = 64
        var lengths = [Double](repeating: 0, count: samples + 1)
        var previous = p0
        for i in 1...samples {
            let q = point(at: Double(i) / Double(samples))
            lengths[i] = lengths[i - 1] + hypot(q.0 - previous.0, q.1 - previous.1)
            previous = q
        }
        let total = lengths[samples]
        var u: Double
        if total <= 0 {
            u = fraction
        } else if fraction <= 0 || fraction >= 1 {
            u = fraction
        } else {
            let target = fraction * total
            var i = 0
            while i < samples - 1 && lengths[i + 1] < target { i += 1 }
            let l0 = lengths[i], l1 = lengths[i + 1]
            u = (Double(i) + (l1 > l0 ? (target - l0) / (l1 - l0) : 0)) / Double(samples)
        }
        let p: (Double, Double)
        if u < 0 || u > 1 {
            // Overshoot: continue straight along the tangent at the nearer end.
            let base = u < 0 ? p0 : p3
            let dir = u < 0 ? (p1.0 - p0.0, p1.1 - p0.1) : (p3.0 - p2.0, p3.1 - p2.1)
            let t = 3 * (u < 0 ? u : u - 1)
            p = (base.0 + dir.0 * t, base.1 + dir.1 * t)
        } else {
            p = point(at: u)
        }
        return Vector([p.0, p.1] + extra)
    }
}

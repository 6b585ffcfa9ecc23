// TimingFunction: Core Animation's cubic Bézier easing curves (CAMediaTimingFunction).

/// A cubic Bézier curve from (0, 0) to (1, 1) that maps an animation's elapsed fraction to its
/// progress, as `CAMediaTimingFunction`.
///
/// The named functions use Core Animation's control points exactly. ``progress(at:)`` solves
/// the curve for x to within 1e-6 (Newton's method, falling back to bisection), then returns y.
public struct TimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The first control point.
    public let controlPoint1: (x: Double, y: Double)
    /// The second control point.
    public let controlPoint2: (x: Double, y: Double)

    /// Creates a curve from its two inner control points (`init(controlPoints:::::)`).
    ///
    /// The x coordinates are clamped to 0...1 so that the curve stays a function of time;
    /// y coordinates may leave 0...1 to overshoot.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        func clampX(_ v: Double) -> Double { v.isFinite ? min(1, max(0, v)) : 0 }
        func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
        controlPoint1 = (clampX(x1), finite(y1))
        controlPoint2 = (clampX(x2), finite(y2))
    }

    /// Constant speed: control points (0, 0) and (1, 1).
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// Slow start: (0.42, 0) and (1, 1).
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// Slow end: (0, 0) and (0.58, 1).
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// Slow start and end: (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// The curve of implicit animations: (0.25, 0.1) and (0.25, 1), CSS's `ease`.
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    /// The control point at `index` 0...3 (`getControlPoint(at:values:)`): the end points are
    /// (0, 0) and (1, 1). Other indices give `nil`.
    public func controlPoint(at index: Int) -> (x: Double, y: Double)? {
        switch index {
        case 0: return (0, 0)
        case 1: return controlPoint1
        case 2: return controlPoint2
        case 3: return (1, 1)
        default: return nil
        }
    }

    /// The progress at elapsed fraction `x`, which is clamped to 0...1.
    public func progress(at x: Double) -> Double {
        if x <= 0 || x.isNaN { return 0 }
        if x >= 1 { return 1 }
        if isLinear { return x }
        return sampleY(parameter(forX: x))
    }

    /// The curve run backwards in time: `reversed.progress(at: x) == 1 - progress(at: 1 - x)`.
    public var reversed: TimingFunction {
        TimingFunction(controlPoints: 1 - controlPoint2.x, 1 - controlPoint2.y, 1 - controlPoint1.x, 1 - controlPoint1.y)
    }

    /// The part of the curve for elapsed fractions 0...x, stretched to fill the unit square, or
    /// `nil` when the progress at `x` is 0 (nothing to stretch). Reversing an animation mid-flight
    /// retraces this part of its curve.
    func leadingSegment(upTo x: Double) -> TimingFunction? {
        let x = min(1, max(0, x))
        let u = parameter(forX: x)
        let endY = sampleY(u)
        guard x > 0, endY != 0, endY.isFinite else { return nil }
        // de Casteljau on both coordinates keeps the first part of the curve as a cubic.
        func split(_ p1: Double, _ p2: Double) -> (Double, Double) {
            let a = p1 * u
            let b = p1 + (p2 - p1) * u
            return (a, a + (b - a) * u)
        }
        let (x1, x2) = split(controlPoint1.x, controlPoint2.x)
        let (y1, y2) = split(controlPoint1.y, controlPoint2.y)
        return TimingFunction(controlPoints: x1 / x, y1 / endY, x2 / x, y2 / endY)
    }

    private var isLinear: Bool {
        controlPoint1.x == controlPoint1.y && controlPoint2.x == controlPoint2.y
    }

    // Bézier coefficients in power form: B(u) = ((a·u + b)·u + c)·u.
    private func sampleX(_ u: Double) -> Double {
        let c = 3 * controlPoint1.x, b = 3 * (controlPoint2.x - controlPoint1.x) - c, a = 1 - c - b
        return ((a * u + b) * u + c) * u
    }

    private func sampleY(_ u: Double) -> Double {
        let c = 3 * controlPoint1.y, b = 3 * (controlPoint2.y - controlPoint1.y) - c, a = 1 - c - b
        return ((a * u + b) * u + c) * u
    }

    private func sampleDerivativeX(_ u: Double) -> Double {
        let c = 3 * controlPoint1.x, b = 3 * (controlPoint2.x - controlPoint1.x) - c, a = 1 - c - b
        return (3 * a * u + 2 * b) * u + c
    }

    /// The curve parameter whose x is `x`, to 1e-7.
    private func parameter(forX x: Double) -> Double {
        let epsilon = 1e-7
        var u = x
        for _ in 0..<8 {
            let error = sampleX(u) - x
            if abs(error) < epsilon { return u }
            let slope = sampleDerivativeX(u)
            if abs(slope) < 1e-6 { break }
            u -= error / slope
        }
        // x(u) is monotonic because both control x's lie in 0...1, so bisection always converges.
        var lo = 0.0, hi = 1.0
        u = x
        while hi - lo > epsilon {
            let value = sampleX(u)
            if abs(value - x) < epsilon { return u }
            if value < x { lo = u } else { hi = u }
            u = (lo + hi) / 2
        }
        return u
    }

    public static func == (l: TimingFunction, r: TimingFunction) -> Bool {
        l.controlPoint1 == r.controlPoint1 && l.controlPoint2 == r.controlPoint2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(controlPoint1.x); hasher.combine(controlPoint1.y)
        hasher.combine(controlPoint2.x); hasher.combine(controlPoint2.y)
    }

    public var description: String {
        "TimingFunction(\(controlPoint1.x), \(controlPoint1.y), \(controlPoint2.x), \(controlPoint2.y))"
    }
}

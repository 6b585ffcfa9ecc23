// Path+Arc: circular arcs with CGPathAddArc's semantics, approximated by cubic Béziers.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Path {
    /// Adds a circular arc, with `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:)`'s
    /// semantics.
    ///
    /// Angles are in radians; the point at angle θ is (cx + r·cos θ, cy + r·sin θ). With y growing
    /// downward, an increasing angle turns clockwise on screen. As in Core Graphics, `clockwise`
    /// names the direction in the un-flipped (y-up) sense: `clockwise: true` sweeps from
    /// `startAngle` toward *decreasing* angles, `false` toward increasing ones. A sweep of 2π or
    /// more draws one full circle. If the path has a current point, a straight line joins it to the
    /// arc's start; otherwise the arc starts a new subpath.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        let twoPi = 2 * Double.pi
        var sweep = endAngle - startAngle
        if !sweep.isFinite || !radius.isFinite {
            sweep = 0
        } else if abs(sweep) >= twoPi {
            sweep = clockwise ? -twoPi : twoPi
        } else if clockwise, sweep > 0 {
            sweep -= twoPi
        } else if !clockwise, sweep < 0 {
            sweep += twoPi
        }
        let r = abs(radius)
        var a0 = startAngle
        // Each piece's start is the last one's end: its cosine and sine are kept, not computed
        // again, also from the last call (an anchored arc is many one-piece calls, each starting
        // where the one before ended, and these are most of their cost).
        var (c0, s0) = arcMemo.angle.bitPattern == startAngle.bitPattern ? (arcMemo.cos, arcMemo.sin) : ArcAngles.cosSin(startAngle)
        defer { arcMemo.keep(angle: a0, cos: c0, sin: s0) }
        let start = Point(x: center.x + r * c0, y: center.y + r * s0)
        if currentPoint == nil { move(to: start) } else if currentPoint != start { addLine(to: start) }
        guard sweep != 0 else { return }

        // Split at the quarter turns (multiples of π/2), each piece one cubic with control
        // distance k = 4/3·tan(θ/4), whose radial error is below 2.7e-4·r. Anchoring the pieces
        // to fixed angles rather than to the start makes the unchanged part of a growing arc
        // the same curves every frame, so its coverage, and the damage it causes, stay put.
        let quarter = Double.pi / 2
        let end = startAngle + sweep
        var p0 = start
        var guardCount = 0
        while a0 != end && guardCount < 8 {
            guardCount += 1
            // The next quarter-turn boundary strictly past a0 in the sweep's direction.
            var boundary = sweep > 0 ? ((a0 / quarter).rounded(.down) + 1) * quarter : ((a0 / quarter).rounded(.up) - 1) * quarter
            // A boundary within rounding of a0 (a0 on a boundary) is a0 itself: take the next one.
            if abs(boundary - a0) < 1e-12 { boundary += sweep > 0 ? quarter : -quarter }
            let a1 = sweep > 0 ? min(boundary, end) : max(boundary, end)
            // Pieces between fixed angles mostly have the same sweep, to the bit.
            let k = 4.0 / 3.0 * arcMemo.tangent((a1 - a0) / 4)
            let (c1, s1) = ArcAngles.cosSin(a1)
            let p1 = Point(x: center.x + r * c1, y: center.y + r * s1)
            addCurve(to: p1,
                     control1: Point(x: p0.x - k * r * s0, y: p0.y + k * r * c0),
                     control2: Point(x: p1.x + k * r * s1, y: p1.y - k * r * c1))
            a0 = a1
            p0 = p1
            (c0, s0) = (c1, s1)
        }
    }
}

/// The cosine and sine of the multiples of π/32 in −4π...4π, as `cos` and `sin` give them: the
/// angles ``Path/addArc(center:radius:startAngle:endAngle:clockwise:)`` cuts at (quarter turns),
/// and those an arc cut into finer fixed pieces is made of (the player's arrow: 60 pieces a frame,
/// their `cos` and `sin` 9,000 instructions). Looked up by the angle's bits, so a value found is
/// the one the functions would return. Made on the first arc, once: about 55,000 instructions.
enum ArcAngles {
    static let step = Double.pi / 32
    static let limit = 128
    static let table: [(cos: Double, sin: Double)] = (-limit...limit).map { k in
        let a = Double(k) * step
        return (cos(a), sin(a))
    }

    @inline(__always)
    static func cosSin(_ a: Double) -> (Double, Double) {
        let q = a * (1 / step)
        // False for NaN and infinities too.
        if abs(q) <= Double(limit) {
            let k = Int(q < 0 ? q - 0.5 : q + 0.5)
            if (Double(k) * step).bitPattern == a.bitPattern { return table[k &+ limit] }
        }
        return (cos(a), sin(a))
    }
}

/// What ``Path/addArc(center:radius:startAngle:endAngle:clockwise:)`` keeps from one call to the
/// next: the cosine and sine of the angle it ended at, and the last tangent it took. Looked up by
/// the argument's bits, so a value found is the one the function would return.
struct ArcMemo: Sendable {
    var angle = Double.nan, cos = 0.0, sin = 0.0
    var tangentOf = Double.nan, tangent = 0.0

    mutating func keep(angle: Double, cos: Double, sin: Double) {
        self.angle = angle
        self.cos = cos
        self.sin = sin
    }

    mutating func tangent(_ x: Double) -> Double {
        if x.bitPattern != tangentOf.bitPattern {
            tangentOf = x
            tangent = tan(x)
        }
        return tangent
    }
}

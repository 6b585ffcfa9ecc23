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
        let start = Point(x: center.x + r * cos(startAngle), y: center.y + r * sin(startAngle))
        if currentPoint == nil { move(to: start) } else if currentPoint != start { addLine(to: start) }
        guard sweep != 0 else { return }

        // Split into pieces of at most a quarter turn; each piece is one cubic with
        // control distance k = 4/3·tan(θ/4), whose radial error is below 2.7e-4·r.
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var a0 = startAngle
        for i in 0..<pieces {
            let a1 = i == pieces - 1 ? startAngle + sweep : a0 + step
            let (c0, s0, c1, s1) = (cos(a0), sin(a0), cos(a1), sin(a1))
            let p0 = Point(x: center.x + r * c0, y: center.y + r * s0)
            let p1 = Point(x: center.x + r * c1, y: center.y + r * s1)
            addCurve(to: p1,
                     control1: Point(x: p0.x - k * r * s0, y: p0.y + k * r * c0),
                     control2: Point(x: p1.x + k * r * s1, y: p1.y - k * r * c1))
            a0 = a1
        }
    }
}

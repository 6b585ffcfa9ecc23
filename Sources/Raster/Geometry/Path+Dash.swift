// Path+Dash: a path cut into dashes (Core Graphics' dash pattern).

extension Path {
    /// The most dashes one path is cut into; a finer pattern leaves the path solid.
    static let maximumDashCount = 1 << 18

    /// The dashes of this path: the pieces a stroke with the dash pattern `lengths` paints,
    /// each an open subpath (`CGPath.copy(dashingWithPhase:lengths:)`).
    ///
    /// As in Core Graphics, `lengths` alternate between painted and unpainted runs (an odd
    /// count is used twice over), the pattern starts again at every subpath, and `phase`
    /// shifts where in the pattern each subpath starts. A zero painted length gives a
    /// zero-length subpath, which round or square caps draw as a dot. Curves stay curves.
    ///
    /// The path is returned unchanged when the pattern is not usable: empty, any length
    /// negative or not finite, all lengths zero, a non-finite phase, or a pattern so fine that
    /// it would make more than 262,144 dashes.
    public func dashed(phase: Double, lengths: [Double]) -> Path {
        var out = Path()
        return Path.appendDashes(of: PathMeasure(self), phase: phase, lengths: lengths, to: &out) ? out : self
    }

    /// Appends the dashes of the measured path to `out`; false, appending nothing, when the
    /// pattern is not usable (see ``dashed(phase:lengths:)``). Allocates nothing but `out`'s growth.
    static func appendDashes(of measure: PathMeasure, phase: Double, lengths: [Double], to out: inout Path) -> Bool {
        guard !lengths.isEmpty, phase.isFinite, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return false }
        // An odd pattern is used twice over, so that entry i is painted exactly when i is even.
        let count = lengths.count % 2 == 0 ? lengths.count : 2 * lengths.count
        func pattern(_ i: Int) -> Double { lengths[i % lengths.count] }
        let period = lengths.reduce(0, +) * Double(count / lengths.count)
        guard period > 0, period.isFinite else { return false }

        var estimate = 0.0
        for s in measure.subpaths { estimate += (s.length / period + 1) * Double(count / 2) }
        guard estimate <= Double(maximumDashCount) else { return false }

        // Where the phase falls in the pattern: entry `first`, with `firstRemaining` of it left.
        var offset = phase.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        var first = 0
        for _ in 0..<count {
            guard offset >= pattern(first), !(pattern(first) == 0 && offset == 0) else { break }
            offset -= pattern(first)
            first = (first + 1) % count
        }
        let firstRemaining = max(0, pattern(first) - offset)

        for subpath in measure.subpaths where subpath.isValid {
            var index = first, remaining = firstRemaining, position = 0.0
            if subpath.length == 0 {
                if index % 2 == 0 { measure.appendPiece(of: subpath, from: 0, to: 0, to: &out) }
                continue
            }
            while position < subpath.length {
                let end = min(position + remaining, subpath.length)
                if index % 2 == 0 { measure.appendPiece(of: subpath, from: position, to: end, to: &out) }
                // A run too short to move `position` at this magnitude counts as used up.
                remaining = end > position ? remaining - (end - position) : 0
                position = end
                if remaining <= 0 {
                    index = (index + 1) % count
                    remaining = pattern(index)
                }
            }
        }
        return true
    }
}

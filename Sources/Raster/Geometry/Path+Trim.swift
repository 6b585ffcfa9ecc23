// Path+Trim: the part of a path between two fractions of its length (CAShapeLayer's
// strokeStart and strokeEnd).

extension Path {
    /// The part of this path between the fractions `start` and `end` of its total arc length,
    /// counted across all subpaths in order, as `CAShapeLayer` strokes between `strokeStart`
    /// and `strokeEnd`.
    ///
    /// Both fractions are clamped to 0...1. `start >= end`, or a fraction that is NaN, gives an
    /// empty path; 0 and 1 give the path unchanged. Pieces are open subpaths, except that a
    /// closed subpath lying wholly inside the range stays closed. Curves stay curves.
    public func trimmed(from start: Double, to end: Double) -> Path {
        guard let (s, e) = Path.trimFractions(start, end) else { return Path() }
        if s == 0, e == 1 { return self }
        var out = Path()
        Path.appendTrimmed(PathMeasure(self), from: s, to: e, to: &out)
        return out
    }

    /// The clamped fractions, or `nil` when nothing is left.
    static func trimFractions(_ start: Double, _ end: Double) -> (Double, Double)? {
        guard !start.isNaN, !end.isNaN else { return nil }
        let s = min(1, max(0, start)), e = min(1, max(0, end))
        return s < e ? (s, e) : nil
    }

    /// Appends the part of the measured path between the fractions `s < e` (in 0...1) to `out`.
    static func appendTrimmed(_ measure: PathMeasure, from s: Double, to e: Double, to out: inout Path) {
        let a = s * measure.length, b = e * measure.length
        var offset = 0.0
        for subpath in measure.subpaths where subpath.isValid {
            let lo = max(0, a - offset), hi = min(subpath.length, b - offset)
            if hi > lo || (subpath.length == 0 && lo == 0 && hi >= 0) {
                measure.appendPiece(of: subpath, from: lo, to: hi, to: &out)
            }
            offset += subpath.length
        }
    }
}

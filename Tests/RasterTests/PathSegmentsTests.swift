import Foundation
@testable import Raster
import Testing

/// ``PathSegments/changedRows(since:)`` matches a frame's segments with last frame's by value,
/// wherever they lie in the list (searched by their end points first).
@Suite struct PathSegmentsTests {
    static func segments(_ build: (inout Path) -> Void) -> PathSegments {
        let clip = IntRect(x: 0, y: 0, width: 400, height: 400)
        let recording = FillRecording()
        let context = GraphicsContext(recordingInto: recording, clip: clip)
        var path = Path()
        build(&path)
        context.setFillColor(.white)
        context.fill(path)
        let segments = PathSegments()
        segments.record(recording, transform: .identity)
        return segments
    }

    static func star(_ path: inout Path, at x: Double, _ y: Double, points: Int = 40) {
        for k in 0..<points {
            let a = Double(k) / Double(points) * 2 * .pi, r = k % 2 == 0 ? 50.0 : 20.0
            let p = Point(x: x + r * cos(a), y: y + r * sin(a))
            if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
    }

    /// The same segments in another order (the subpaths swapped), and an end point at −0 where
    /// it was +0: nothing changed.
    @Test func equalSegmentsMatchInAnyOrder() {
        let a = Self.segments { path in
            Self.star(&path, at: 100, 100)
            Self.star(&path, at: 260, 220)
            path.move(to: Point(x: 10, y: 300))
            path.addLine(to: Point(x: 0.0, y: 350))
            path.addLine(to: Point(x: 40, y: 390))
            path.closeSubpath()
        }
        let b = Self.segments { path in
            path.move(to: Point(x: 10, y: 300))
            path.addLine(to: Point(x: -0.0, y: 350))
            path.addLine(to: Point(x: 40, y: 390))
            path.closeSubpath()
            Self.star(&path, at: 260, 220)
            Self.star(&path, at: 100, 100)
        }
        #expect(b.changedRows(since: a) == 0..<0)
    }

    /// One point of a star moved: the rows of the two segments ending and starting there, last
    /// frame's and this one's, a row of margin each side; the other star's segments all found.
    @Test func aMovedPointChangesOnlyItsSegmentsRows() {
        let a = Self.segments { path in
            Self.star(&path, at: 100, 100)
            Self.star(&path, at: 260, 220)
        }
        let b = Self.segments { path in
            Self.star(&path, at: 100, 100)
            // The second star with its point at 0 radians (260 + 50, 220) moved down by 30.
            for k in 0..<40 {
                let angle = Double(k) / 40 * 2 * .pi, r = k % 2 == 0 ? 50.0 : 20.0
                var p = Point(x: 260 + r * cos(angle), y: 220 + r * sin(angle))
                if k == 0 { p.y += 30 }
                if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
            }
            path.closeSubpath()
        }
        // Its neighbours lie at 260 + 20 cos(±π/20), 220 ± 20 sin(π/20) (rows 216.9 and 223.1), the
        // point now at row 250.
        let rows = b.changedRows(since: a)
        #expect(rows == 215..<251, "\(String(describing: rows))")
    }
}

extension PathSegmentsTests {
    /// Recording and comparing in one pass, which maps only the segments not found last time
    /// and takes the found ones' rows and columns from the last list, gives what recording every
    /// segment and then comparing gives: the same changed rows and columns, and lists that answer
    /// the same (the next comparison, the columns right of the changes, the gaps), frame after
    /// frame of the arrow's sweep growing and shrinking, a second fill coming and going, under
    /// two transforms.
    @Test(arguments: [Transform.identity, Transform(a: 1.25, b: 0.2, c: -0.3, d: 0.9, tx: 40.5, ty: 12.25)])
    func recordingWhileComparingEqualsRecordingThenComparing(transform: Transform) {
        let clip = IntRect(x: 0, y: 0, width: 400, height: 400)
        var fusedOld = PathSegments(), plainOld = PathSegments()
        let start = -Double.pi / 2
        for step in 0..<120 {
            let t = Double(step < 60 ? step : 120 - step) / 60
            let dot = step % 25 < 12 ? Point(x: 150, y: 20 + Double(step)) : nil
            let recording = TrackedCoverageTests.sweep(to: start + max(0.02, t * 1.9 * .pi), dot: dot, color: .white, clip: clip)
            let fused = PathSegments(), plain = PathSegments()
            let rows = fused.record(recording, transform: transform, comparingWith: step % 30 == 7 ? nil : fusedOld)
            plain.record(recording, transform: transform)
            let expected = step % 30 == 7 ? nil : plain.changedRows(since: plainOld)
            #expect(rows == expected, "step \(step)")
            if let rows {
                #expect(fused.changedColumns == plain.changedColumns, "step \(step)")
                #expect(fused.rowsCrossed(rightOf: 120, in: rows) == plain.rowsCrossed(rightOf: 120, in: rows), "step \(step)")
                #expect(fused.unchangedRight(of: rows, before: 400) == plain.unchangedRight(of: rows, before: 400), "step \(step)")
            }
            #expect(fused.isValid == plain.isValid, "step \(step)")
            fusedOld = fused
            plainOld = plain
        }
    }
}

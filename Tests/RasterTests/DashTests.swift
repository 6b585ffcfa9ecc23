import Foundation
@testable import Raster
import Testing

@Suite struct DashTests {
    private func line(length: Double) -> Path {
        var p = Path()
        p.move(to: Point(x: 0, y: 10))
        p.addLine(to: Point(x: length, y: 10))
        return p
    }

    /// The length of each subpath of `path`.
    private func pieceLengths(_ path: Path) -> [Double] {
        var pieces: [Path] = []
        for element in path.elements {
            if case .move = element { pieces.append(Path()) }
            pieces[pieces.count - 1].append(element)
        }
        return pieces.map(\.length)
    }

    @Test func lineIsCutIntoThePattern() {
        let dashes = line(length: 100).dashed(phase: 0, lengths: [10, 5])
        let lengths = pieceLengths(dashes)
        #expect(lengths.count == 7)
        #expect(lengths.allSatisfy { abs($0 - 10) < 1e-12 })
        #expect(dashes.subpathEndpoints.map(\.start.x) == [0, 15, 30, 45, 60, 75, 90])
        #expect(abs(dashes.length - 70) < 1e-9)
    }

    @Test func phaseShiftsIntoThePattern() {
        let dashes = line(length: 30).dashed(phase: 3, lengths: [10, 5])
        #expect(dashes.subpathEndpoints.map(\.start.x) == [0, 12, 27])
        #expect(pieceLengths(dashes).map { ($0 * 1e9).rounded() / 1e9 } == [7, 10, 3])
        // A phase of a whole number of periods, or a negative one, wraps around.
        #expect(line(length: 30).dashed(phase: 33, lengths: [10, 5]) == dashes)
        #expect(line(length: 30).dashed(phase: -12, lengths: [10, 5]) == dashes)
        // A phase landing exactly on a gap starts with the gap.
        #expect(line(length: 30).dashed(phase: 10, lengths: [10, 5]).subpathEndpoints.map(\.start.x) == [5, 20])
    }

    @Test func oddPatternIsUsedTwice() {
        let dashes = line(length: 40).dashed(phase: 0, lengths: [4, 6, 2])
        // on 4, off 6, on 2, off 4, on 6, off 2, then again from on 4
        #expect(dashes.subpathEndpoints.map(\.start.x) == [0, 10, 16, 24, 34])
    }

    @Test func unusablePatternsLeaveThePathAlone() {
        let path = line(length: 50)
        #expect(path.dashed(phase: 0, lengths: []) == path)
        #expect(path.dashed(phase: 0, lengths: [0, 0]) == path)
        #expect(path.dashed(phase: 0, lengths: [5, -1]) == path)
        #expect(path.dashed(phase: 0, lengths: [5, .nan]) == path)
        #expect(path.dashed(phase: .infinity, lengths: [5, 5]) == path)
        // Too fine a pattern for the length would make billions of dashes.
        #expect(line(length: 1e9).dashed(phase: 0, lengths: [0.001, 0.001]) == line(length: 1e9))
    }

    @Test func zeroLengthDashesBecomeDots() {
        let dots = line(length: 50).dashed(phase: 0, lengths: [0, 10])
        #expect(dots.subpathCount == 5)
        #expect(dots.subpathEndpoints.allSatisfy { $0.start == $0.end })
        let outline = FlatOutline(dots.strokedOutline(StrokeStyle(lineWidth: 4, lineCap: .round), tolerance: 0.01))
        #expect(outline.winding(at: Point(x: 20, y: 10)) != 0)
        #expect(outline.winding(at: Point(x: 25, y: 10)) == 0)
        #expect(abs(outline.nonzeroArea(step: 0.02).area - 5 * 4 * Double.pi) < 0.5)
    }

    @Test func patternRestartsAtEverySubpath() {
        var path = line(length: 12)
        path.move(to: Point(x: 0, y: 20))
        path.addLine(to: Point(x: 12, y: 20))
        let dashes = path.dashed(phase: 0, lengths: [5, 5])
        #expect(dashes.subpathEndpoints.map(\.start) == [
            Point(x: 0, y: 10), Point(x: 10, y: 10), Point(x: 0, y: 20), Point(x: 10, y: 20),
        ])
    }

    @Test func dashesFollowCurvesAndTurnCorners() throws {
        var circle = Path()
        circle.addEllipse(in: Rect(x: -50, y: -50, width: 100, height: 100))
        let total = circle.length
        let dashes = circle.dashed(phase: 0, lengths: [7, 3])
        let periods = (total / 10).rounded(.down)
        let expected = periods * 7 + min(7, total - periods * 10)
        #expect(abs(dashes.length - expected) < 1e-6)
        // Every dash starts on the circle and the curves stay curves.
        for piece in dashes.subpathEndpoints { #expect(abs(piece.start.distance(to: .zero) - 50) < 0.02) }
        #expect(dashes.elements.contains { if case .curve = $0 { true } else { false } })

        // A dash across a corner of a square keeps the corner.
        var square = Path()
        square.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        let cornered = square.dashed(phase: 0, lengths: [15, 5])
        #expect(cornered.elements.first == .move(to: Point(x: 0, y: 0)))
        #expect(cornered.elements[1] == .line(to: Point(x: 10, y: 0)))
        #expect(cornered.elements[2] == .line(to: Point(x: 10, y: 5)))
        // The second dash runs over the closing corner as an open piece.
        let second = try #require(cornered.subpathEndpoints.dropFirst().first)
        #expect(second.start == Point(x: 10, y: 10) && second.end == Point(x: 0, y: 5))
    }

    @Test func strokeStyleDashesAreApplied() {
        let solid = line(length: 100).strokedOutline(StrokeStyle(lineWidth: 2))
        let dashed = line(length: 100).strokedOutline(StrokeStyle(lineWidth: 2, dashPhase: 0, dashLengths: [10, 10]))
        #expect(abs(FlatOutline(solid).nonzeroArea(step: 0.05).area - 200) < 0.01)
        #expect(abs(FlatOutline(dashed).nonzeroArea(step: 0.05).area - 100) < 0.01)
    }

    @Test func hostilePathsAreDashedWithoutTrouble() {
        var path = line(length: 10)
        path.move(to: Point(x: .nan, y: 0))
        path.addLine(to: Point(x: 5, y: 5))
        let dashes = path.dashed(phase: 0, lengths: [1, 1])
        #expect(dashes.subpathCount == 5)
        #expect(dashes.boundingBox.maxY == 10)
        #expect(Path().dashed(phase: 0, lengths: [1, 1]).isEmpty)
    }
}

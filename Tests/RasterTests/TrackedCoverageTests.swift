import Foundation
@testable import Raster
import Testing

/// ``TrackedCoverage`` reports the pixels whose coverage changed, not whole rows of the shape.
@Suite struct TrackedCoverageTests {
    static func recording(_ rect: Rect, clip: IntRect) -> FillRecording {
        let recording = FillRecording()
        let context = GraphicsContext(recordingInto: recording, clip: clip)
        context.setFillColor(.white)
        context.fill(rect)
        return recording
    }

    /// One update: the rectangles reported, and the mask afterwards.
    static func update(_ coverage: TrackedCoverage, _ rect: Rect, clip: IntRect) -> [IntRect] {
        var changed: [IntRect] = []
        coverage.update(recording(rect, clip: clip), transform: .identity, alpha: 255, clip: clip) { changed.append($0) }
        return changed
    }

    /// A bar lengthened by 10 pixels on the right changes 10 columns of each of its rows: the
    /// damage holds those columns, not the bar's whole width (its rows' spans grew, and the
    /// columns they share with last frame's spans are unchanged). Shortened, the same. The
    /// rasterizer's edge cells reach up to two pixels past an edge, so the damage may too.
    @Test(arguments: [(0.0, 300.0, 310.0), (0.5, 300.5, 310.5), (20.0, 310.0, 300.0)])
    func aLengthenedSpanDamagesOnlyItsNewColumns(left: Double, before: Double, after: Double) throws {
        let clip = IntRect(x: 0, y: 0, width: 400, height: 40)
        let coverage = try TrackedCoverage(width: 400, height: 40)
        _ = Self.update(coverage, Rect(x: left, y: 10, width: before - left, height: 20), clip: clip)
        let changed = Self.update(coverage, Rect(x: left, y: 10, width: after - left, height: 20), clip: clip)
        let area = changed.reduce(0) { $0 + $1.area }
        let lo = Int(min(before, after).rounded(.down)) - 2, hi = Int(max(before, after).rounded(.up)) + 2
        #expect(area > 0)
        #expect(area <= (hi - lo) * 20, "changed \(changed)")
        for rect in changed { #expect(rect.x >= lo && rect.maxX <= hi, "\(rect) outside columns \(lo)..<\(hi)") }
        // The mask holds the new bar exactly.
        let fresh = try TrackedCoverage(width: 400, height: 40)
        _ = Self.update(fresh, Rect(x: left, y: 10, width: after - left, height: 20), clip: clip)
        for y in 0..<40 {
            for x in 0..<400 { #expect(coverage.mask[x, y] == fresh.mask[x, y], "(\(x), \(y))") }
        }
    }
}

extension TrackedCoverageTests {
    /// A ring around nearly the whole height of a 1080p target, growing over a first sweep as
    /// the player's arrow does and then complete, fits the record storage the coverage starts
    /// with: no update grows it. (Growing it meant copying 80-160 KiB into pages never touched
    /// before, in the middle of the animation: the arrow's first sweep had frames at 2-3x their
    /// neighbours' time there.)
    @Test func aRingAcrossTheTargetNeverGrowsTheRecordStorage() throws {
        let clip = IntRect(x: 0, y: 0, width: 1920, height: 1080)
        let coverage = try TrackedCoverage(width: 1920, height: 1080)
        let capacity = coverage.recordCapacity
        let c = Point(x: 960, y: 540), start = -Double.pi / 2
        for step in 1...32 {
            let end = start + min(Double(step) / 32, 0.999) * 2 * .pi
            let recording = FillRecording()
            let context = GraphicsContext(recordingInto: recording, clip: clip)
            var path = Path()
            path.addArc(center: c, radius: 535, startAngle: start, endAngle: end, clockwise: false)
            path.addArc(center: c, radius: 480, startAngle: end, endAngle: start, clockwise: true)
            path.closeSubpath()
            context.setFillColor(.white)
            context.fill(path)
            context.setFillColor(Color.white.withAlpha(0.5))
            context.fill(Rect(x: 900, y: 480, width: 120, height: 120))
            var area = 0
            coverage.update(recording, transform: .identity, alpha: 255, clip: clip) { area += $0.area }
            #expect(area > 0)
            #expect(coverage.recordCapacity == capacity, "step \(step): \(capacity) bytes grew to \(coverage.recordCapacity)")
        }
    }
}

extension TrackedCoverageTests {
    /// A band around a circle from 12 o'clock to `end`, its arcs cut at fixed angles (as the
    /// player's arrow is), with a pointed head; and, when `dot`, a square fill besides.
    static func sweep(to end: Double, dot: Point?, color: Color, clip: IntRect) -> FillRecording {
        let recording = FillRecording()
        let context = GraphicsContext(recordingInto: recording, clip: clip)
        let c = Point(x: 100, y: 100), outer = 90.0, inner = 60.0, start = -Double.pi / 2
        let step = Double.pi / 32
        var path = Path()
        path.move(to: Point(x: c.x + 75 * cos(end + 0.2), y: c.y + 75 * sin(end + 0.2)))
        func arc(_ r: Double, _ a: Double, _ b: Double) {
            var a0 = a
            while a0 != b {
                var cut = b > a ? ((a0 / step).rounded(.down) + 1) * step : ((a0 / step).rounded(.up) - 1) * step
                if abs(cut - a0) < 1e-12 { cut += b > a ? step : -step }
                let a1 = b > a ? min(cut, b) : max(cut, b)
                path.addArc(center: c, radius: r, startAngle: a0, endAngle: a1, clockwise: b < a)
                a0 = a1
            }
        }
        arc(outer, end, start)
        arc(inner, start, end)
        path.closeSubpath()
        context.setFillColor(color)
        context.fill(path)
        if let dot {
            context.setFillColor(color.withAlpha(0.5))
            context.fill(Rect(x: dot.x, y: dot.y, width: 13.5, height: 9.25))
        }
        return recording
    }

    /// Growing and shrinking in random steps, with a second fill that sometimes moves, a colour
    /// that sometimes changes and an alpha that sometimes does: after every update the mask is
    /// the mask of a fresh coverage given only that update's fills, bit for bit, and every pixel
    /// that changed lies in a reported rectangle. (Most updates rasterize only the rows around
    /// the sweep's end and carry the others over.)
    @Test func updatesInPlaceEqualFreshCoverage() throws {
        let clip = IntRect(x: 0, y: 0, width: 200, height: 200)
        let coverage = try TrackedCoverage(width: 200, height: 200)
        var random = SplitMix64(seed: 9)
        var end = -Double.pi / 2 + 0.3
        var dot: Point? = Point(x: 20, y: 30)
        var color = Color.white
        var alpha: UInt32 = 255
        func unit(_ g: inout SplitMix64) -> Double { Double(g.next() >> 11) / Double(UInt64(1) << 53) }
        var previous = [UInt8](repeating: 0, count: 200 * 200)
        for step in 0..<160 {
            end += (unit(&random) - 0.4) * 0.25
            end = min(max(end, -Double.pi / 2 + 0.05), 1.45 * Double.pi)
            switch random.next() % 10 {
            case 0: dot = dot == nil ? Point(x: 20 + unit(&random) * 150, y: 20 + unit(&random) * 150) : nil
            case 1: color = random.next() % 2 == 0 ? .white : Color(white: 1, alpha: 0.7)
            case 2: alpha = random.next() % 2 == 0 ? 255 : 180
            default: break
            }
            let recording = Self.sweep(to: end, dot: dot, color: color, clip: clip)
            var changed: [IntRect] = []
            coverage.update(recording, transform: .identity, alpha: alpha, clip: clip) { changed.append($0) }
            let (differing, unreported) = try Self.compare(coverage, withFresh: recording, alpha: alpha, clip: clip, changed: changed, previous: &previous)
            #expect(differing == 0, "step \(step): \(differing) pixels differ from fresh coverage")
            #expect(unreported == 0, "step \(step): \(unreported) changed pixels outside the damage")
            if differing > 0 || unreported > 0 { break }
        }
        #expect(coverage.partialUpdates > 80, "only \(coverage.partialUpdates) updates carried rows over")
    }
}


extension TrackedCoverageTests {
    /// The arrow's sweep, grown a step at a time around the whole ring and shrunk back, with and
    /// without a second fill: where the head passes the ring's far side in the same rows, those
    /// rows are rasterized only up to a column between the two and joined with last update's
    /// records right of it; where the ring runs on from the head, each row only up to a gap
    /// between edges right of the head. The mask is still that of a fresh coverage, bit for bit,
    /// with every changed pixel reported.
    @Test(arguments: [false, true])
    func rowsJoinedWithTheFarSideEqualFreshCoverage(dot: Bool) throws {
        let clip = IntRect(x: 0, y: 0, width: 200, height: 200)
        let coverage = try TrackedCoverage(width: 200, height: 200)
        var previous = [UInt8](repeating: 0, count: 200 * 200)
        let start = -Double.pi / 2, steps = 90
        for step in 1...(2 * steps) {
            let t = Double(step <= steps ? step : 2 * steps - step) / Double(steps)
            let end = start + max(0.02, t * 1.9 * .pi)
            let recording = Self.sweep(to: end, dot: dot ? Point(x: 150, y: 20) : nil, color: .white, clip: clip)
            var changed: [IntRect] = []
            coverage.update(recording, transform: .identity, alpha: 255, clip: clip) { changed.append($0) }
            let (differing, unreported) = try Self.compare(coverage, withFresh: recording, alpha: 255, clip: clip, changed: changed, previous: &previous)
            #expect(differing == 0, "step \(step): \(differing) pixels differ from fresh coverage")
            #expect(unreported == 0, "step \(step): \(unreported) changed pixels outside the damage")
            if differing > 0 || unreported > 0 { break }
        }
        #expect(coverage.joinedFills > 40, "only \(coverage.joinedFills) fills joined with the far side")
        // Where the ring runs on from the head in the same rows (no column between them), rows
        // are joined each at its own gap right of the head.
        #expect(coverage.rowJoinedFills > 20, "only \(coverage.rowJoinedFills) fills joined row by row")
        // One fill: each update's rows are spliced into last update's records in place, but for
        // the first after a rasterization of every row, which lays them out afresh with room at
        // both ends (that one's records start the buffer).
        if !dot {
            #expect(coverage.splicedUpdates > 150, "only \(coverage.splicedUpdates) updates spliced in place")
            #expect(coverage.freshLayouts >= 1, "the records were never laid out afresh")
        }
    }

    /// Compares `coverage`'s mask, just updated to `recording`, with a fresh coverage of it, and
    /// the changes since `previous` (updated here) with the reported damage `changed`: the pixels
    /// that differ from the fresh mask, and the changed pixels outside the damage.
    static func compare(_ coverage: TrackedCoverage, withFresh recording: FillRecording?, transform: Transform = .identity,
                        alpha: UInt32, clip: IntRect, changed: [IntRect], previous: inout [UInt8]) throws -> (differing: Int, unreported: Int) {
        let fresh = try TrackedCoverage(width: 200, height: 200)
        fresh.update(recording, transform: transform, alpha: alpha, clip: clip) { _ in }
        var differing = 0, unreported = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let value = coverage.mask[x, y]
                if value != fresh.mask[x, y] { differing += 1 }
                if value != previous[y * 200 + x], !changed.contains(where: { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }) { unreported += 1 }
                previous[y * 200 + x] = value
            }
        }
        return (differing, unreported)
    }
}

extension TrackedCoverageTests {
    /// A square moving left of a sliver whose edges are nearly level, in the same rows: each
    /// update rasterizes the rows only up to a column between the two and carries the sliver's
    /// records over, runs of 40 cells and more (copied whole, not as two words) and short ones
    /// at its tip. The mask is that of a fresh coverage, bit for bit, every changed pixel
    /// reported, and the damage stays left of the sliver: the carried records are not compared.
    @Test func farSideRecordsOfLongAndShortRunsCarryOverExactly() throws {
        let clip = IntRect(x: 0, y: 0, width: 200, height: 200)
        let coverage = try TrackedCoverage(width: 200, height: 200)
        var previous = [UInt8](repeating: 0, count: 200 * 200)
        for step in 0..<40 {
            let recording = FillRecording()
            let context = GraphicsContext(recordingInto: recording, clip: clip)
            var path = Path()
            let x = 10 + Double(step) * 0.75
            path.move(to: Point(x: x, y: 40.25))
            path.addLine(to: Point(x: x + 30, y: 40.25))
            path.addLine(to: Point(x: x + 30, y: 80.5))
            path.addLine(to: Point(x: x, y: 80.5))
            path.closeSubpath()
            path.move(to: Point(x: 100, y: 50.5))
            path.addLine(to: Point(x: 195, y: 52.75))
            path.addLine(to: Point(x: 100, y: 58.25))
            path.closeSubpath()
            context.setFillColor(.white)
            context.fill(path)
            var changed: [IntRect] = []
            coverage.update(recording, transform: .identity, alpha: 255, clip: clip) { changed.append($0) }
            let (differing, unreported) = try Self.compare(coverage, withFresh: recording, alpha: 255, clip: clip, changed: changed, previous: &previous)
            #expect(differing == 0, "step \(step): \(differing) pixels differ from fresh coverage")
            #expect(unreported == 0, "step \(step): \(unreported) changed pixels outside the damage")
            if step > 0 { for rect in changed { #expect(rect.maxX <= 100, "step \(step): \(rect) reaches the sliver") } }
            if differing > 0 || unreported > 0 { break }
        }
        #expect(coverage.joinedFills > 25, "only \(coverage.joinedFills) fills joined with the far side")
    }
}

extension TrackedCoverageTests {
    /// A partial update rasterizes the recorded segments reaching its rows rather than the whole
    /// path: with quadratic and cubic pieces, lines, a subpath closed and one left open, a curve
    /// drawn on from a closed subpath's start, under a turned and scaled transform, one corner
    /// moving a step at a time, the mask is that of a fresh coverage bit for bit after every
    /// update, every changed pixel reported, and most updates rasterize only some rows.
    @Test func partialUpdatesFromRecordedSegmentsEqualFreshCoverage() throws {
        let clip = IntRect(x: 0, y: 0, width: 200, height: 200)
        let coverage = try TrackedCoverage(width: 200, height: 200)
        var previous = [UInt8](repeating: 0, count: 200 * 200)
        let transform = Transform(a: 1.2 * cos(0.3), b: 1.2 * sin(0.3), c: -1.1 * sin(0.3), d: 1.1 * cos(0.3), tx: 60.25, ty: -10.5)
        for step in 0..<60 {
            let recording = FillRecording()
            let context = GraphicsContext(recordingInto: recording, clip: clip)
            var path = Path()
            path.move(to: Point(x: 20, y: 10))
            path.addQuadCurve(to: Point(x: 90, y: 20), control: Point(x: 55, y: -5))
            path.addCurve(to: Point(x: 95, y: 120), control1: Point(x: 120, y: 50), control2: Point(x: 70, y: 90))
            path.addLine(to: Point(x: 30, y: 110))
            path.closeSubpath()
            // On from the closed subpath's start, without a move.
            path.addCurve(to: Point(x: 5, y: 60), control1: Point(x: 0, y: 25), control2: Point(x: 15, y: 45))
            path.addLine(to: Point(x: 20, y: 80))
            // Open, closed by the move after it, its moving corner sweeping down and back.
            let y = 40 + Double(step < 30 ? step : 60 - step) * 1.7
            path.move(to: Point(x: 60, y: 40))
            path.addLine(to: Point(x: 110, y: y))
            path.addQuadCurve(to: Point(x: 70, y: 95), control: Point(x: 100, y: 100))
            path.move(to: Point(x: 112, y: 130))
            path.addCurve(to: Point(x: 40, y: 140), control1: Point(x: 90, y: 160), control2: Point(x: 60, y: 120))
            path.addLine(to: Point(x: 75, y: 118))
            context.setFillColor(.white)
            context.fill(path, rule: step % 20 < 10 ? .winding : .evenOdd)
            var changed: [IntRect] = []
            // The recorded segments are mapped as the rasterizer maps the path's points.
            coverage.update(recording, transform: transform, alpha: 255, clip: clip) { changed.append($0) }
            let (differing, unreported) = try Self.compare(coverage, withFresh: recording, transform: transform, alpha: 255, clip: clip,
                                                           changed: changed, previous: &previous)
            #expect(differing == 0, "step \(step): \(differing) pixels differ from fresh coverage")
            #expect(unreported == 0, "step \(step): \(unreported) changed pixels outside the damage")
            if differing > 0 || unreported > 0 { break }
        }
        #expect(coverage.partialUpdates > 40, "only \(coverage.partialUpdates) updates rasterized some rows")
    }
}

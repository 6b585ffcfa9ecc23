import Foundation
@testable import Raster
import Testing

/// Analytic checks of the rasterizer's coverage, through an ``AlphaMask``.
@Suite struct CoverageTests {
    static func polygon(_ points: [Point]) -> Path {
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        path.closeSubpath()
        return path
    }

    static func totalCoverage(_ mask: AlphaMask) -> Double {
        var sum = 0
        for y in 0..<mask.height { for x in 0..<mask.width { sum += Int(mask[x, y]) } }
        return Double(sum) / 255
    }

    /// The exact area of `polygon` inside the unit pixel at (x, y) (Sutherland–Hodgman, shoelace).
    static func exactArea(_ polygon: [Point], pixelX x: Int, y: Int) -> Double {
        var poly = polygon
        let x0 = Double(x), x1 = Double(x + 1), y0 = Double(y), y1 = Double(y + 1)
        let planes: [(Point) -> Double] = [{ $0.x - x0 }, { x1 - $0.x }, { $0.y - y0 }, { y1 - $0.y }]
        for inside in planes {
            var out: [Point] = []
            for i in poly.indices {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let da = inside(a), db = inside(b)
                if da >= 0 { out.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    out.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                }
            }
            poly = out
            if poly.isEmpty { return 0 }
        }
        return abs(shoelace(poly))
    }

    static func shoelace(_ p: [Point]) -> Double {
        var s = 0.0
        for i in p.indices { let a = p[i], b = p[(i + 1) % p.count]; s += a.x * b.y - b.x * a.y }
        return s / 2
    }

    @Test func integerRectangleIsExact() throws {
        let mask = try AlphaMask(width: 20, height: 20)
        mask.fill(Self.polygon([Point(x: 3, y: 4), Point(x: 15, y: 4), Point(x: 15, y: 11), Point(x: 3, y: 11)]))
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = (3..<15).contains(x) && (4..<11).contains(y)
                #expect(mask[x, y] == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    @Test func fractionalRectangleGetsExactAreaCoverage() throws {
        let mask = try AlphaMask(width: 30, height: 20)
        let rect = [Point(x: 10.25, y: 5.5), Point(x: 20.75, y: 5.5), Point(x: 20.75, y: 9.125), Point(x: 10.25, y: 9.125)]
        mask.fill(Self.polygon(rect))
        for y in 0..<20 {
            for x in 0..<30 {
                let exact = Self.exactArea(rect, pixelX: x, y: y) * 255
                #expect(abs(Double(mask[x, y]) - exact) <= 1, "pixel \(x),\(y): \(mask[x, y]) vs \(exact)")
            }
        }
        #expect(mask[10, 7] == 191)   // 0.75 of the column
        #expect(mask[20, 7] == 191)
    }

    @Test func circleAreaIsWithinOneThousandth() throws {
        let mask = try AlphaMask(width: 240, height: 240)
        let r = 100.0
        var path = Path()
        path.addEllipse(in: Rect(x: 120.3 - r, y: 119.6 - r, width: 2 * r, height: 2 * r))
        mask.fill(path)
        let area = Self.totalCoverage(mask)
        #expect(abs(area - .pi * r * r) / (.pi * r * r) < 0.001, "area \(area)")
    }

    /// Random star-shaped polygons: every pixel within 2/255 of the exact area inside it.
    @Test func randomPolygonsMatchExactAreaPerPixel() throws {
        var rng = SplitMix64(seed: 0x1234)
        let mask = try AlphaMask(width: 48, height: 48)
        for _ in 0..<12 {
            let n = Int.random(in: 3...11, using: &rng)
            let c = Point(x: Double.random(in: 18...30, using: &rng), y: Double.random(in: 18...30, using: &rng))
            var angles = (0..<n).map { _ in Double.random(in: 0..<(2 * .pi), using: &rng) }
            angles.sort()
            let poly = angles.map { a in
                let r = Double.random(in: 2...17, using: &rng)
                return Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
            }
            mask.clear()
            mask.fill(Self.polygon(poly))
            var worst = 0.0
            for y in 0..<48 {
                for x in 0..<48 {
                    worst = max(worst, abs(Double(mask[x, y]) - Self.exactArea(poly, pixelX: x, y: y) * 255))
                }
            }
            #expect(worst <= 2, "polygon \(poly): worst pixel off by \(worst)/255")
        }
    }

    /// A wide target is rasterized in bands of rows; a shape crossing a band boundary shows no seam.
    @Test func shapesCrossingBandBoundariesHaveNoSeam() throws {
        let width = 4000
        let bandRows = Rasterizer.maximumBandCells / (width + 2)
        // A disc of radius 400 across many bands, its centre just below a band boundary.
        let boundary = (400 / bandRows + 1) * bandRows
        let mask = try AlphaMask(width: width, height: boundary + 420)
        let r = 400.0
        var path = Path()
        path.addEllipse(in: Rect(x: 2000.5 - r, y: Double(boundary) + 0.3 - r, width: 2 * r, height: 2 * r))
        mask.fill(path)
        // Rows on either side of the boundary are fully covered across the disc's middle.
        for y in [boundary - 1, boundary] { for x in 1800..<2200 { #expect(mask[x, y] == 255) } }
        var sum = 0
        for y in 0..<mask.height { for x in 0..<width { sum += Int(mask[x, y]) } }
        #expect(abs(Double(sum) / 255 - .pi * r * r) / (.pi * r * r) < 0.001)
    }

    @Test func pentagramCentreFollowsTheFillRule() throws {
        let star = (0..<5).map { i -> Point in
            let a = -Double.pi / 2 + Double(i) * 4 * .pi / 5
            return Point(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a))
        }
        let winding = try AlphaMask(width: 100, height: 100)
        winding.fill(Self.polygon(star), rule: .winding)
        let evenOdd = try AlphaMask(width: 100, height: 100)
        evenOdd.fill(Self.polygon(star), rule: .evenOdd)
        #expect(winding[50, 52] == 255)
        #expect(evenOdd[50, 52] == 0)
        // A point of the star (winding 1) is full under both.
        #expect(winding[50, 15] == 255 && evenOdd[50, 15] == 255)
    }

    @Test func overlappingSubpathsFollowTheFillRule() throws {
        var same = Path()
        same.addRect(Rect(x: 2, y: 2, width: 10, height: 10))
        same.addRect(Rect(x: 6, y: 6, width: 10, height: 10))
        var opposite = Path()
        opposite.addRect(Rect(x: 2, y: 2, width: 10, height: 10))
        opposite.addPath(Self.polygon([Point(x: 6, y: 6), Point(x: 6, y: 16), Point(x: 16, y: 16), Point(x: 16, y: 6)]))
        func filled(_ p: Path, _ rule: FillRule) throws -> AlphaMask {
            let m = try AlphaMask(width: 20, height: 20); m.fill(p, rule: rule); return m
        }
        #expect(try filled(same, .winding)[8, 8] == 255)
        #expect(try filled(same, .evenOdd)[8, 8] == 0)
        #expect(try filled(opposite, .winding)[8, 8] == 0)
        #expect(try filled(same, .winding)[3, 3] == 255 && filled(same, .evenOdd)[14, 14] == 255)
    }

    /// Skia's `daa` GM: two triangles in one path that together exactly cover a square leave no seam.
    @Test func adjoiningTrianglesInOnePathLeaveNoSeam() throws {
        let mask = try AlphaMask(width: 40, height: 40)
        var path = Self.polygon([Point(x: 5.3, y: 5.3), Point(x: 35.3, y: 5.3), Point(x: 35.3, y: 35.3)])
        path.addPath(Self.polygon([Point(x: 5.3, y: 5.3), Point(x: 35.3, y: 35.3), Point(x: 5.3, y: 35.3)]))
        mask.fill(path)
        for y in 6..<35 { for x in 6..<35 { #expect(mask[x, y] == 255, "seam at \(x),\(y)") } }
    }

    @Test func coverageNeverLeaksOutsideTheShapesBounds() throws {
        let mask = try AlphaMask(width: 64, height: 64)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<50 {
            var path = Path()
            path.move(to: Point(x: Double.random(in: 10...50, using: &rng), y: Double.random(in: 10...50, using: &rng)))
            for _ in 0..<8 {
                path.addCurve(to: Point(x: Double.random(in: 10...50, using: &rng), y: Double.random(in: 10...50, using: &rng)),
                              control1: Point(x: Double.random(in: 10...50, using: &rng), y: Double.random(in: 10...50, using: &rng)),
                              control2: Point(x: Double.random(in: 10...50, using: &rng), y: Double.random(in: 10...50, using: &rng)))
            }
            mask.clear()
            mask.fill(path, rule: .evenOdd)
            for y in 0..<64 { for x in 0..<64 where !(9...50).contains(x) || !(9...50).contains(y) { #expect(mask[x, y] == 0) } }
        }
    }

    /// The AVX2 accumulation (eight rows of an edge to a register, CLinux_accumulate_edge_avx2)
    /// gives every cell the float the Swift loop gives it: random polygons, long edges across a
    /// wide clip that is cut in bands, edges leaving the clip on every side, both fill rules.
    @Test(.enabled(if: Kernels.hasAVX2)) func avx2AccumulationGivesTheCoverageOfTheSwiftLoop() {
        struct Grid: CoverageSink {
            let values: UnsafeMutablePointer<UInt8>
            let clip: IntRect
            mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {
                (values + (y - clip.y) * clip.width + x - clip.x).update(repeating: coverage, count: count)
            }
            mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
                (values + (y - clip.y) * clip.width + x - clip.x).update(from: coverage.baseAddress!, count: coverage.count)
            }
        }
        var rng = SplitMix64(seed: 0xA5A2)
        let clip = IntRect(x: 13, y: 7, width: 1500, height: 120)
        let count = clip.width * clip.height
        let swift = UnsafeMutablePointer<UInt8>.allocate(capacity: count), avx2 = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { swift.deallocate(); avx2.deallocate() }
        let rasterizer = Rasterizer()
        for round in 0..<40 {
            let n = Int.random(in: 3...24, using: &rng)
            let spread = round % 2 == 0 ? 1600.0 : 60.0
            let c = Point(x: Double.random(in: 0...1530, using: &rng), y: Double.random(in: 0...130, using: &rng))
            let poly = (0..<n).map { _ in
                Point(x: c.x + Double.random(in: -spread...spread, using: &rng), y: c.y + Double.random(in: -90...90, using: &rng))
            }
            let rule: FillRule = round % 3 == 0 ? .evenOdd : .winding
            for (uses, values) in [(false, swift), (true, avx2)] {
                values.initialize(repeating: 0, count: count)
                rasterizer.usesAVX2 = uses
                rasterizer.begin(clip: clip, targetWidth: clip.maxX)
                rasterizer.add(Self.polygon(poly), transform: .identity)
                var sink = Grid(values: values, clip: clip)
                rasterizer.render(rule: rule, into: &sink)
            }
            var differences = 0
            for i in 0..<count where swift[i] != avx2[i] { differences += 1 }
            #expect(differences == 0, "round \(round): \(differences) pixels differ")
        }
    }

    /// The AVX2 gathering of a row's runs from the band's table gives the runs the Swift loop
    /// gives, in the same order: rows of 1 to 300 columns, from all empty to all full, runs in
    /// order, reversed and shuffled, with equal first cells, and rows of 48 runs or more.
    @Test(.enabled(if: Kernels.hasAVX2)) func avx2GatheringOfRunsGivesTheRunsOfTheSwiftLoop() {
        var rng = SplitMix64(seed: 0x6A7E)
        let swift = UnsafeMutablePointer<Rasterizer.Cells>.allocate(capacity: 300)
        let avx2 = UnsafeMutablePointer<Rasterizer.Cells>.allocate(capacity: 300)
        defer { swift.deallocate(); avx2.deallocate() }
        let rasterizer = Rasterizer()
        for round in 0..<2000 {
            let columns = round < 300 ? round + 1 : Int.random(in: 1...300, using: &rng)
            let filled = Double(round % 5) / 4
            for k in 0..<columns {
                let x0 = Int32(round % 7 == 0 ? k * 3 : Int.random(in: 0...(round % 3 == 0 ? 20 : 1900), using: &rng))
                let run = Rasterizer.Cells(x0: x0, x1: x0 + Int32.random(in: 0...40, using: &rng))
                swift[k] = Double.random(in: 0..<1, using: &rng) < filled ? run : Rasterizer.Cells(x0: -1, x1: -1)
            }
            if round % 11 == 0 { for k in 0..<columns / 2 { (swift[k], swift[columns - 1 - k]) = (swift[columns - 1 - k], swift[k]) } }
            avx2.update(from: swift, count: columns)
            rasterizer.usesAVX2 = false
            let expected = rasterizer.gatherRuns(swift, columns: columns)
            rasterizer.usesAVX2 = true
            let count = rasterizer.gatherRuns(avx2, columns: columns)
            #expect(count == expected, "round \(round)")
            var differences = 0
            for k in 0..<min(count, expected) where swift[k].x0 != avx2[k].x0 || swift[k].x1 != avx2[k].x1 { differences += 1 }
            #expect(differences == 0, "round \(round): \(differences) runs differ")
        }
    }

    /// A sprite turning on the frame, drawn by one rasterizer frame after frame (the orbit
    /// scene's arrow): as it turns, a band holds more of its rows, and the table of runs sized by
    /// the first frame's band grew mid-animation (one allocation a turn in the scene benchmark).
    @Test func aTurningShapeNeverGrowsTheRasterizersBuffers() {
        struct Discard: CoverageSink {
            mutating func span(y: Int, x: Int, count: Int, coverage: UInt8) {}
            mutating func cells(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {}
        }
        let rasterizer = Rasterizer()
        let clip = IntRect(x: 0, y: 0, width: 640, height: 480)
        let quad = Self.polygon([Point(x: -22, y: -14), Point(x: 22, y: -14), Point(x: 22, y: 14), Point(x: -22, y: 14)])
        var capacity = 0
        for step in 0..<72 {
            let angle = Double(step) * .pi / 36
            rasterizer.begin(clip: clip, targetWidth: clip.maxX)
            rasterizer.add(quad, transform: Transform(rotationAngle: angle).concatenating(Transform(translationX: 320.5, y: 240.25)))
            var sink = Discard()
            rasterizer.render(rule: .winding, into: &sink)
            if step == 0 { capacity = rasterizer.scratchCapacity; continue }
            #expect(rasterizer.scratchCapacity == capacity, "step \(step): \(capacity) elements grew to \(rasterizer.scratchCapacity)")
        }
    }
}

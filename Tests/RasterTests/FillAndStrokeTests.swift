@testable import Raster
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `fillAndStroke` rasterizes a fill and its stroke together, band by band; the pixels must be
/// those of filling and then stroking.
@Suite struct FillAndStrokeTests {
    /// Wide enough that a band holds fewer rows than the bitmap (bands of about 93 rows here).
    static let width = 700, height = 300

    /// Seeded wedges and stars at random angles, sizes and trims, with and without a held-back
    /// opaque background, a clip mask, global alpha and a translucent fill: tolerance 0.
    @Test(arguments: [UInt64(0x71), 0x72, 0x73, 0x74])
    func sameAsFillThenStroke(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() % 10_000) / 10_000 }
        for round in 0..<12 {
            var path = Path()
            let cx = unit() * Double(Self.width), cy = unit() * Double(Self.height)
            let spikes = 3 + Int(rng.next() % 8), turn = unit() * 2 * .pi
            for k in 0..<(2 * spikes) {
                let r = (k % 2 == 0 ? 60 + unit() * 300 : 5 + unit() * 40), a = turn + Double(k) * .pi / Double(spikes)
                let p = Point(x: cx + r * cos(a), y: cy + r * sin(a))
                if k == 0 { path.move(to: p) } else if k % 4 == 3 { path.move(to: p) } else { path.addLine(to: p) }
            }
            path.closeSubpath()
            let background = round % 2 == 0
            let masked = round % 3 == 1
            let alpha = round % 4 == 2 ? 0.6 : 1
            let fill = round % 5 == 4 ? Color(rgb: 0x3B7FBF, alpha: 0.5) : Color(rgb: 0x3B7FBF)
            let width = 1 + unit() * 6
            let join: LineJoin = [.miter, .round, .bevel][Int(rng.next() % 3)]
            let (start, end) = round % 3 == 2 ? (0.1, 0.8) : (0.0, 1.0)
            let rule: FillRule = round % 2 == 0 ? .winding : .evenOdd
            var results: [Bitmap] = []
            for together in [false, true] {
                let bitmap = try Bitmap(width: Self.width, height: Self.height)
                bitmap.fill(IntRect(x: 0, y: 0, width: Self.width, height: Self.height), with: 0xFF10_2030)
                let c = GraphicsContext(bitmap: bitmap)
                c.defersOpaqueFills = together   // the reference draws everything as it comes
                c.saveGState()
                if masked {
                    c.beginPath()
                    c.addEllipse(in: Rect(x: 50, y: 20, width: 560, height: 260))
                    c.clip()
                }
                if background {
                    c.setFillColor(Color(rgb: 0x24507A))
                    c.fill(Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)))
                    c.clip(to: Rect(x: 10, y: 5, width: 640, height: 290))
                }
                c.setAlpha(alpha)
                c.setFillColor(fill)
                c.setStrokeColor(Color(rgb: 0x8CC4F2))
                c.setStrokeStyle(StrokeStyle(lineWidth: width, lineJoin: join))
                if together {
                    c.fillAndStroke(path, rule: rule, strokeFrom: start, to: end)
                } else {
                    c.fill(path, rule: rule)
                    c.stroke(path, from: start, to: end)
                }
                c.restoreGState()
                results.append(bitmap)
            }
            var differing = 0
            for i in 0..<(Self.width * Self.height) where results[0].pixels[i] != results[1].pixels[i] { differing += 1 }
            #expect(differing == 0, "seed \(seed), round \(round)")
        }
    }

    /// A band's rows gathered and swept in one CLinux call (the fill over a held-back background
    /// written whole from its table, the stroke blended over it) against the same calls row by
    /// row and against the Swift loops: the rays' wedges turning about a centre inside the frame,
    /// over bands of about 93 rows, and a triangle below them after rows with no runs.
    @Test(.enabled(if: Kernels.hasAVX2), arguments: [0.0, 0.37, 1.9, 4.4])
    func wholeBandSweepsGiveThePixelsOfRowByRowOnes(turn: Double) throws {
        var path = Path()
        let c = Point(x: 331.5, y: 120.25), radius = 260.0, slice = Double.pi / 8
        for i in stride(from: 0, to: 16, by: 2) {
            let a0 = turn + Double(i) * slice, a1 = a0 + slice
            path.move(to: c)
            path.addLine(to: Point(x: c.x + radius * cos(a0), y: c.y + 0.4 * radius * sin(a0)))
            path.addLine(to: Point(x: c.x + radius * cos(a1), y: c.y + 0.4 * radius * sin(a1)))
            path.closeSubpath()
        }
        path.move(to: Point(x: 40.2, y: 262.5))
        path.addLine(to: Point(x: 690.7, y: 280.1))
        path.addLine(to: Point(x: 200.3, y: 296.9))
        path.closeSubpath()
        var results: [Bitmap] = []
        for (avx2, wholeBands) in [(false, false), (true, false), (true, true)] {
            let bitmap = try Bitmap(width: Self.width, height: Self.height)
            let context = GraphicsContext(bitmap: bitmap)
            context.defersOpaqueFills = true
            context.usesAVX2Kernels = avx2
            context.rasterizer.sweepsWholeBands = wholeBands
            context.strokeRasterizer.sweepsWholeBands = wholeBands
            context.saveGState()
            context.setFillColor(Color(rgb: 0x24507A))
            context.fill(Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)))
            context.setFillColor(Color(rgb: 0x3B7FBF))
            context.setStrokeColor(Color(rgb: 0x8CC4F2))
            context.setStrokeStyle(StrokeStyle(lineWidth: 2, lineJoin: .round))
            context.fillAndStroke(path)
            context.restoreGState()
            results.append(bitmap)
        }
        for k in 1..<3 {
            var differing = 0
            for i in 0..<(Self.width * Self.height) where results[0].pixels[i] != results[k].pixels[i] { differing += 1 }
            #expect(differing == 0, "turn \(turn), variant \(k): \(differing) pixels differ")
        }
    }
}

import Foundation
import Raster
import RasterTestSupport
import Testing

/// The seed's arrow: an annular sector with a pointed head, drawn exactly as the seed writes it.
struct Arrow {
    var center: Point
    var outerRadius: Double
    var thickness: Double
    var startAngle: Double
    var length: Double
    var headLength: Double

    var path: Path {
        let innerRadius = outerRadius - thickness
        let midRadius = (outerRadius + innerRadius) / 2
        let tip = startAngle + length
        let sign: Double = length < 0 ? -1 : 1
        let head = tip - sign * min(headLength, abs(length))
        var p = Path()
        p.move(to: Point(x: center.x + midRadius * cos(tip), y: center.y + midRadius * sin(tip)))
        p.addArc(center: center, radius: outerRadius, startAngle: head, endAngle: startAngle, clockwise: length > 0)
        p.addArc(center: center, radius: innerRadius, startAngle: startAngle, endAngle: head, clockwise: length < 0)
        p.closeSubpath()
        return p
    }
}

@Suite struct ArrowGoldenTests {
    static let cases: [(name: String, length: Double, head: Double)] = [
        ("arrow-0.001", 0.001, .pi / 16),
        ("arrow-half-pi", .pi / 2, .pi / 16),
        ("arrow-pi", .pi, .pi / 16),
        ("arrow-two-pi", 2 * .pi, .pi / 16),
        ("arrow-minus-pi", -.pi, .pi / 16),
        ("arrow-overlong-head", .pi / 3, .pi / 2),
    ]

    static func render(length: Double, head: Double) throws -> Bitmap {
        let bitmap = try Bitmap(width: 160, height: 120)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color(white: 0.1))
        context.fill(Rect(x: 0, y: 0, width: 160, height: 120))
        context.setFillColor(Color(red: 1, green: 0.6, blue: 0.1))
        let arrow = Arrow(center: Point(x: 80, y: 60), outerRadius: 50, thickness: 16, startAngle: -.pi / 2, length: length, headLength: head)
        context.fill(arrow.path)
        return bitmap
    }

    @Test(arguments: cases.indices)
    func arrowMatchesGolden(index: Int) throws {
        let c = Self.cases[index]
        assertMatchesGolden(try Self.render(length: c.length, head: c.head), named: c.name, in: Bundle.module)
    }

    /// The arrow's area matches the annular sector's analytic area (head and body together form a
    /// sector of the ring minus the head's two triangles, plus the triangle to the tip).
    @Test func halfTurnArrowCoversTheExpectedArea() throws {
        let mask = try AlphaMask(width: 160, height: 120)
        let arrow = Arrow(center: Point(x: 80, y: 60), outerRadius: 50, thickness: 16, startAngle: -.pi / 2, length: .pi, headLength: .pi / 16)
        mask.fill(arrow.path)
        var sum = 0
        for y in 0..<120 { for x in 0..<160 { sum += Int(mask[x, y]) } }
        let sweep: Double = Double.pi - Double.pi / 16
        let body: Double = sweep / 2 * (50.0 * 50.0 - 34.0 * 34.0)
        // The head: two triangles from the head's outer and inner points to the tip on the mid radius.
        func pt(_ r: Double, _ a: Double) -> Point { Point(x: r * cos(a), y: r * sin(a)) }
        func tri(_ a: Point, _ b: Point, _ c: Point) -> Double { abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2 }
        let tip: Double = Double.pi / 2
        let h: Double = tip - Double.pi / 16
        let head = tri(pt(50, h), pt(42, tip), pt(0, 0)) - tri(pt(34, h), pt(42, tip), pt(0, 0))
        let expected = body + head
        #expect(abs(Double(sum) / 255 - expected) / expected < 0.003, "\(Double(sum) / 255) vs \(expected)")
    }
}

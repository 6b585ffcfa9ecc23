// ArrowLayer: the seed's curved arrow, written as an iOS developer would write a CALayer subclass.

#if canImport(Glibc)
import Glibc
#endif
import LiveLayers
import Raster

/// A thick circular arc ending in an arrowhead, drawn around the centre of the bounds.
///
/// Every property is a custom animatable property: declared with `@LayerProperty`, copied into
/// presentation copies automatically (no `init(layer:)` to write), and listed in
/// `needsDisplay(forKey:)` so that animating one of them redraws the arrow every frame.
final class ArrowLayer: Layer {
    /// The radial width of the band, in points.
    @LayerProperty var thickness = 20.0
    /// Where the tail sits, in radians (0 is 3 o'clock; positive turns clockwise on screen).
    @LayerProperty var startRadians = -Double.pi / 2
    /// How far the arrow sweeps from the tail to the tip; negative sweeps counter-clockwise.
    @LayerProperty var lengthRadians = 0.0
    /// How much of the sweep the head takes.
    @LayerProperty var headLengthRadians = 0.35
    /// The fill; `nil` leaves the band unfilled.
    @LayerProperty var fillColor: Color? = .black
    /// The outline; `nil` (the default) draws none.
    @LayerProperty var strokeColor: Color? = nil
    /// The outline's width.
    @LayerProperty var lineWidth = 1.0
    /// How the outline's corners join.
    @LayerProperty var lineJoin: LineJoin = .round

    private static let drawingKeys: Set<String> = [
        "thickness", "startRadians", "lengthRadians", "headLengthRadians",
        "fillColor", "strokeColor", "lineWidth", "lineJoin",
    ]

    override class func needsDisplay(forKey key: String) -> Bool {
        drawingKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    /// The outline's storage, reused from frame to frame: the arrow is redrawn every frame of
    /// a sweep, and a fresh path each time would allocate.
    private var outline = Path()

    /// Builds the arrow's outline, in layer coordinates, into `path` (replacing what it held).
    func buildArrowPath(into path: inout Path) {
        let c = bounds.center
        let outerR = bounds.width / 2
        let innerR = outerR - thickness
        let midR = (outerR + innerR) / 2
        let tip = startRadians + lengthRadians
        let sign: Double = lengthRadians < 0 ? -1 : 1
        let head = tip - sign * min(headLengthRadians, abs(lengthRadians))
        path.removeAll()
        path.move(to: Point(x: c.x + midR * cos(tip), y: c.y + midR * sin(tip)))
        Self.addAnchoredArc(to: &path, center: c, radius: outerR, from: head, to: startRadians)
        Self.addAnchoredArc(to: &path, center: c, radius: innerR, from: startRadians, to: head)
        path.closeSubpath()
    }

    /// The angle between the fixed points at which the band's arcs are cut into pieces.
    static let arcPieceRadians = Double.pi / 32

    /// Adds the arc from angle `a` to angle `b` (the short way round, less than a turn) as pieces
    /// cut at the multiples of ``arcPieceRadians``. Every piece but the one ending at the head
    /// is then the same curve from frame to frame while the arrow grows or shrinks, so the
    /// pixels it covers keep their coverage and only the pixels near the head are damaged. One
    /// arc from the tail to the head would move every point of its curves each frame (its
    /// Bézier pieces are fitted to the whole sweep), damaging the band back to the last
    /// quarter turn.
    static func addAnchoredArc(to path: inout Path, center: Point, radius: Double, from a: Double, to b: Double) {
        let step = arcPieceRadians
        guard abs(b - a) < 2 * .pi, a.isFinite, b.isFinite else {
            path.addArc(center: center, radius: radius, startAngle: a, endAngle: b, clockwise: b < a)
            return
        }
        let forward = b > a
        var a0 = a
        var pieces = 0
        repeat {
            // The next multiple of the step strictly past a0 (a0 itself when within rounding of one).
            var cut = forward ? ((a0 / step).rounded(.down) + 1) * step : ((a0 / step).rounded(.up) - 1) * step
            if abs(cut - a0) < 1e-12 { cut += forward ? step : -step }
            let a1 = forward ? min(cut, b) : max(cut, b)
            path.addArc(center: center, radius: radius, startAngle: a0, endAngle: a1, clockwise: !forward)
            a0 = a1
            pieces += 1
        } while a0 != b && pieces < 2 * 64 + 2
    }

    override func draw(in context: GraphicsContext) {
        guard lengthRadians != 0 else { return }
        buildArrowPath(into: &outline)
        if let fillColor {
            context.setFillColor(fillColor)
            context.fill(outline)
        }
        if let strokeColor {
            context.setStrokeColor(strokeColor)
            context.setLineWidth(lineWidth)
            context.setLineJoin(lineJoin)
            context.stroke(outline)
        }
    }
}

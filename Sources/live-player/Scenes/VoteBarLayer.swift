// VoteBarLayer: one PK vote bar, a custom layer with an animatable progress (the Chinese post).

import LiveLayers
import Raster

/// A vote bar 36 high with 18-radius round outer ends, filling `progress` of the layer's width
/// from its own side, its inner end cut by a slanted edge. The edge is built from lines and
/// quadratic curves, as the post builds it; two bars with progresses adding up to 1 meet along
/// parallel edges with a small gap.
///
/// `progress` redraws the bar every frame while it animates (`needsDisplay(forKey:)`).
final class VoteBarLayer: Layer {
    /// The fraction of the width the bar covers, 0...1.
    @LayerProperty var progress = 0.5
    /// Whether the bar grows from the right edge.
    @LayerProperty var growsFromRight = false
    /// The bar's colour.
    @LayerProperty var barColor = Color(rgb: 0xE8453C)

    static let barHeight = 36.0
    static let endRadius = 18.0
    static let slant = 14.0
    static let gap = 4.0

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || key == "growsFromRight" || key == "barColor" || super.needsDisplay(forKey: key)
    }

    /// The outline's storage, reused: the bar is redrawn every frame while `progress` animates.
    private var outline = Path()

    override func draw(in context: GraphicsContext) {
        let width = bounds.width, h = Self.barHeight, r = Self.endRadius
        let y0 = (bounds.height - h) / 2
        let meeting = growsFromRight ? width * (1 - progress) : width * progress
        let shift = growsFromRight ? Self.gap / 2 : -Self.gap / 2
        // The slanted inner edge: top at meeting + slant/2, bottom at meeting − slant/2.
        let top = meeting + Self.slant / 2 + shift, bottom = meeting - Self.slant / 2 + shift
        var path = outline
        outline = Path()  // `path` holds the only reference to the storage: no copy on write
        defer { outline = path }
        path.removeAll()
        if growsFromRight {
            guard width - top > 0 || width - bottom > 0 else { return }
            path.move(to: Point(x: width - r, y: y0))
            path.addQuadCurve(to: Point(x: width, y: y0 + r), control: Point(x: width, y: y0))
            path.addQuadCurve(to: Point(x: width - r, y: y0 + h), control: Point(x: width, y: y0 + h))
            path.addLine(to: Point(x: min(width - r, bottom + 3), y: y0 + h))
            path.addQuadCurve(to: Point(x: bottom + 1, y: y0 + h - 3), control: Point(x: bottom, y: y0 + h))
            path.addLine(to: Point(x: top - 1, y: y0 + 3))
            path.addQuadCurve(to: Point(x: min(width - r, top + 3), y: y0), control: Point(x: top, y: y0))
        } else {
            guard top > 0 || bottom > 0 else { return }
            path.move(to: Point(x: r, y: y0))
            path.addLine(to: Point(x: max(r, top - 3), y: y0))
            path.addQuadCurve(to: Point(x: top - 1, y: y0 + 3), control: Point(x: top, y: y0))
            path.addLine(to: Point(x: bottom + 1, y: y0 + h - 3))
            path.addQuadCurve(to: Point(x: max(r, bottom - 3), y: y0 + h), control: Point(x: bottom, y: y0 + h))
            path.addLine(to: Point(x: r, y: y0 + h))
            path.addQuadCurve(to: Point(x: 0, y: y0 + r), control: Point(x: 0, y: y0 + h))
            path.addQuadCurve(to: Point(x: r, y: y0), control: Point(x: 0, y: y0))
        }
        path.closeSubpath()
        context.setFillColor(barColor)
        context.fill(path)
    }
}

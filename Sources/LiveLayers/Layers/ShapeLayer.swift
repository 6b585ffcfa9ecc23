// ShapeLayer: a layer that fills and strokes a path (CAShapeLayer).

import Raster

/// A layer that draws a path, as `CAShapeLayer`.
///
/// The path is drawn in the layer's coordinates, filled and then stroked, above the
/// background and contents and below the sublayers. Unlike drawn content it is not clipped to
/// the bounds (unless ``Layer/masksToBounds``), and it is rendered as vectors each time, so it
/// stays sharp under any transform. `path` animates between paths of the same shape (same
/// elements in the same order), as Core Animation's does; `fillColor`, `strokeColor`,
/// `lineWidth`, `miterLimit`, `lineDashPhase`, `strokeStart` and `strokeEnd` animate too, and
/// all of them animate implicitly.
open class ShapeLayer: Layer {
    /// The shape; `nil` draws nothing.
    @LayerProperty public var path: Path? = nil
    /// The fill colour; `nil` does not fill. Default opaque black.
    @LayerProperty public var fillColor: Color? = .black
    /// The stroke colour; `nil` (the default) does not stroke.
    @LayerProperty public var strokeColor: Color? = nil
    /// The stroke width. Default 1.
    @LayerProperty public var lineWidth = 1.0
    /// How stroked segments join. Default `.miter`.
    @LayerProperty public var lineJoin: LineJoin = .miter
    /// How open ends are capped. Default `.butt`.
    @LayerProperty public var lineCap: LineCap = .butt
    /// The miter limit. Default 10.
    @LayerProperty public var miterLimit = 10.0
    /// How the fill decides the inside. Default `.winding` (non-zero).
    @LayerProperty public var fillRule: FillRule = .winding
    /// Dash and gap lengths of the stroke; empty (the default) for a solid line.
    @LayerProperty public var lineDashPattern: [Double] = []
    /// How far into the dash pattern the stroke starts.
    @LayerProperty public var lineDashPhase = 0.0
    /// Where the stroke starts, as a fraction 0...1 of the path's length. Default 0.
    @LayerProperty public var strokeStart = 0.0
    /// Where the stroke ends, as a fraction 0...1 of the path's length. Default 1.
    @LayerProperty public var strokeEnd = 1.0

    /// Creates a shape layer with no path.
    public required init() {
        super.init()
    }

    static let shapeKeys: Set<String> = [
        "path", "fillColor", "strokeColor", "lineWidth", "lineJoin", "lineCap", "miterLimit", "fillRule",
        "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
    ]

    static let animatedShapeKeys: Set<String> = [
        "path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd",
    ]

    open override class func needsDisplay(forKey key: String) -> Bool {
        shapeKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    open override class func defaultAction(forKey key: String) -> (any Action)? {
        if animatedShapeKeys.contains(key) { return Layer.implicitAnimation(forKey: key) }
        return super.defaultAction(forKey: key)
    }

    override var directContentBounds: Rect? {
        guard let path, !path.isEmpty else { return nil }
        var box = path.boundingBox
        if strokeColor != nil {
            // Miter joins can reach miterLimit · lineWidth / 2 beyond the path.
            let reach = lineWidth / 2 * max(1, lineJoin == .miter ? miterLimit : 1.5)
            box = box.insetBy(dx: -reach, dy: -reach)
        }
        return box
    }

    override func drawDirectContent(in context: GraphicsContext) {
        guard let path, !path.isEmpty else { return }
        let start = min(1, max(0, strokeStart)), end = min(1, max(0, strokeEnd))
        var fills = false
        if let fillColor { fills = fillColor.alpha > 0 }
        guard let strokeColor, strokeColor.alpha > 0, lineWidth > 0, end > start else {
            if let fillColor, fills {
                context.setFillColor(fillColor)
                context.fill(path, rule: fillRule)
            }
            return
        }
        context.setStrokeColor(strokeColor)
        context.setStrokeStyle(StrokeStyle(lineWidth: lineWidth, lineJoin: lineJoin, lineCap: lineCap,
                                           miterLimit: miterLimit, dashPhase: lineDashPhase, dashLengths: lineDashPattern))
        // Trimmed in the context's reused stroker buffers: a strokeEnd animating every frame
        // allocates nothing.
        if let fillColor, fills {
            context.setFillColor(fillColor)
            // One pass over the rows for both: the stroke blends over the fill while it is in the cache.
            context.fillAndStroke(path, rule: fillRule, strokeFrom: start, to: end)
        } else {
            context.stroke(path, from: start, to: end)
        }
    }
}

// GradientLayer: a layer filled with an axial, radial or conic gradient (CAGradientLayer).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// The shape of a ``GradientLayer``'s gradient (`CAGradientLayerType`).
public enum GradientType: Sendable, Hashable {
    /// Along the line from ``GradientLayer/startPoint`` to ``GradientLayer/endPoint``.
    case axial
    /// An ellipse centred on the start point; the end point's offset from it gives the radii
    /// (its x distance times the width, its y distance times the height).
    case radial
    /// Around the start point, starting along the direction of the end point and turning clockwise.
    case conic
}

/// A layer that draws a gradient over its bounds, as `CAGradientLayer`, dithered so that slow
/// gradients show no bands.
///
/// Points are in the unit coordinate space of the bounds: (0, 0) is the top-left corner and
/// (1, 1) the bottom-right (y grows downward, as on iOS). ``colors``, ``locations``,
/// ``startPoint`` and ``endPoint`` animate, implicitly too. The gradient is shaded straight into
/// the frame at device resolution wherever the layer is redrawn (no backing store to resample:
/// sharp and cheap under any transform, as vector renderers draw gradients); its colour ramp is
/// rebuilt only when the colours or locations change.
open class GradientLayer: Layer {
    /// The colours; fewer than one draws nothing, one fills the bounds.
    @LayerProperty public var colors: [Color] = []
    /// The location (0...1) of each colour; `nil` (the default) spreads them evenly. Ignored
    /// unless it has as many entries as ``colors``.
    @LayerProperty public var locations: [Double]? = nil
    /// Where location 0 lies. Default (0.5, 0): the top edge's centre.
    @LayerProperty public var startPoint = Point(x: 0.5, y: 0)
    /// Where location 1 lies. Default (0.5, 1): the bottom edge's centre.
    @LayerProperty public var endPoint = Point(x: 0.5, y: 1)
    /// The gradient's shape. Default `.axial`.
    @LayerProperty public var type: GradientType = .axial

    /// The shading last drawn; its stops and ramp are refilled in place.
    private(set) var cachedShading: Shading?

    /// Creates a gradient layer with no colours; it redraws when its bounds change.
    public required init() {
        super.init()
        needsDisplayOnBoundsChange = true
        setNeedsDisplay()
    }

    static let gradientKeys: Set<String> = ["colors", "locations", "startPoint", "endPoint", "type"]
    static let animatedGradientKeys: Set<String> = ["colors", "locations", "startPoint", "endPoint"]

    open override class func needsDisplay(forKey key: String) -> Bool {
        gradientKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    open override class func defaultAction(forKey key: String) -> (any Action)? {
        if animatedGradientKeys.contains(key) { return Layer.implicitAnimation(forKey: key) }
        return super.defaultAction(forKey: key)
    }

    /// The gradient of ``colors`` at ``locations``.
    public var gradient: Gradient {
        let n = colors.count
        if let locations, locations.count == n {
            return Gradient(stops: (0..<n).map { (locations[$0], colors[$0]) })
        }
        return Gradient(stops: (0..<n).map { (n == 1 ? 0 : Double($0) / Double(n - 1), colors[$0]) })
    }

    /// Draws the gradient over the bounds (what the renderer does at composite time).
    open override func draw(in context: GraphicsContext) { drawGradient(in: context) }

    override var directContentBounds: Rect? {
        let b = bounds.standardized
        return colors.isEmpty || b.width <= 0 || b.height <= 0 ? nil : b
    }

    override func drawDirectContent(in context: GraphicsContext) { drawGradient(in: context) }

    /// The axial gradient's end points in the layer's space, as drawn; nil for another type or
    /// nothing drawn.
    var axialEnds: (start: Point, end: Point)? {
        guard type == .axial, !colors.isEmpty else { return nil }
        let b = bounds.standardized
        guard b.width > 0, b.height > 0 else { return nil }
        func place(_ p: Point) -> Point { Point(x: b.minX + p.x * b.width, y: b.minY + p.y * b.height) }
        return (place(startPoint), place(endPoint))
    }

    private func drawGradient(in context: GraphicsContext) {
        guard !colors.isEmpty else { return }
        let b = bounds.standardized
        guard b.width > 0, b.height > 0 else { return }
        func place(_ p: Point) -> Point { Point(x: b.minX + p.x * b.width, y: b.minY + p.y * b.height) }
        let start = place(startPoint), end = place(endPoint)
        let geometry: Shading.Geometry
        context.saveGState()
        defer { context.restoreGState() }
        context.clip(to: b)
        switch type {
        case .axial:
            geometry = .axial(start: start, end: end)
        case .radial:
            // An ellipse: a unit circle scaled by the two radii.
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            if rx > 0, ry > 0 {
                context.translateBy(x: start.x, y: start.y)
                context.scaleBy(x: rx, y: ry)
                geometry = .radial(center: .zero, radius: 1)
            } else {
                geometry = .radial(center: start, radius: max(rx, ry))
            }
        case .conic:
            geometry = .conic(center: start, angle: atan2(end.y - start.y, end.x - start.x))
        }
        // The stops and the colour ramp are refilled in place, and only when the colours or
        // locations change: an animated gradient allocates nothing per frame.
        if cachedShading == nil { cachedShading = Shading(Gradient(stops: []), geometry: geometry) }
        cachedShading!.geometry = geometry
        cachedShading!.setStops(colors: colors, locations: locations)
        context.drawShading(cachedShading!)
    }
}

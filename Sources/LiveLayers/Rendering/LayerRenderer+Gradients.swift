// LayerRenderer+Gradients: an axial gradient layer whose colours or locations alone change
// damages the pixels whose ramp colours changed, not the whole layer.

import Raster

extension LayerRenderer {
    /// Horizontal slabs a changed gradient's damage is cut into: the changed band of a slanted
    /// gradient crosses the layer diagonally, and each slab damages only its own stretch of it.
    static let gradientDamageSlabs = 4

    /// For an axial ``GradientLayer`` whose only change since last frame is its content (its
    /// colours or locations: `signature` equals the last one but for the content version),
    /// damages the device pixels whose location falls where the colour ramp changed and
    /// returns true. The pixels elsewhere are the same ramp entries at the same locations with
    /// the same dither, so they are the same. Returns false (damage the whole layer) otherwise.
    /// Keeps the shading as prepared for the next frame's comparison either way.
    func damageGradientChange(of layer: Layer, shown: Layer, record: RenderRecord, signature: RenderSignature) -> Bool {
        guard type(of: layer) == GradientLayer.self, let gradient = shown as? GradientLayer else { return false }
        let ends = gradient.axialEnds
        // The spare is refilled in place (its ramp is referenced only here) and becomes the
        // prepared shading; the one before becomes the spare.
        let geometry = Shading.Geometry.axial(start: ends?.start ?? .zero, end: ends?.end ?? .zero)
        if record.spareGradientShading == nil { record.spareGradientShading = Shading(Gradient(stops: []), geometry: geometry) }
        record.spareGradientShading!.geometry = geometry
        record.spareGradientShading!.setStops(colors: gradient.colors, locations: gradient.locations)
        let previous = record.gradientShading
        record.gradientShading = record.spareGradientShading
        record.spareGradientShading = previous
        guard let ends, let previous, let current = record.gradientShading, previous.geometry == current.geometry,
              record.hasSignature, record.previousRect == record.deviceRect else { return false }
        var unchanged = signature
        unchanged.contentVersion = record.signature.contentVersion
        guard record.hasSignature(equalTo: unchanged) else { return false }
        guard let (lower, upper) = current.locationsThatDiffer(from: previous) else { return true }
        // t at device point (X, Y) = t0 + dtdx·X + dtdy·Y, as the shading evaluates it.
        guard let inverse = record.deviceTransform.inverted() else { return false }
        let dx = ends.end.x - ends.start.x, dy = ends.end.y - ends.start.y
        let len2 = dx * dx + dy * dy
        guard len2 > 0, len2.isFinite else { return false }
        let dtdx = (inverse.a * dx + inverse.b * dy) / len2, dtdy = (inverse.c * dx + inverse.d * dy) / len2
        let t0 = ((inverse.tx - ends.start.x) * dx + (inverse.ty - ends.start.y) * dy) / len2
        guard dtdx.isFinite, dtdy.isFinite, t0.isFinite else { return false }
        // A margin far above the rounding of t along a row; the ends stay finite.
        let ta = max(-1e12, lower - 1e-7), tb = min(1e12, upper + 1e-7)
        let rect = record.deviceRect
        let slabs = min(Self.gradientDamageSlabs, max(1, rect.height / 32))
        for k in 0..<slabs {
            let y0 = rect.y + rect.height * k / slabs, y1 = rect.y + rect.height * (k + 1) / slabs
            guard y1 > y0 else { continue }
            let top = Double(y0), bottom = Double(y1)
            var x0 = Double(rect.x), x1 = Double(rect.maxX)
            if abs(dtdx) * Double(rect.width) > 1e-9 {
                // The columns where t crosses ta and tb, at the slab's top and bottom edges.
                let a = (ta - t0 - dtdy * top) / dtdx, b = (ta - t0 - dtdy * bottom) / dtdx
                let c = (tb - t0 - dtdy * top) / dtdx, d = (tb - t0 - dtdy * bottom) / dtdx
                x0 = max(x0, (min(a, b, c, d) - 2).rounded(.down))
                x1 = min(x1, (max(a, b, c, d) + 2).rounded(.up))
            } else {
                let a = t0 + dtdy * top + dtdx * x0, b = t0 + dtdy * bottom + dtdx * x0
                if max(a, b) < ta - 1e-6 || min(a, b) > tb + 1e-6 { continue }
            }
            guard x1 > x0 else { continue }
            damage(IntRect(x: Int(x0), y: y0, width: Int(x1 - x0), height: y1 - y0))
        }
        return true
    }
}

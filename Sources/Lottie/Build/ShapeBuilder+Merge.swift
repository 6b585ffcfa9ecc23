// ShapeBuilder+Merge: merge paths (add, subtract, intersect, exclude) as combined coverage.

import LiveLayers
import Raster

extension ShapeBuilder {
    /// A fill of paths some of which are merged: the fill's colour on a layer covering the
    /// shapes' box, masked by their combined coverage (``coverage(of:evenOdd:)``).
    func mergedFill(_ sources: [PathSource], color: Animatable<Vector>, opacity: Animatable<Scalar>, evenOdd: Bool) throws(LottieError) -> Layer {
        let box = try boxOverFrames(sources, reach: 2)
        let layer = Layer()
        layer.anchorPoint = .zero
        guard box.width > 0, box.height > 0 else { return layer }
        layer.bounds = box
        layer.position = box.origin
        try animator.apply(color, to: layer, key: "backgroundColor", set: { layer.backgroundColor = $0 }) { Optional(Self.color($0)) }
        try animator.apply(opacity, to: layer, key: "opacity", set: { layer.opacity = $0 }) { $0.value / 100 }
        layer.mask = try coverage(of: sources, evenOdd: evenOdd)
        return layer
    }

    /// White where `sources` are, as layers: a plain path is a filled shape; merged operands
    /// combine by compositing their coverage, since Raster has no path booleans. Add is their
    /// union (source-over: a + b − ab), subtract the first with the others' union masked out
    /// (inverted alpha), intersect the first masked by each other in turn, exclude the operands
    /// filled together with the even-odd rule (their symmetric difference where each is simple).
    func coverage(of sources: [PathSource], evenOdd: Bool) throws(LottieError) -> Layer {
        let plain = sources.filter { $0.merge == nil }
        let merged = sources.filter { $0.merge != nil }
        var parts: [Layer] = []
        if !plain.isEmpty { parts.append(try filled(plain, evenOdd: evenOdd)) }
        for source in merged {
            guard let (mode, operands) = source.merge else { continue }
            switch mode {
            case .add:
                parts.append(try union(operands.map { (s: PathSource) throws(LottieError) -> Layer in try coverage(of: [s], evenOdd: evenOdd) }))
            case .subtract:
                let holder = Self.container()
                holder.addSublayer(try coverage(of: [operands[0]], evenOdd: evenOdd))
                holder.mask = try coverage(of: Array(operands.dropFirst()), evenOdd: evenOdd)
                holder.maskMode = .invertedAlpha
                parts.append(holder)
            case .intersect:
                var result = try coverage(of: [operands[0]], evenOdd: evenOdd)
                for operand in operands.dropFirst() {
                    let holder = Self.container()
                    holder.addSublayer(result)
                    holder.mask = try coverage(of: [operand], evenOdd: evenOdd)
                    result = holder
                }
                parts.append(result)
            case .exclude:
                parts.append(try filled(operands, evenOdd: true))
            }
        }
        return parts.count == 1 ? parts[0] : try union(parts)
    }

    private func union(_ layers: [Layer]) throws(LottieError) -> Layer {
        let holder = Self.container()
        for layer in layers { holder.addSublayer(layer) }
        return holder
    }

    private func filled(_ sources: [PathSource], evenOdd: Bool) throws(LottieError) -> Layer {
        let shape = ShapeLayer()
        shape.fillColor = .white
        shape.fillRule = evenOdd ? .evenOdd : .winding
        try setPath(of: shape, from: sources)
        return shape
    }

    private static func container() -> Layer {
        let layer = Layer()
        layer.anchorPoint = .zero
        return layer
    }
}

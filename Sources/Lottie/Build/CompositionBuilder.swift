// CompositionBuilder: a composition's layers as a tree of LiveLayers layers with their animations.

import Foundation
import LiveLayers
import Raster

/// Builds the layer tree of a composition (the root or a precomposition).
///
/// Each Lottie layer becomes a chain: a visibility layer (its in and out points, as a held
/// opacity), one layer per parent carrying that parent's transform (parents move their children
/// but do not fade them), and the layer itself with its transform, opacity, masks and content.
/// Layers run in their own time (`st`) by Core Animation's layer timing; precompositions add
/// time stretch, or time remapping by sampling (see ``Timeline``).
@MainActor
final class CompositionBuilder {
    let model: CompositionModel
    let assets: [String: AssetModel]
    let images: ImageSource
    let budget: WorkBudget
    private(set) var unsupported: [String] = []
    private var reported: Set<String> = []

    init(model: CompositionModel, images: ImageSource, budget: WorkBudget) {
        self.model = model
        var table: [String: AssetModel] = [:]
        for asset in model.assets { table[asset.id] = asset }
        assets = table
        self.images = images
        self.budget = budget
    }

    func report(_ feature: String, layer: String) {
        let line = "\(feature) (layer '\(layer)')"
        if reported.insert(feature).inserted { unsupported.append(line) }
    }

    /// Adds `layers` (top first, as in the JSON) to `container`, visible over `range` (frames of their composition).
    func build(_ layers: [LayerModel], into container: Layer, timeline: Timeline, range: ClosedRange<Double>, depth: Int) throws(LottieError) {
        guard depth < 32 else { throw .tooLarge("precompositions nested more than 32 deep") }
        var byIndex: [Int: LayerModel] = [:]
        for layer in layers { if let i = layer.index { byIndex[i] = layer } }
        let animator = PropertyAnimator(timeline: timeline, budget: budget)
        // Bottom first, so that later sublayers lie on top.
        var i = layers.count - 1
        while i >= 0 {
            let layer = layers[i]
            defer { i -= 1 }
            if layer.isMatte || layer.hidden { continue }
            guard var chain = try chain(for: layer, byIndex: byIndex, animator: animator, range: range, depth: depth) else { continue }
            if layer.matteMode != 0, i > 0, layers[i - 1].isMatte {
                let matte = layers[i - 1]
                if let matteChain = try self.chain(for: matte, byIndex: byIndex, animator: animator, range: range, depth: depth) {
                    let holder = Layer()
                    holder.anchorPoint = .zero
                    holder.addSublayer(chain)
                    holder.mask = matteChain
                    holder.maskMode = [2: .invertedAlpha, 3: .luminance, 4: .invertedLuminance][layer.matteMode] ?? .alpha
                    chain = holder
                }
            }
            if layer.blendMode > 0 {
                let modes = BlendFunction.allCases  // in Bodymovin's order: normal, multiply, screen, ...
                if layer.blendMode < modes.count { chain.compositingFilter = modes[layer.blendMode] } else {
                    report("blend mode \(layer.blendMode)", layer: layer.name)
                }
            }
            container.addSublayer(chain)
        }
    }

    /// The chain of layers for `layer`, or `nil` when it draws nothing.
    private func chain(for layer: LayerModel, byIndex: [Int: LayerModel], animator: PropertyAnimator,
                       range: ClosedRange<Double>, depth: Int) throws(LottieError) -> Layer? {
        guard let kind = LayerModel.Kind(rawValue: layer.kind), kind != .audio, kind != .camera, kind != .null else { return nil }
        if layer.hasEffects { report("effects", layer: layer.name) }
        if layer.is3D { report("3D layers (drawn flat)", layer: layer.name) }
        if layer.transform?.expressions == true { report("expressions", layer: layer.name) }
        // A layer's keyframes are in its composition's frames; its start time shifts only a
        // precomposition's content.
        let node = Layer()
        node.name = layer.name
        try animator.applyTransform(layer.transform, to: node, opacity: true, autoOrient: layer.autoOrient)
        try addContent(of: layer, kind: kind, to: node, animator: animator, depth: depth)
        try addMasks(of: layer, to: node, animator: animator)

        // Parents, innermost first.
        var top = node
        var parentIndex = layer.parent
        var hops = 0
        while let p = parentIndex, let parent = byIndex[p] {
            hops += 1
            if hops > 64 { throw .tooLarge("parenting chain longer than 64 (or a cycle) at layer '\(layer.name)'") }
            let wrapper = Layer()
            wrapper.name = parent.name
            try animator.applyTransform(parent.transform, to: wrapper, opacity: false, autoOrient: parent.autoOrient)
            wrapper.addSublayer(top)
            top = wrapper
            parentIndex = parent.parent
        }

        // In and out points, in the composition's frames.
        if layer.inPoint > range.lowerBound || layer.outPoint < range.upperBound {
            let visibility = Layer()
            visibility.anchorPoint = .zero
            visibility.addSublayer(top)
            let ip = max(layer.inPoint, range.lowerBound - 1), op = max(ip, min(layer.outPoint, range.upperBound + 1))
            let shown = Animatable<Scalar>(keyframes: [
                Keyframe(time: ip - 1, value: Scalar(0), endValue: nil, hold: true, easeOut: [], easeIn: []),
                Keyframe(time: ip, value: Scalar(1), endValue: nil, hold: true, easeOut: [], easeIn: []),
                Keyframe(time: op, value: Scalar(0), endValue: nil, hold: true, easeOut: [], easeIn: []),
            ], expression: nil)
            try animator.apply(shown, to: visibility, key: "opacity", set: { visibility.opacity = $0 }) { $0.value }
            return visibility
        }
        return top
    }

    private func addContent(of layer: LayerModel, kind: LayerModel.Kind, to node: Layer, animator: PropertyAnimator, depth: Int) throws(LottieError) {
        switch kind {
        case .shape:
            let deferred = DeferredWork()
            try ShapeBuilder(animator: animator, report: { self.report($0, layer: layer.name) }, depth: 0, deferred: deferred)
                .build(layer.shapes, into: node)
            try deferred.run()
        case .solid:
            let solid = Layer()
            solid.anchorPoint = .zero
            solid.bounds = Rect(x: 0, y: 0, width: layer.width, height: layer.height)
            solid.backgroundColor = Self.color(hex: layer.solidColor ?? "#000000")
            node.addSublayer(solid)
        case .image:
            guard let id = layer.referenceID, let asset = assets[id], let bitmap = image(for: asset) else {
                report("missing or unreadable images", layer: layer.name)
                return
            }
            let image = Layer()
            image.anchorPoint = .zero
            image.bounds = Rect(x: 0, y: 0, width: asset.width > 0 ? asset.width : Double(bitmap.width),
                                height: asset.height > 0 ? asset.height : Double(bitmap.height))
            image.contents = bitmap
            image.contentsGravity = .resize
            node.addSublayer(image)
        case .precomp:
            guard let id = layer.referenceID, let asset = assets[id], let layers = asset.layers else {
                report("missing precompositions", layer: layer.name)
                return
            }
            let content = Layer()
            content.anchorPoint = .zero
            content.bounds = Rect(x: 0, y: 0, width: layer.width, height: layer.height)
            content.masksToBounds = layer.width > 0 && layer.height > 0
            var timeline = animator.timeline
            let fr = timeline.frameRate
            let stretch = layer.timeStretch > 0 && layer.timeStretch.isFinite ? layer.timeStretch : 1
            let start = layer.startTime
            if let remap = layer.timeRemap {
                // Sampled in this composition's frames (the remapped time is in seconds).
                if timeline.remap == nil { timeline.contextRange = layer.inPoint...max(layer.inPoint, layer.outPoint) }
                timeline = timeline.nested { remap.value(at: $0).value * fr }
            } else if timeline.remap != nil {
                timeline = timeline.nested { ($0 - start) / stretch }
            } else {
                content.beginTime = start / fr
                content.speed = 1 / stretch
            }
            try build(layers, into: content, timeline: timeline, range: -Double.infinity...Double.infinity, depth: depth + 1)
            node.addSublayer(content)
        case .text:
            guard let text = layer.text, !text.keyframes.isEmpty else {
                report("text layers without a document", layer: layer.name)
                return
            }
            try TextBuilder(fonts: model.fonts, chars: model.chars, animator: animator, report: { self.report($0, layer: layer.name) }).build(text, into: node)
        case .null, .audio, .camera:
            break
        }
    }

    /// Masks combine in order, as in After Effects: add unites, subtract cuts out, intersect
    /// keeps the overlap (a first subtract starts from everything). Each step is a layer masking
    /// the union so far, by alpha or inverted alpha; lighten, darken and difference count as add.
    private func addMasks(of layer: LayerModel, to node: Layer, animator: PropertyAnimator) throws(LottieError) {
        let masks = layer.masks.filter { $0.mode != "n" }
        guard !masks.isEmpty else { return }
        var current: Layer?
        for mask in masks {
            let shape = try maskShape(mask, animator: animator)
            switch mask.mode {
            case "s", "i":
                let base = current ?? (mask.mode == "s" ? Self.everything() : nil)
                guard let base else { current = shape; continue }
                let holder = Layer()
                holder.anchorPoint = .zero
                holder.addSublayer(base)
                holder.mask = shape
                holder.maskMode = mask.mode == "s" ? .invertedAlpha : .alpha
                current = holder
            default:
                if mask.mode != "a" { report("mask mode '\(mask.mode)' (drawn as add)", layer: layer.name) }
                if let previous = current {
                    let holder = Layer()
                    holder.anchorPoint = .zero
                    holder.addSublayer(previous)
                    holder.addSublayer(shape)
                    current = holder
                } else {
                    current = shape
                }
            }
        }
        node.mask = current
    }

    /// Far beyond any composition: what an inverted mask or a first subtraction starts from.
    static let everywhere = Rect(x: -1e5, y: -1e5, width: 2e5, height: 2e5)

    static func everything() -> Layer {
        let layer = Layer()
        layer.anchorPoint = .zero
        layer.bounds = Rect(origin: .zero, size: everywhere.size)
        layer.position = everywhere.origin
        layer.backgroundColor = .white
        return layer
    }

    /// One mask's shape, white, at the mask's opacity; an inverted mask covers all but its path.
    private func maskShape(_ mask: MaskModel, animator: PropertyAnimator) throws(LottieError) -> ShapeLayer {
        let shape = ShapeLayer()
        shape.fillColor = .white
        let path = mask.path, inverted = mask.inverted
        func outline(_ f: Double) -> Path {
            var p = ShapeGeometry.path(path.value(at: f))
            if inverted { p.addRect(Self.everywhere) }
            return p
        }
        if inverted { shape.fillRule = .evenOdd }
        shape.path = outline(path.keyframes[0].time)
        try animator.sample(on: shape, key: "path", span: path.span) { (f: Double) throws(LottieError) -> Path? in outline(f) }
        try animator.apply(mask.opacity, to: shape, key: "opacity", set: { shape.opacity = $0 }) { $0.value / 100 }
        return shape
    }

    private func image(for asset: AssetModel) -> Bitmap? {
        images.bitmap(folder: asset.folder, file: asset.file)
    }

    static func color(hex: String) -> Color {
        var digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return .black }
        return Color(rgb: value)
    }
}

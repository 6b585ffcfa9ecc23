// ShapeBuilder: a shape layer's content as shape layers, one per fill or stroke, in groups.

#if canImport(Glibc)
import Glibc
#endif
import LiveLayers
import Raster

/// One path item's geometry as a function of the frame, in its own group's coordinates.
///
/// A reference, because trims later in the group (or in enclosing groups) change the path of
/// items above them, also for the fills and strokes between the two.
@MainActor
final class PathGeometry {
    /// The frames over which the geometry changes; `nil` when it is constant.
    var span: ClosedRange<Double>?
    var path: (Double) -> Path
    init(span: ClosedRange<Double>?, path: @escaping (Double) -> Path) {
        self.span = span
        self.path = path
    }
}

/// A path item seen from an enclosing group: its geometry through the transforms of the groups between.
@MainActor
struct PathSource {
    let base: PathGeometry
    /// Group transforms, innermost first.
    var transforms: [TransformModel] = []
    /// The paths a merge-paths item combined into this one, and how; `nil` for a plain path.
    /// ``path(_:)`` is then all the operands drawn together (what strokes and trims see).
    private(set) var merge: (mode: MergeMode, operands: [PathSource])?

    init(_ base: PathGeometry) { self.base = base }
    init(span: ClosedRange<Double>?, path: @escaping (Double) -> Path) { base = PathGeometry(span: span, path: path) }

    /// The geometries trims and round corners change: this path's, or a merge's operands'
    /// (a merged path is drawn from them, so it follows).
    var leafBases: [PathGeometry] { merge.map { $0.operands.flatMap(\.leafBases) } ?? [base] }

    /// The operands merged by `mode`.
    init(merging operands: [PathSource], mode: MergeMode) {
        let all = ShapeBuilder.combined(operands)
        base = PathGeometry(span: all.span) { all.path($0) }
        merge = (mode, operands)
    }

    var span: ClosedRange<Double>? {
        // A merge's operands may be trimmed after it was made: their spans, not the one it began with.
        let own = merge.map { unionSpan($0.operands.map(\.span)) } ?? base.span
        return unionSpan([own] + transforms.map { ShapeBuilder.span(of: $0) })
    }
    func path(_ f: Double) -> Path {
        var p = base.path(f)
        for t in transforms { p = p.applying(ShapeBuilder.matrix(t, at: f)) }
        return p
    }
    func transformed(by t: TransformModel?) -> PathSource {
        guard let t else { return self }
        var copy = self
        copy.transforms.append(t)
        if let merge { copy.merge = (merge.mode, merge.operands.map { $0.transformed(by: t) }) }
        return copy
    }
}

/// Merge paths' boolean modes (`mm` 2...5); mode 1, merge, draws the paths together as they are.
enum MergeMode: Int {
    case add = 2, subtract, intersect, exclude
}

/// Work done once every item of a shape layer is known: the paths of fills and strokes, which
/// trims further down may still change.
@MainActor
final class DeferredWork {
    private var tasks: [() throws(LottieError) -> Void] = []
    func add(_ task: @escaping () throws(LottieError) -> Void) { tasks.append(task) }
    func run() throws(LottieError) {
        for task in tasks { try task() }
        tasks.removeAll()
    }
}

/// The union of optional spans (`nil` when every one is `nil`).
func unionSpan(_ spans: [ClosedRange<Double>?]) -> ClosedRange<Double>? {
    let present = spans.compactMap { $0 }
    guard let lo = present.map(\.lowerBound).min(), let hi = present.map(\.upperBound).max() else { return nil }
    return lo...hi
}

/// Builds the layers of a shape layer's items.
///
/// Bodymovin draws items top first: a fill or stroke paints every path above it in its group
/// (nested groups' paths too, through their transforms), and trims, merges and repeaters
/// change what is above them. Each fill and stroke becomes a `ShapeLayer` whose path is the
/// union of those paths (animated by sampling when any of them moves); each group a `Layer`
/// carrying the group's transform and opacity.
@MainActor
struct ShapeBuilder {
    let animator: PropertyAnimator
    let report: (String) -> Void
    let depth: Int
    let deferred: DeferredWork

    /// Builds `items` into `parent` and returns their geometry, for the paints of the enclosing group.
    @discardableResult
    func build(_ items: [ShapeItem], into parent: Layer) throws(LottieError) -> [PathSource] {
        guard depth < 64 else { throw .tooLarge("shape groups nested more than 64 deep") }
        var layers: [Layer] = [] // top first
        var sources: [PathSource] = []
        for (index, item) in items.enumerated() {
            switch item {
            case let .group(_, children, transform):
                let group = Layer()
                try animator.applyTransform(transform, to: group, opacity: true)
                let inner = try ShapeBuilder(animator: animator, report: report, depth: depth + 1, deferred: deferred).build(children, into: group)
                layers.append(group)
                sources += inner.map { $0.transformed(by: transform) }
            case let .rectangle(position, size, roundness, reversed):
                sources.append(PathSource(span: unionSpan([position.span, size.span, roundness.span])) { f in
                    let p = position.value(at: f), s = size.value(at: f)
                    return ShapeGeometry.rectangle(center: Point(x: p[0], y: p[1]), size: Point(x: s[0], y: s[1]),
                                                   roundness: roundness.value(at: f).value, reversed: reversed)
                })
            case let .ellipse(position, size, reversed):
                sources.append(PathSource(span: unionSpan([position.span, size.span])) { f in
                    let p = position.value(at: f), s = size.value(at: f)
                    return ShapeGeometry.ellipse(center: Point(x: p[0], y: p[1]), size: Point(x: s[0], y: s[1]), reversed: reversed)
                })
            case let .star(model):
                let span = unionSpan([model.position.span, model.points.span, model.rotation.span, model.outerRadius.span,
                                      model.innerRadius.span, model.outerRoundness.span, model.innerRoundness.span])
                sources.append(PathSource(span: span) { ShapeGeometry.star(model, at: $0) })
            case let .path(shape, _):
                sources.append(PathSource(span: shape.span) { ShapeGeometry.path(shape.value(at: $0)) })
            case let .fill(color, opacity, evenOdd) where sources.contains { $0.merge != nil }:
                let fillSources = sources, holder = Layer()
                holder.anchorPoint = .zero
                deferred.add { () throws(LottieError) in
                    holder.addSublayer(try mergedFill(fillSources, color: color, opacity: opacity, evenOdd: evenOdd))
                }
                layers.append(holder)
            case let .fill(color, opacity, evenOdd):
                let layer = ShapeLayer()
                layer.fillRule = evenOdd ? .evenOdd : .winding
                try animator.apply(color, to: layer, key: "fillColor", set: { layer.fillColor = $0 }) { Optional(Self.color($0)) }
                try animator.apply(opacity, to: layer, key: "opacity", set: { layer.opacity = $0 }) { $0.value / 100 }
                let fillSources = sources
                deferred.add { () throws(LottieError) in try setPath(of: layer, from: fillSources) }
                layers.append(layer)
            case let .stroke(color, opacity, stroke):
                if sources.contains(where: { $0.merge != nil }) { report("strokes of merged paths (stroked as the paths drawn together)") }
                let layer = ShapeLayer()
                layer.fillColor = nil
                try animator.apply(color, to: layer, key: "strokeColor", set: { layer.strokeColor = $0 }) { Optional(Self.color($0)) }
                try animator.apply(opacity, to: layer, key: "opacity", set: { layer.opacity = $0 }) { $0.value / 100 }
                try applyStroke(stroke, to: layer)
                let strokeSources = sources
                deferred.add { () throws(LottieError) in try setPath(of: layer, from: strokeSources) }
                layers.append(layer)
            case let .gradientFill(model, opacity, evenOdd):
                let holder = Layer(), gradientSources = sources
                holder.anchorPoint = .zero
                deferred.add { () throws(LottieError) in
                    holder.addSublayer(try gradientLayer(model, opacity: opacity, sources: gradientSources, stroke: nil, evenOdd: evenOdd))
                }
                layers.append(holder)
            case let .gradientStroke(model, opacity, stroke):
                let holder = Layer(), gradientSources = sources
                holder.anchorPoint = .zero
                deferred.add { () throws(LottieError) in
                    holder.addSublayer(try gradientLayer(model, opacity: opacity, sources: gradientSources, stroke: stroke, evenOdd: false))
                }
                layers.append(holder)
            case let .trim(start, end, offset, individually):
                let span = unionSpan([start.span, end.span, offset.span])
                func trim(_ path: Path, _ f: Double) -> Path {
                    ShapeGeometry.trim(path, start: start.value(at: f).value, end: end.value(at: f).value, offset: offset.value(at: f).value)
                }
                // The trim changes the items above it, wherever they are painted.
                let bases = sources.flatMap(\.leafBases)
                let olds = bases.map(\.path)
                for (i, base) in bases.enumerated() {
                    base.span = unionSpan([base.span, span])
                    if individually {
                        // All the paths as one, in order: each keeps its share of the range.
                        base.path = { f in
                            ShapeGeometry.trimTogether(olds.map { $0(f) }, index: i, start: start.value(at: f).value,
                                                       end: end.value(at: f).value, offset: offset.value(at: f).value)
                        }
                    } else {
                        let old = olds[i]
                        base.path = { trim(old($0), $0) }
                    }
                }
            case let .merge(rawMode):
                // Raster has no path booleans: a fill of merged paths combines their coverage
                // instead (MergedCoverage); strokes and trims see the paths drawn together.
                guard let mode = MergeMode(rawValue: rawMode), sources.count > 1 else { break }
                sources = [PathSource(merging: sources, mode: mode)]
            case let .repeater(copies, offset, transform, startOpacity, endOpacity, above):
                // The items above are drawn again for each copy, each transformed once more.
                // An animated count builds the most copies it reaches; each copy is shown while
                // the count (whole copies, as ThorVG and rlottie count them) is above its index.
                func copyCount(at f: Double) -> Int { max(0, min(1000, Int(copies.value(at: f).value))) }
                let count: Int
                if let span = copies.span {
                    var most = copies.keyframes.map { max(0, min(1000, Int($0.value.value))) }.max() ?? 0
                    try animator.budget.spend(Int(min(span.upperBound - span.lowerBound, 1e9)) + 1)
                    for f in stride(from: span.lowerBound.rounded(.down), through: span.upperBound.rounded(.up), by: 1) {
                        most = max(most, copyCount(at: f))
                    }
                    count = most
                } else {
                    count = max(0, min(1000, Int(copies.initial.value.rounded())))
                }
                var copiesTopFirst: [Layer] = []
                for i in 0..<count {
                    let copy = Layer()
                    let n = Double(i) + offset.initial.value
                    copy.transform = Self.repeaterMatrix(transform, at: 0, times: n)
                    func opacity(shown: Int, at f: Double) -> Double {
                        guard i < shown else { return 0 }
                        let fraction = shown > 1 ? Double(i) / Double(shown - 1) : 0
                        let so = startOpacity.value(at: f).value, eo = endOpacity.value(at: f).value
                        return (so + (eo - so) * fraction) / 100
                    }
                    copy.opacity = opacity(shown: copies.span == nil ? count : copyCount(at: copies.keyframes[0].time), at: 0)
                    if let span = copies.span {
                        try animator.sample(on: copy, key: "opacity", span: span) { f in opacity(shown: copyCount(at: f), at: f) }
                    }
                    try ShapeBuilder(animator: animator, report: report, depth: depth + 1, deferred: deferred).build(Array(items[..<index]), into: copy)
                    copiesTopFirst.append(copy)
                }
                layers = above ? copiesTopFirst.reversed() : copiesTopFirst
            case let .roundCorners(radius):
                // Like a trim, it changes the paths above it wherever they are painted.
                for base in sources.flatMap(\.leafBases) {
                    let old = base.path
                    base.span = unionSpan([base.span, radius.span])
                    base.path = { f in ShapeGeometry.roundCorners(old(f), radius: radius.value(at: f).value) }
                }
            case .transform:
                break
            case let .unsupported(kind):
                if kind != "hidden" { report("shape item '\(kind)'") }
            }
        }
        for layer in layers.reversed() { parent.addSublayer(layer) }
        return sources
    }

    func setPath(of layer: ShapeLayer, from sources: [PathSource]) throws(LottieError) {
        let all = Self.combined(sources)
        layer.path = all.path(0)
        guard let span = all.span else { return }
        layer.path = all.path(span.lowerBound)
        let budget = animator.budget
        try animator.sample(on: layer, key: "path", span: span) { (f: Double) throws(LottieError) -> Path? in
            let path = all.path(f)
            try budget.spend(path.elements.count)
            return path
        }
    }

    /// A gradient fill or stroke: a `GradientLayer` in the group's coordinates, covering every
    /// frame of the shape, masked by the shape filled (or stroked) in white.
    private func gradientLayer(_ model: GradientModel, opacity: Animatable<Scalar>, sources: [PathSource],
                               stroke: StrokeModel?, evenOdd: Bool) throws(LottieError) -> Layer {
        let shape = ShapeLayer()
        if let stroke {
            shape.fillColor = nil
            shape.strokeColor = .white
            try applyStroke(stroke, to: shape)
        } else {
            shape.fillColor = .white
            shape.fillRule = evenOdd ? .evenOdd : .winding
        }
        try setPath(of: shape, from: sources)

        // The bounds: the shape's box over all its frames, grown by the stroke.
        let reach = (stroke.map { $0.width.keyframes.map(\.value.value).max() ?? 0 } ?? 0) / 2 * max(1, stroke?.miterLimit ?? 1) + 2
        let box = try boxOverFrames(sources, reach: reach)
        guard box.width > 0, box.height > 0 else { return shape }

        let layer = GradientLayer()
        layer.anchorPoint = .zero
        layer.bounds = box
        layer.position = box.origin
        layer.type = model.type == 2 ? .radial : .axial
        let radial = model.type == 2
        func unit(_ v: Vector) -> Point { Point(x: (v[0] - box.minX) / box.width, y: (v[1] - box.minY) / box.height) }
        let start = model.start, end = model.end
        func endPoint(_ f: Double) -> Point {
            let s = start.value(at: f), e = end.value(at: f)
            guard radial else { return unit(e) }
            // GradientLayer's radial radii are the end point's offsets: the same on both axes.
            let r = ((e[0] - s[0]) * (e[0] - s[0]) + (e[1] - s[1]) * (e[1] - s[1])).squareRoot()
            let c = unit(s)
            return Point(x: c.x + r / box.width, y: c.y + r / box.height)
        }
        layer.startPoint = unit(start.initial)
        layer.endPoint = endPoint(start.keyframes[0].time)
        try animator.sample(on: layer, key: "startPoint", span: start.span) { unit(start.value(at: $0)) }
        try animator.sample(on: layer, key: "endPoint", span: unionSpan([start.span, end.span])) { endPoint($0) }
        let stops = model.colors.stops, count = model.colors.count
        let initial = Self.gradientStops(stops.initial, count: count)
        layer.colors = initial.colors
        layer.locations = initial.locations
        try animator.sample(on: layer, key: "colors", span: stops.span) { Self.gradientStops(stops.value(at: $0), count: count).colors }
        try animator.sample(on: layer, key: "locations", span: stops.span) { Optional(Self.gradientStops(stops.value(at: $0), count: count).locations) }
        try animator.apply(opacity, to: layer, key: "opacity", set: { layer.opacity = $0 }) { $0.value / 100 }
        layer.mask = stroke == nil && sources.contains { $0.merge != nil } ? try coverage(of: sources, evenOdd: evenOdd) : shape
        return layer
    }

    /// The box of the paths over every frame they change in, grown by `reach` on each side.
    func boxOverFrames(_ sources: [PathSource], reach: Double) throws(LottieError) -> Rect {
        let all = Self.combined(sources)
        var box = all.path(all.span?.lowerBound ?? 0).boundingBox
        if let span = all.span {
            let count = Int(min(10_000, span.upperBound - span.lowerBound))
            try animator.budget.spend(count)
            for i in 0...max(0, count) {
                let f = span.lowerBound + Double(i)
                box = Self.union(box, all.path(f).boundingBox)
            }
        }
        return box.insetBy(dx: -reach, dy: -reach)
    }

    static func union(_ a: Rect, _ b: Rect) -> Rect {
        if a.width <= 0 && a.height <= 0 { return b }
        if b.width <= 0 && b.height <= 0 { return a }
        let x0 = min(a.minX, b.minX), y0 = min(a.minY, b.minY)
        return Rect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
    }

    /// Bodymovin's gradient list: `count` colour stops (offset, r, g, b), then opacity stops
    /// (offset, alpha); both kinds of offsets become stops with interpolated colour and alpha.
    static func gradientStops(_ v: Vector, count: Int) -> (colors: [Color], locations: [Double]) {
        let values = v.values
        let n = max(0, min(count, values.count / 4))
        var colorStops: [(Double, Double, Double, Double)] = []
        for i in 0..<n { colorStops.append((values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3])) }
        var alphaStops: [(Double, Double)] = []
        var i = 4 * n
        while i + 1 < values.count { alphaStops.append((values[i], values[i + 1])); i += 2 }
        guard !colorStops.isEmpty else { return ([], []) }
        func rgb(at t: Double) -> (Double, Double, Double) {
            if t <= colorStops[0].0 { return (colorStops[0].1, colorStops[0].2, colorStops[0].3) }
            for k in 1..<colorStops.count where t <= colorStops[k].0 {
                let a = colorStops[k - 1], b = colorStops[k]
                let u = b.0 > a.0 ? (t - a.0) / (b.0 - a.0) : 1
                return (a.1 + (b.1 - a.1) * u, a.2 + (b.2 - a.2) * u, a.3 + (b.3 - a.3) * u)
            }
            let last = colorStops[colorStops.count - 1]
            return (last.1, last.2, last.3)
        }
        func alpha(at t: Double) -> Double {
            guard let first = alphaStops.first else { return 1 }
            if t <= first.0 { return first.1 }
            for k in 1..<alphaStops.count where t <= alphaStops[k].0 {
                let a = alphaStops[k - 1], b = alphaStops[k]
                return b.0 > a.0 ? a.1 + (b.1 - a.1) * (t - a.0) / (b.0 - a.0) : b.1
            }
            return alphaStops[alphaStops.count - 1].1
        }
        let offsets = (colorStops.map(\.0) + alphaStops.map(\.0)).sorted()
        var colors: [Color] = [], locations: [Double] = []
        for t in offsets {
            let c = rgb(at: t)
            colors.append(Color(red: c.0, green: c.1, blue: c.2, alpha: min(1, max(0, alpha(at: t)))))
            locations.append(min(1, max(0, t)))
        }
        return (colors, locations)
    }

    private func applyStroke(_ stroke: StrokeModel, to layer: ShapeLayer) throws(LottieError) {
        try animator.apply(stroke.width, to: layer, key: "lineWidth", set: { layer.lineWidth = $0 }) { $0.value }
        layer.lineCap = [1: .butt, 2: .round, 3: .square][stroke.cap] ?? .round
        layer.lineJoin = [1: .miter, 2: .round, 3: .bevel][stroke.join] ?? .round
        layer.miterLimit = stroke.miterLimit
        var pattern: [Double] = []
        for entry in stroke.dashes {
            if entry.kind == "o" { layer.lineDashPhase = entry.value.initial.value } else { pattern.append(max(0, entry.value.initial.value)) }
        }
        if pattern.count % 2 == 1 { pattern += pattern }
        if pattern.contains(where: { $0 > 0 }) { layer.lineDashPattern = pattern }
        if stroke.dashes.contains(where: { $0.value.isAnimated }) { report("animated dashes") }
    }

    static func combined(_ sources: [PathSource]) -> PathSource {
        if sources.count == 1 { return sources[0] }
        return PathSource(span: unionSpan(sources.map(\.span))) { f in
            var path = Path()
            for s in sources { path.addPath(s.path(f)) }
            return path
        }
    }

    static func color(_ v: Vector) -> Color {
        Color(red: v[0], green: v[1], blue: v[2], alpha: v.values.count > 3 ? min(1, max(0, v[3])) : 1)
    }

    /// A group's transform as a matrix at frame `f` (anchor, scale, skew, rotation, position).
    static func matrix(_ t: TransformModel?, at f: Double) -> Transform {
        guard let t else { return .identity }
        let a = t.anchor?.value(at: f) ?? Vector([0, 0])
        let p: Point
        if let x = t.positionX, let y = t.positionY { p = Point(x: x.value(at: f).value, y: y.value(at: f).value) }
        else { let v = t.position?.value(at: f) ?? Vector([0, 0]); p = Point(x: v[0], y: v[1]) }
        let s = t.scale?.value(at: f) ?? Vector([100, 100])
        let m = PropertyAnimator.matrix(scale: (s[0] / 100, s[1] / 100), skew: t.skew?.value(at: f).value ?? 0,
                                        skewAxis: t.skewAxis?.value(at: f).value ?? 0,
                                        rotation: (t.rotation?.value(at: f).value ?? 0) * .pi / 180)
        return Transform(translationX: -a[0], y: -a[1]).concatenating(m).concatenating(Transform(translationX: p.x, y: p.y))
    }

    static func span(of t: TransformModel?) -> ClosedRange<Double>? {
        guard let t else { return nil }
        return unionSpan([t.anchor?.span, t.position?.span, t.positionX?.span, t.positionY?.span, t.scale?.span,
                          t.rotation?.span, t.skew?.span, t.skewAxis?.span])
    }


    /// The repeater's transform applied `n` times: about its anchor, scale and rotation
    /// compound, the position adds up.
    static func repeaterMatrix(_ t: TransformModel, at f: Double, times n: Double) -> Transform {
        let a = t.anchor?.value(at: f) ?? Vector([0, 0])
        let p = t.position?.value(at: f) ?? Vector([0, 0])
        let s = t.scale?.value(at: f) ?? Vector([100, 100])
        let r = (t.rotation?.value(at: f).value ?? 0) * .pi / 180
        let sx = s[0] / 100, sy = s[1] / 100
        return Transform(translationX: -a[0], y: -a[1])
            .concatenating(Transform(scaleX: pow(sx, n), y: pow(sy, n)))
            .concatenating(Transform(rotationAngle: r * n))
            .concatenating(Transform(translationX: a[0] + p[0] * n, y: a[1] + p[1] * n))
    }
}

// ShapeItem: the items of a shape layer's content (groups, geometry, paints, modifiers).

/// The transform of a layer (`ks`) or of a shape group (`tr`).
struct TransformModel: Decodable, Sendable {
    var anchor: Animatable<Vector>?
    var position: Animatable<Vector>?
    /// Separated position dimensions (`p.s`).
    var positionX: Animatable<Scalar>?
    var positionY: Animatable<Scalar>?
    var scale: Animatable<Vector>?
    var rotation: Animatable<Scalar>?
    var opacity: Animatable<Scalar>?
    var skew: Animatable<Scalar>?
    var skewAxis: Animatable<Scalar>?
    var expressions: Bool

    private enum Keys: String, CodingKey { case a, p, s, r, rz, o, sk, sa }
    private enum SplitKeys: String, CodingKey { case s, x, y }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        anchor = try c.decodeIfPresent(Animatable<Vector>.self, forKey: .a)
        if let split = try? c.nestedContainer(keyedBy: SplitKeys.self, forKey: .p),
           (try? split.decodeIfPresent(Bool.self, forKey: .s)) == true {
            positionX = try split.decode(Animatable<Scalar>.self, forKey: .x)
            positionY = try split.decode(Animatable<Scalar>.self, forKey: .y)
        } else {
            position = try c.decodeIfPresent(Animatable<Vector>.self, forKey: .p)
        }
        scale = try c.decodeIfPresent(Animatable<Vector>.self, forKey: .s)
        rotation = try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .r) ?? c.decodeIfPresent(Animatable<Scalar>.self, forKey: .rz)
        opacity = try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o)
        skew = try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .sk)
        skewAxis = try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .sa)
        expressions = [anchor?.expression, position?.expression, scale?.expression, rotation?.expression,
                       opacity?.expression, positionX?.expression, positionY?.expression].contains { $0 != nil }
    }
}

/// A gradient's colours: `p` colour stops then, optionally, opacity stops, in one flat list.
struct GradientColors: Decodable, Sendable {
    var count: Int
    var stops: Animatable<Vector>
    private enum Keys: String, CodingKey { case p, k }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        count = try c.decode(Int.self, forKey: .p)
        stops = try c.decode(Animatable<Vector>.self, forKey: .k)
    }
}

/// One dash entry of a stroke: a dash (`d`), a gap (`g`) or the offset (`o`).
struct DashEntry: Decodable, Sendable {
    var kind: String
    var value: Animatable<Scalar>
    private enum Keys: String, CodingKey { case n, v }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        kind = try c.decode(String.self, forKey: .n)
        value = try c.decode(Animatable<Scalar>.self, forKey: .v)
    }
}

/// The stroke settings shared by solid and gradient strokes.
struct StrokeModel: Sendable {
    var width: Animatable<Scalar>
    var cap: Int
    var join: Int
    var miterLimit: Double
    var dashes: [DashEntry]
}

/// A gradient's geometry and colours.
struct GradientModel: Sendable {
    var type: Int
    var start: Animatable<Vector>
    var end: Animatable<Vector>
    var colors: GradientColors
    var highlightLength: Animatable<Scalar>?
    var highlightAngle: Animatable<Scalar>?
}

/// One item of a shape layer's content list.
enum ShapeItem: Decodable, Sendable {
    case group(name: String, items: [ShapeItem], transform: TransformModel?)
    case rectangle(position: Animatable<Vector>, size: Animatable<Vector>, roundness: Animatable<Scalar>, reversed: Bool)
    case ellipse(position: Animatable<Vector>, size: Animatable<Vector>, reversed: Bool)
    case star(StarModel)
    case path(Animatable<BezierShape>, reversed: Bool)
    case fill(color: Animatable<Vector>, opacity: Animatable<Scalar>, evenOdd: Bool)
    case stroke(color: Animatable<Vector>, opacity: Animatable<Scalar>, StrokeModel)
    case gradientFill(GradientModel, opacity: Animatable<Scalar>, evenOdd: Bool)
    case gradientStroke(GradientModel, opacity: Animatable<Scalar>, StrokeModel)
    case trim(start: Animatable<Scalar>, end: Animatable<Scalar>, offset: Animatable<Scalar>, individually: Bool)
    case repeater(copies: Animatable<Scalar>, offset: Animatable<Scalar>, transform: TransformModel, startOpacity: Animatable<Scalar>, endOpacity: Animatable<Scalar>, above: Bool)
    case roundCorners(radius: Animatable<Scalar>)
    case merge(mode: Int)
    case transform(TransformModel)
    /// A hidden item, or one of a kind this player does not draw (named for the report).
    case unsupported(kind: String)

    private enum Keys: String, CodingKey {
        case ty, nm, it, hd, p, s, r, d, ks, c, o, w, lc, lj, ml, t, e, g, h, a, m, cm, tr, so, eo
        case sy, pt, ir, `is`, or, os, mm
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let type = try c.decode(String.self, forKey: .ty)
        if (try? c.decodeIfPresent(Bool.self, forKey: .hd)) == true { self = .unsupported(kind: "hidden"); return }
        let reversed = (try? c.decodeIfPresent(Int.self, forKey: .d)) == 3
        func stroke() throws -> StrokeModel {
            StrokeModel(width: try c.decode(Animatable<Scalar>.self, forKey: .w),
                        cap: try c.decodeIfPresent(Int.self, forKey: .lc) ?? 2,
                        join: try c.decodeIfPresent(Int.self, forKey: .lj) ?? 2,
                        miterLimit: try c.decodeIfPresent(Double.self, forKey: .ml) ?? 4,
                        dashes: try c.decodeIfPresent([DashEntry].self, forKey: .d) ?? [])
        }
        func gradient() throws -> GradientModel {
            GradientModel(type: try c.decodeIfPresent(Int.self, forKey: .t) ?? 1,
                          start: try c.decode(Animatable<Vector>.self, forKey: .s),
                          end: try c.decode(Animatable<Vector>.self, forKey: .e),
                          colors: try c.decode(GradientColors.self, forKey: .g),
                          highlightLength: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .h),
                          highlightAngle: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .a))
        }
        let defaultOpacity = Animatable(constant: Scalar(100))
        switch type {
        case "gr":
            let items = try c.decodeIfPresent([ShapeItem].self, forKey: .it) ?? []
            var transform: TransformModel?
            var content: [ShapeItem] = []
            for item in items {
                if case let .transform(t) = item { transform = t } else { content.append(item) }
            }
            self = .group(name: (try? c.decodeIfPresent(String.self, forKey: .nm)) ?? "", items: content, transform: transform)
        case "rc":
            self = .rectangle(position: try c.decode(Animatable<Vector>.self, forKey: .p),
                              size: try c.decode(Animatable<Vector>.self, forKey: .s),
                              roundness: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .r) ?? Animatable(constant: Scalar(0)),
                              reversed: reversed)
        case "el":
            self = .ellipse(position: try c.decode(Animatable<Vector>.self, forKey: .p),
                            size: try c.decode(Animatable<Vector>.self, forKey: .s), reversed: reversed)
        case "sr":
            self = .star(StarModel(isPolygon: (try c.decodeIfPresent(Int.self, forKey: .sy) ?? 1) == 2,
                                   position: try c.decode(Animatable<Vector>.self, forKey: .p),
                                   points: try c.decode(Animatable<Scalar>.self, forKey: .pt),
                                   rotation: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .r) ?? Animatable(constant: Scalar(0)),
                                   outerRadius: try c.decode(Animatable<Scalar>.self, forKey: .or),
                                   outerRoundness: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .os) ?? Animatable(constant: Scalar(0)),
                                   innerRadius: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .ir) ?? Animatable(constant: Scalar(0)),
                                   innerRoundness: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .is) ?? Animatable(constant: Scalar(0)),
                                   reversed: reversed))
        case "sh":
            self = .path(try c.decode(Animatable<BezierShape>.self, forKey: .ks), reversed: reversed)
        case "fl":
            self = .fill(color: try c.decode(Animatable<Vector>.self, forKey: .c),
                         opacity: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? defaultOpacity,
                         evenOdd: (try c.decodeIfPresent(Int.self, forKey: .r)) == 2)
        case "st":
            self = .stroke(color: try c.decode(Animatable<Vector>.self, forKey: .c),
                           opacity: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? defaultOpacity, try stroke())
        case "gf":
            self = .gradientFill(try gradient(), opacity: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? defaultOpacity,
                                 evenOdd: (try c.decodeIfPresent(Int.self, forKey: .r)) == 2)
        case "gs":
            self = .gradientStroke(try gradient(), opacity: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? defaultOpacity,
                                   try stroke())
        case "tm":
            self = .trim(start: try c.decode(Animatable<Scalar>.self, forKey: .s), end: try c.decode(Animatable<Scalar>.self, forKey: .e),
                         offset: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? Animatable(constant: Scalar(0)),
                         individually: (try c.decodeIfPresent(Int.self, forKey: .m)) == 2)
        case "rp":
            self = .repeater(copies: try c.decode(Animatable<Scalar>.self, forKey: .c),
                             offset: try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? Animatable(constant: Scalar(0)),
                             transform: try c.decode(TransformModel.self, forKey: .tr),
                             startOpacity: try c.nestedContainer(keyedBy: Keys.self, forKey: .tr).decodeIfPresent(Animatable<Scalar>.self, forKey: .so) ?? defaultOpacity,
                             endOpacity: try c.nestedContainer(keyedBy: Keys.self, forKey: .tr).decodeIfPresent(Animatable<Scalar>.self, forKey: .eo) ?? defaultOpacity,
                             above: (try c.decodeIfPresent(Int.self, forKey: .m)) != 2)
        case "rd":
            self = .roundCorners(radius: try c.decode(Animatable<Scalar>.self, forKey: .r))
        case "mm":
            self = .merge(mode: try c.decodeIfPresent(Int.self, forKey: .mm) ?? 1)
        case "tr":
            self = .transform(try TransformModel(from: decoder))
        default:
            self = .unsupported(kind: type)
        }
    }
}

/// A star or polygon (`sr`).
struct StarModel: Sendable {
    var isPolygon: Bool
    var position: Animatable<Vector>
    var points: Animatable<Scalar>
    var rotation: Animatable<Scalar>
    var outerRadius: Animatable<Scalar>
    var outerRoundness: Animatable<Scalar>
    var innerRadius: Animatable<Scalar>
    var innerRoundness: Animatable<Scalar>
    var reversed: Bool
}

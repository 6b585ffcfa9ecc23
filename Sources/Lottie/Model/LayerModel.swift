// LayerModel: one layer of a composition, and the composition itself (the JSON's root).

/// A mask of a layer (`masksProperties`).
struct MaskModel: Decodable, Sendable {
    var mode: String
    var path: Animatable<BezierShape>
    var opacity: Animatable<Scalar>
    var inverted: Bool
    private enum Keys: String, CodingKey { case mode, pt, o, inv }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        mode = try c.decodeIfPresent(String.self, forKey: .mode) ?? "a"
        path = try c.decode(Animatable<BezierShape>.self, forKey: .pt)
        opacity = try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .o) ?? Animatable(constant: Scalar(100))
        inverted = try c.decodeIfPresent(Bool.self, forKey: .inv) ?? false
    }
}

/// A layer of a composition.
struct LayerModel: Decodable, Sendable {
    enum Kind: Int, Sendable { case precomp = 0, solid, image, null, shape, text, audio, camera = 13 }
    var kind: Int
    var name: String
    var index: Int?
    var parent: Int?
    var inPoint: Double
    var outPoint: Double
    var startTime: Double
    var timeStretch: Double
    var transform: TransformModel?
    var autoOrient: Bool
    var matteMode: Int
    var isMatte: Bool
    var masks: [MaskModel]
    var hasEffects: Bool
    var is3D: Bool
    var hidden: Bool
    var blendMode: Int
    var referenceID: String?
    var width: Double
    var height: Double
    var timeRemap: Animatable<Scalar>?
    var solidColor: String?
    var shapes: [ShapeItem]
    /// A text layer's documents.
    var text: TextDataModel?

    private enum Keys: String, CodingKey {
        case ty, nm, ind, parent, ip, op, st, sr, ks, ao, tt, td, masksProperties, ef, ddd, hd, bm, refId, w, h, tm, sc, sw, sh, shapes, t
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        kind = try c.decode(Int.self, forKey: .ty)
        name = (try? c.decodeIfPresent(String.self, forKey: .nm)) ?? "layer"
        index = try c.decodeIfPresent(Int.self, forKey: .ind)
        parent = try c.decodeIfPresent(Int.self, forKey: .parent)
        inPoint = try c.decodeIfPresent(Double.self, forKey: .ip) ?? 0
        outPoint = try c.decodeIfPresent(Double.self, forKey: .op) ?? .infinity
        startTime = try c.decodeIfPresent(Double.self, forKey: .st) ?? 0
        timeStretch = try c.decodeIfPresent(Double.self, forKey: .sr) ?? 1
        transform = try c.decodeIfPresent(TransformModel.self, forKey: .ks)
        autoOrient = (try c.decodeIfPresent(Int.self, forKey: .ao)) == 1
        matteMode = try c.decodeIfPresent(Int.self, forKey: .tt) ?? 0
        isMatte = (try c.decodeIfPresent(Int.self, forKey: .td)) == 1
        masks = try c.decodeIfPresent([MaskModel].self, forKey: .masksProperties) ?? []
        hasEffects = ((try? c.nestedUnkeyedContainer(forKey: .ef))?.count ?? 0) > 0
        is3D = (try? c.decodeIfPresent(Int.self, forKey: .ddd)) == 1
        hidden = (try? c.decodeIfPresent(Bool.self, forKey: .hd)) == true
        blendMode = (try? c.decodeIfPresent(Int.self, forKey: .bm)) ?? 0
        referenceID = try c.decodeIfPresent(String.self, forKey: .refId)
        width = try c.decodeIfPresent(Double.self, forKey: .w) ?? (try c.decodeIfPresent(Double.self, forKey: .sw)) ?? 0
        height = try c.decodeIfPresent(Double.self, forKey: .h) ?? (try c.decodeIfPresent(Double.self, forKey: .sh)) ?? 0
        timeRemap = try c.decodeIfPresent(Animatable<Scalar>.self, forKey: .tm)
        solidColor = try c.decodeIfPresent(String.self, forKey: .sc)
        shapes = kind == Kind.shape.rawValue ? try c.decodeIfPresent([ShapeItem].self, forKey: .shapes) ?? [] : []
        text = kind == Kind.text.rawValue ? try c.decodeIfPresent(TextDataModel.self, forKey: .t) : nil
    }
}

/// An asset: a precomposition's layers, or an image.
struct AssetModel: Decodable, Sendable {
    var id: String
    var layers: [LayerModel]?
    var width: Double
    var height: Double
    var folder: String
    var file: String
    var embedded: Bool
    private enum Keys: String, CodingKey { case id, layers, w, h, u, p, e }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if let s = try? c.decode(String.self, forKey: .id) { id = s } else { id = String(try c.decode(Int.self, forKey: .id)) }
        layers = try c.decodeIfPresent([LayerModel].self, forKey: .layers)
        width = try c.decodeIfPresent(Double.self, forKey: .w) ?? 0
        height = try c.decodeIfPresent(Double.self, forKey: .h) ?? 0
        folder = try c.decodeIfPresent(String.self, forKey: .u) ?? ""
        file = try c.decodeIfPresent(String.self, forKey: .p) ?? ""
        embedded = (try? c.decodeIfPresent(Int.self, forKey: .e)) == 1
    }
}

/// The composition: the JSON's root object.
struct CompositionModel: Decodable, Sendable {
    var frameRate: Double
    var inPoint: Double
    var outPoint: Double
    var width: Double
    var height: Double
    var name: String
    var layers: [LayerModel]
    var assets: [AssetModel]
    var fonts: [FontModel]
    /// Glyph outlines carried by the file, for text in their fonts.
    var chars: [CharModel]
    private enum Keys: String, CodingKey { case fr, ip, op, w, h, nm, layers, assets, fonts, chars }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        frameRate = try c.decode(Double.self, forKey: .fr)
        inPoint = try c.decode(Double.self, forKey: .ip)
        outPoint = try c.decode(Double.self, forKey: .op)
        width = try c.decode(Double.self, forKey: .w)
        height = try c.decode(Double.self, forKey: .h)
        name = (try? c.decodeIfPresent(String.self, forKey: .nm)) ?? ""
        layers = try c.decode([LayerModel].self, forKey: .layers)
        assets = try c.decodeIfPresent([AssetModel].self, forKey: .assets) ?? []
        fonts = try c.decodeIfPresent(FontListModel.self, forKey: .fonts)?.list ?? []
        chars = try c.decodeIfPresent([CharModel].self, forKey: .chars) ?? []
    }
}

// TextModel: a text layer's documents (`t.d`), keyframed, and the composition's font list.

/// One text document: what a text layer shows from its keyframe on.
struct TextDocument: Decodable, Sendable, Equatable {
    var text: String
    /// The font's name (`fName` in the composition's font list).
    var fontName: String
    var size: Double
    /// Fill colour, 0...1 (old exports: 0...255).
    var fillColor: [Double]?
    var strokeColor: [Double]?
    var strokeWidth: Double
    /// 0 left, 1 right, 2 centre; 3...6 justify (drawn left).
    var justification: Int
    /// Extra space after each character, in thousandths of an em.
    var tracking: Double
    /// Baseline to baseline, in pixels.
    var lineHeight: Double
    var baselineShift: Double
    /// A paragraph box: its top-left and size (text wraps to its width).
    var boxPosition: [Double]?
    var boxSize: [Double]?

    private enum Keys: String, CodingKey { case t, f, s, fc, sc, sw, j, tr, lh, ls, ps, sz }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        text = try c.decodeIfPresent(String.self, forKey: .t) ?? ""
        fontName = try c.decodeIfPresent(String.self, forKey: .f) ?? ""
        size = try c.decodeIfPresent(Double.self, forKey: .s) ?? 10
        fillColor = try c.decodeIfPresent([Double].self, forKey: .fc)
        strokeColor = try c.decodeIfPresent([Double].self, forKey: .sc)
        strokeWidth = try c.decodeIfPresent(Double.self, forKey: .sw) ?? 0
        justification = try c.decodeIfPresent(Int.self, forKey: .j) ?? 0
        tracking = try c.decodeIfPresent(Double.self, forKey: .tr) ?? 0
        lineHeight = try c.decodeIfPresent(Double.self, forKey: .lh) ?? size * 1.2
        baselineShift = try c.decodeIfPresent(Double.self, forKey: .ls) ?? 0
        boxPosition = try c.decodeIfPresent([Double].self, forKey: .ps)
        boxSize = try c.decodeIfPresent([Double].self, forKey: .sz)
    }
}

/// A text layer's data (`t`): its documents by frame, and whether it uses what is not drawn.
struct TextDataModel: Decodable, Sendable {
    struct Keyframe: Decodable, Sendable {
        var time: Double
        var document: TextDocument
        private enum Keys: String, CodingKey { case t, s }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            time = try c.decodeIfPresent(Double.self, forKey: .t) ?? 0
            document = try c.decode(TextDocument.self, forKey: .s)
        }
    }

    /// In time order; the first applies from the start.
    var keyframes: [Keyframe]
    var hasAnimators: Bool
    var followsPath: Bool

    /// The most documents a text layer may switch between.
    static let maximumKeyframes = 10_000

    private enum Keys: String, CodingKey { case d, a, p }
    private enum DocumentKeys: String, CodingKey { case k }
    private enum PathKeys: String, CodingKey { case m }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let d = try c.nestedContainer(keyedBy: DocumentKeys.self, forKey: .d)
        keyframes = try d.decode([Keyframe].self, forKey: .k).sorted { $0.time < $1.time }
        guard keyframes.count <= Self.maximumKeyframes else {
            throw DecodingError.dataCorruptedError(forKey: .k, in: d, debugDescription: "more than \(Self.maximumKeyframes) text documents")
        }
        hasAnimators = ((try? c.nestedUnkeyedContainer(forKey: .a))?.count ?? 0) > 0
        followsPath = (try? c.nestedContainer(keyedBy: PathKeys.self, forKey: .p).contains(.m)) == true
    }
}

/// A font of the composition's list (`fonts.list`): the name documents use, and what to ask
/// fontconfig for.
struct FontModel: Decodable, Sendable {
    var name: String
    var family: String
    var style: String
    /// The ascender, in hundredths of the size (for glyph text in a paragraph box).
    var ascent: Double?
    private enum Keys: String, CodingKey { case fName, fFamily, fStyle, ascent }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decodeIfPresent(String.self, forKey: .fName) ?? ""
        family = try c.decodeIfPresent(String.self, forKey: .fFamily) ?? name
        style = try c.decodeIfPresent(String.self, forKey: .fStyle) ?? ""
        ascent = try? c.decodeIfPresent(Double.self, forKey: .ascent)
    }
}

/// The composition's `fonts` object.
struct FontListModel: Decodable, Sendable {
    var list: [FontModel]
    private enum Keys: String, CodingKey { case list }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        list = try c.decodeIfPresent([FontModel].self, forKey: .list) ?? []
    }
}

/// A glyph the file carries (`chars`): its outline in units of a 100-pixel font, y up from the
/// baseline negative, and its advance in the same units.
struct CharModel: Decodable, Sendable {
    var character: String
    var family: String
    var style: String
    var size: Double
    var advance: Double
    var shapes: [ShapeItem]
    private enum Keys: String, CodingKey { case ch, fFamily, style, size, w, data }
    private enum DataKeys: String, CodingKey { case shapes }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        character = try c.decodeIfPresent(String.self, forKey: .ch) ?? ""
        family = try c.decodeIfPresent(String.self, forKey: .fFamily) ?? ""
        style = try c.decodeIfPresent(String.self, forKey: .style) ?? ""
        size = try c.decodeIfPresent(Double.self, forKey: .size) ?? 100
        advance = try c.decodeIfPresent(Double.self, forKey: .w) ?? 0
        let data = try? c.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
        shapes = try data?.decodeIfPresent([ShapeItem].self, forKey: .shapes) ?? []
    }
}

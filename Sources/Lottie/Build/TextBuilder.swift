// TextBuilder: a text layer's documents as TextLayers, one per line (or per character when tracked).

import LiveLayers
import Raster

/// Builds a Lottie text layer from its documents.
///
/// Each document becomes a group of ``TextLayer``s shown from its keyframe to the next (text
/// documents only ever hold). Lines break at `\r` or `\n`, and wrap to a paragraph box's width
/// when there is one; each line sits on its own baseline `lineHeight` below the last, placed by
/// the justification about the layer's origin (point text) or in the box. With tracking each
/// character is its own `TextLayer`, spaced by its advance, the kerning and the tracking.
///
/// Fonts are the composition's list (`fonts.list`) resolved through fontconfig by family and
/// style; a font that is not installed is drawn in fontconfig's substitute and reported once.
@MainActor
final class TextBuilder {
    let fonts: [FontModel]
    let animator: PropertyAnimator
    let report: (String) -> Void
    /// The file's glyphs by family, style and character.
    private let chars: [String: CharModel]
    private var outlines: [String: Path] = [:]
    private var layersMade = 0

    init(fonts: [FontModel], chars: [CharModel], animator: PropertyAnimator, report: @escaping (String) -> Void) {
        self.fonts = fonts
        self.animator = animator
        self.report = report
        var table: [String: CharModel] = [:]
        for char in chars { table[Self.key(char.family, char.style, char.character)] = char }
        self.chars = table
    }

    private static func key(_ family: String, _ style: String, _ character: String) -> String { "\(family)\u{1}\(style)\u{1}\(character)" }

    /// The most characters one text layer may draw over all its documents, and the most
    /// `TextLayer`s it may make (characters are layers of their own when tracked).
    static let maximumCharacters = 200_000
    static let maximumLayers = 20_000

    func build(_ data: TextDataModel, into node: Layer) throws(LottieError) {
        let characters = data.keyframes.reduce(0) { $0 + $1.document.text.unicodeScalars.count }
        guard characters <= Self.maximumCharacters else {
            throw .tooLarge("a text layer of \(characters) characters; at most \(Self.maximumCharacters)")
        }
        if data.hasAnimators { report("text animators (text drawn without them)") }
        if data.followsPath { report("text on a path (drawn on its baseline)") }
        for (i, keyframe) in data.keyframes.enumerated() {
            let group = Layer()
            group.anchorPoint = .zero
            try layOut(keyframe.document, into: group)
            node.addSublayer(group)
            guard data.keyframes.count > 1 else { continue }
            // Shown from its keyframe (the first from the start) until the next one.
            let start = i == 0 ? -Double.infinity : keyframe.time
            let end = i + 1 < data.keyframes.count ? data.keyframes[i + 1].time : Double.infinity
            var frames: [Keyframe<Scalar>] = []
            if start.isFinite { frames.append(Keyframe(time: start - 1, value: Scalar(0), endValue: nil, hold: true, easeOut: [], easeIn: [])) }
            frames.append(Keyframe(time: start.isFinite ? start : keyframe.time, value: Scalar(1), endValue: nil, hold: true, easeOut: [], easeIn: []))
            if end.isFinite { frames.append(Keyframe(time: end, value: Scalar(0), endValue: nil, hold: true, easeOut: [], easeIn: [])) }
            let shown = Animatable<Scalar>(keyframes: frames, expression: nil)
            try animator.apply(shown, to: group, key: "opacity", set: { group.opacity = $0 }) { $0.value }
        }
    }

    /// The typeface for a document's font name, through the font list and fontconfig.
    private func typeface(for name: String) -> (family: String, face: Typeface)? {
        let font = fonts.first { $0.name == name }
        let family = font?.family ?? (name.isEmpty ? Typeface.defaultFamily : name)
        let style = font?.style ?? ""
        // fontconfig's pattern syntax: "Family:style=Style"; it always answers with its best match.
        let pattern = style.isEmpty ? family : "\(family):style=\(style)"
        guard let face = Typeface.named(pattern) ?? Typeface.default else { return nil }
        if face.familyName.lowercased() != family.lowercased() {
            report("font '\(family)\(style.isEmpty ? "" : " \(style)")' is not installed (drawn in \(face.familyName))")
        }
        return (pattern, face)
    }

    private func layOut(_ document: TextDocument, into group: Layer) throws(LottieError) {
        let size = max(0, min(document.size, 4096))
        if document.strokeWidth > 0, document.strokeColor != nil { report("text strokes (drawn filled only)") }
        let color = Self.color(document.fillColor)
        let tracking = document.tracking / 1000 * size
        let box = document.boxSize.flatMap { s in s.count >= 2 ? Size(width: s[0], height: s[1]) : nil }
        let boxOrigin = document.boxPosition.flatMap { p in p.count >= 2 ? Point(x: p[0], y: p[1]) : nil } ?? .zero
        let font = fonts.first { $0.name == document.fontName }

        // The file's own glyphs when it carries every character of the document in its font
        // (exported with glyphs: no font needs to be installed); fontconfig's font otherwise.
        let glyphs = glyphSet(for: document.text, family: font?.family ?? document.fontName, style: font?.style ?? "")
        var face: Typeface?
        var family = ""
        let metrics: Metrics
        if let glyphs {
            metrics = Metrics(advance: { glyphs[$0].map { $0.advance * size / max(1e-9, $0.size) } ?? 0 }, kerning: { _, _ in 0 })
        } else {
            guard let found = typeface(for: document.fontName) else {
                report("text (no font could be opened)")
                return
            }
            (family, face) = (found.family, found.face)
            metrics = self.metrics(face: found.face, size: size)
        }

        // Paragraphs, then lines wrapped to the box.
        let paragraphs = document.text.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" }
        var lines: [String] = []
        for paragraph in paragraphs {
            if let box { lines += wrap(String(paragraph), width: box.width, metrics, tracking: tracking) } else { lines.append(String(paragraph)) }
        }
        // Checked before any layer is made: a hostile file fails fast.
        let needed = glyphs != nil ? 1 : tracking == 0 ? lines.count : lines.reduce(0) { $0 + $1.count }
        guard layersMade + needed <= Self.maximumLayers else {
            throw .tooLarge("a text layer needing more than \(Self.maximumLayers) lines and tracked characters")
        }
        let ascent = face.map { $0.ascender * size } ?? (font?.ascent).map { $0 / 100 * size } ?? 0.75 * size
        var outline = Path()
        for (index, line) in lines.enumerated() {
            let width = measure(line, metrics, tracking: tracking)
            var baseline = Double(index) * document.lineHeight - document.baselineShift
            var x: Double
            if let box {
                baseline += boxOrigin.y + ascent
                switch document.justification {
                case 1: x = boxOrigin.x + box.width - width
                case 2: x = boxOrigin.x + (box.width - width) / 2
                default: x = boxOrigin.x
                }
            } else {
                switch document.justification {
                case 1: x = -width
                case 2: x = -width / 2
                default: x = 0
                }
            }
            if let glyphs {
                for character in line {
                    if let glyph = glyphs[character] {
                        let scale = size / max(1e-9, glyph.size)
                        outline.addPath(self.outline(of: glyph).applying(Transform(scaleX: scale, y: scale).concatenating(Transform(translationX: x, y: baseline))))
                    }
                    x += metrics.advance(character) + tracking
                }
            } else if let face, tracking == 0 {
                group.addSublayer(try textLayer(line, family: family, size: size, color: color, at: Point(x: x, y: baseline - ascent),
                                                width: width, height: face.lineHeight * size))
            } else if let face {
                // Each character on its own, at its pen position: TextLayer has no tracking.
                var previous: Character?
                for character in line {
                    if let previous { x += metrics.kerning(previous, character) }
                    let advance = metrics.advance(character)
                    if !character.isWhitespace {
                        group.addSublayer(try textLayer(String(character), family: family, size: size, color: color,
                                                        at: Point(x: x, y: baseline - ascent), width: advance, height: face.lineHeight * size))
                    }
                    x += advance + tracking
                    previous = character
                }
            }
        }
        if glyphs != nil {
            layersMade += 1
            let shape = ShapeLayer()
            shape.fillColor = color
            shape.path = outline
            group.addSublayer(shape)
        }
    }

    /// The file's glyphs for every character of `text` in `family` and `style`, or `nil` when
    /// any is missing (line breaks need none).
    private func glyphSet(for text: String, family: String, style: String) -> [Character: CharModel]? {
        guard !chars.isEmpty else { return nil }
        var set: [Character: CharModel] = [:]
        for character in text where character != "\r" && character != "\n" && character != "\u{3}" && set[character] == nil {
            guard let glyph = chars[Self.key(family, style, String(character))] else { return nil }
            set[character] = glyph
        }
        return set
    }

    /// A glyph's outline in its own units (groups' transforms applied), made once.
    private func outline(of glyph: CharModel) -> Path {
        let key = Self.key(glyph.family, glyph.style, glyph.character)
        if let made = outlines[key] { return made }
        var path = Path()
        func add(_ items: [ShapeItem], _ transform: Transform) {
            for item in items {
                switch item {
                case let .group(_, children, t): add(children, ShapeBuilder.matrix(t, at: 0).concatenating(transform))
                case let .path(shape, _): path.addPath(ShapeGeometry.path(shape.initial).applying(transform))
                default: break
                }
            }
        }
        add(glyph.shapes, .identity)
        outlines[key] = path
        return path
    }

    private func textLayer(_ string: String, family: String, size: Double, color: Color, at origin: Point,
                           width: Double, height: Double) throws(LottieError) -> TextLayer {
        layersMade += 1
        guard layersMade <= Self.maximumLayers else {
            throw .tooLarge("a text layer needing more than \(Self.maximumLayers) lines and tracked characters")
        }
        let layer = TextLayer()
        layer.anchorPoint = .zero
        layer.string = string
        layer.font = family
        layer.fontSize = size
        layer.foregroundColor = color
        // Room on the right for overhanging glyphs (italics): the layer never wraps or truncates.
        layer.bounds = Rect(x: 0, y: 0, width: width + size / 2, height: height)
        layer.position = origin
        return layer
    }

    private func advance(of character: Character, face: Typeface, size: Double) -> Double {
        character.unicodeScalars.reduce(0) { $0 + face.advance(of: face.glyph(for: $1)) } * size
    }

    /// How a document's characters advance: FreeType's advances and kerning, or the file's glyphs.
    private struct Metrics {
        var advance: (Character) -> Double
        var kerning: (Character, Character) -> Double
    }

    private func metrics(face: Typeface, size: Double) -> Metrics {
        Metrics(advance: { self.advance(of: $0, face: face, size: size) },
                kerning: { a, b in
                    face.kerning(face.glyph(for: a.unicodeScalars.first ?? " "), face.glyph(for: b.unicodeScalars.first ?? " ")) * size
                })
    }

    /// A line's width: advances and kerning, plus tracking after every character but the last.
    private func measure(_ line: String, _ metrics: Metrics, tracking: Double) -> Double {
        var width = 0.0, previous: Character?, count = 0
        for character in line {
            if let previous { width += metrics.kerning(previous, character) }
            width += metrics.advance(character)
            previous = character
            count += 1
        }
        return width + tracking * Double(max(0, count - 1))
    }

    /// Greedy word wrap to `width` (a word wider than the box gets a line of its own). Each word
    /// is measured once (kerning across spaces left out), so long paragraphs wrap in linear time.
    private func wrap(_ paragraph: String, width: Double, _ metrics: Metrics, tracking: Double) -> [String] {
        var lines: [String] = [], current = "", currentWidth = 0.0
        let space = metrics.advance(" ") + tracking
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = measure(String(word), metrics, tracking: tracking)
            if current.isEmpty {
                current = String(word)
                currentWidth = wordWidth
            } else if currentWidth + space + tracking + wordWidth > width {
                lines.append(current)
                current = String(word)
                currentWidth = wordWidth
            } else {
                current += " " + word
                currentWidth += space + tracking + wordWidth
            }
        }
        lines.append(current)
        return lines
    }

    /// Lottie's text colours are 0...1, or 0...255 in old exports.
    static func color(_ values: [Double]?) -> Color {
        guard let v = values, v.count >= 3 else { return .black }
        let scale = v.prefix(3).contains { $0 > 1 } ? 255.0 : 1
        return Color(red: v[0] / scale, green: v[1] / scale, blue: v[2] / scale, alpha: v.count > 3 ? min(1, max(0, v[3] / scale)) : 1)
    }
}

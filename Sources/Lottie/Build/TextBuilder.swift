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
    private var layersMade = 0

    init(fonts: [FontModel], animator: PropertyAnimator, report: @escaping (String) -> Void) {
        self.fonts = fonts
        self.animator = animator
        self.report = report
    }

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
        guard let (family, face) = typeface(for: document.fontName) else {
            report("text (no font could be opened)")
            return
        }
        let size = max(0, min(document.size, 4096))
        if document.strokeWidth > 0, document.strokeColor != nil { report("text strokes (drawn filled only)") }
        let color = Self.color(document.fillColor)
        let tracking = document.tracking / 1000 * size
        let box = document.boxSize.flatMap { s in s.count >= 2 ? Size(width: s[0], height: s[1]) : nil }
        let boxOrigin = document.boxPosition.flatMap { p in p.count >= 2 ? Point(x: p[0], y: p[1]) : nil } ?? .zero

        // Paragraphs, then lines wrapped to the box.
        let paragraphs = document.text.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" }
        var lines: [String] = []
        for paragraph in paragraphs {
            if let box { lines += wrap(String(paragraph), width: box.width, face: face, size: size, tracking: tracking) } else { lines.append(String(paragraph)) }
        }
        // Checked before any layer is made: a hostile file fails fast.
        let needed = tracking == 0 ? lines.count : lines.reduce(0) { $0 + $1.count }
        guard layersMade + needed <= Self.maximumLayers else {
            throw .tooLarge("a text layer needing more than \(Self.maximumLayers) lines and tracked characters")
        }
        let ascent = face.ascender * size
        for (index, line) in lines.enumerated() {
            let width = measure(line, face: face, size: size, tracking: tracking)
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
            if tracking == 0 {
                group.addSublayer(try textLayer(line, family: family, size: size, color: color, at: Point(x: x, y: baseline - ascent),
                                            width: width, height: face.lineHeight * size))
            } else {
                // Each character on its own, at its pen position: TextLayer has no tracking.
                var previous: UInt32?
                for character in line {
                    let glyph = face.glyph(for: character.unicodeScalars.first ?? " ")
                    if let previous { x += face.kerning(previous, glyph) * size }
                    let advance = advance(of: character, face: face, size: size)
                    if !character.isWhitespace {
                        group.addSublayer(try textLayer(String(character), family: family, size: size, color: color,
                                                    at: Point(x: x, y: baseline - ascent), width: advance, height: face.lineHeight * size))
                    }
                    x += advance + tracking
                    previous = glyph
                }
            }
        }
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

    /// A line's width: advances and kerning, plus tracking after every character but the last.
    private func measure(_ line: String, face: Typeface, size: Double, tracking: Double) -> Double {
        var width = 0.0, previous: UInt32?, count = 0
        for character in line {
            let glyph = face.glyph(for: character.unicodeScalars.first ?? " ")
            if let previous { width += face.kerning(previous, glyph) * size }
            width += advance(of: character, face: face, size: size)
            previous = glyph
            count += 1
        }
        return width + tracking * Double(max(0, count - 1))
    }

    /// Greedy word wrap to `width` (a word wider than the box gets a line of its own). Each word
    /// is measured once (kerning across spaces left out), so long paragraphs wrap in linear time.
    private func wrap(_ paragraph: String, width: Double, face: Typeface, size: Double, tracking: Double) -> [String] {
        var lines: [String] = [], current = "", currentWidth = 0.0
        let space = measure(" ", face: face, size: size, tracking: 0) + tracking
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = measure(String(word), face: face, size: size, tracking: tracking)
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

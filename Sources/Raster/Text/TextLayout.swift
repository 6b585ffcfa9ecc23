// TextLayout: styled text broken into lines, with every glyph placed (advances and kerning from FreeType).

/// Styled text laid out in lines: glyphs placed with the font's advances and kerning, lines
/// broken at spaces (or anywhere in a word longer than the width), aligned, and shortened with
/// an ellipsis where asked. Coordinates: origin at the top-left of the text box, y downward,
/// each glyph's position on its baseline.
public struct TextLayout: Sendable {
    /// One glyph, placed.
    public struct Glyph: Sendable {
        public var typeface: Typeface
        public var glyph: UInt32
        /// Pixels per em.
        public var size: Double
        /// The pen position on the baseline.
        public var position: Point
        public var color: Color
        /// Whether `color` came from the ``TextStyle`` (the run has no colour of its own), so
        /// that drawing can recolour it without laying out again.
        public var hasStyleColor: Bool
    }

    /// One laid-out line.
    public struct Line: Sendable, Hashable {
        /// The glyphs of the line in ``TextLayout/glyphs``.
        public var glyphRange: Range<Int>
        /// From the left of the box to the left of the line's first glyph.
        public var x: Double
        /// The baseline's distance from the top of the box.
        public var baseline: Double
        /// The advance of the line's glyphs, trailing spaces excluded.
        public var width: Double
        /// Baseline-to-baseline distance of the line's largest font.
        public var height: Double
    }

    /// Every drawn glyph (spaces and line breaks are not), in reading order.
    public private(set) var glyphs: [Glyph] = []
    public private(set) var lines: [Line] = []
    /// The widest line's width and the lines' total height.
    public private(set) var size = Size(width: 0, height: 0)
    /// The glyph images the layout was drawn with, so drawing it again looks nothing up.
    let images = LayoutGlyphImages()

    /// A character resolved to a glyph, before line breaking.
    private struct Item {
        var typeface: Typeface
        var glyph: UInt32
        var size: Double
        var advance: Double
        /// Kerning with the previous item of the same run, already in pixels.
        var kern: Double
        /// The glyph's offset from the pen (HarfBuzz's mark positioning), in pixels.
        var offset = Point.zero
        var color: Color
        var hasStyleColor: Bool
        var isSpace: Bool
        var isNewline: Bool
    }

    /// Lays out `text`.
    /// - Parameters:
    ///   - style: the attributes of runs that have none.
    ///   - width: the box's width; `nil` for unconstrained lines (no wrapping, no truncation).
    ///   - height: the box's height; lines past it are dropped when wrapping. `nil` for no limit.
    ///   - isWrapped: whether lines break to fit `width`.
    ///   - truncation: where an ellipsis shortens a line that does not fit (unwrapped lines
    ///     wider than `width`, or the last line kept when wrapped lines overflow `height`).
    public init(_ text: StyledText, style: TextStyle = TextStyle(), width: Double? = nil, height: Double? = nil,
                alignment: TextAlignment = .natural, isWrapped: Bool = false, truncation: TruncationMode = .none) {
        var items: [Item] = []
        for run in text.runs {
            let family = run.fontFamily ?? style.fontFamily
            let size = max(0, run.fontSize ?? style.fontSize)
            let color = run.color ?? style.color
            guard let typeface = Typeface.named(family) ?? Typeface.default else { continue }
            typeface.shape(run.string.unicodeScalars) { shaped in
                let s = shaped.scalar.value
                let newline = s == 0x0A
                items.append(Item(typeface: typeface, glyph: shaped.glyph, size: size, advance: newline ? 0 : shaped.advance * size,
                                  kern: shaped.kern * size, offset: Point(x: shaped.offset.x * size, y: shaped.offset.y * size),
                                  color: color, hasStyleColor: run.color == nil, isSpace: s == 0x20 || s == 0x09, isNewline: newline))
            }
        }
        let limit = width.map { max(0, $0) }
        var rawLines: [(items: ArraySlice<Item>, endsParagraph: Bool)] = []
        var start = 0
        while start <= items.count {
            var end = start
            while end < items.count && !items[end].isNewline { end += 1 }
            let paragraph = items[start..<end]
            if isWrapped, let limit {
                Self.wrap(paragraph, to: limit) { rawLines.append(($0, false)) }
                rawLines[rawLines.count - 1].endsParagraph = true
            } else {
                rawLines.append((paragraph, true))
            }
            start = end + 1
        }
        if items.isEmpty { rawLines = [] }

        // Keep the lines that fit the height (at least one), then truncate.
        var kept: [[Item]] = rawLines.map { Array($0.items) }
        var overflowed = false
        if isWrapped, let height {
            var total = 0.0, count = 0
            for line in kept {
                let h = Self.lineHeight(line, fallback: style)
                if count > 0 && total + h > height + 1e-9 { break }
                total += h
                count += 1
            }
            overflowed = count < kept.count
            kept.removeLast(kept.count - count)
        }
        if truncation != .none, let limit {
            for i in kept.indices where (!isWrapped && Self.width(kept[i]) > limit + 1e-9) || (overflowed && i == kept.count - 1) {
                kept[i] = Self.truncate(kept[i], to: limit, mode: overflowed && isWrapped ? .end : truncation)
            }
        }

        let boxWidth = limit ?? kept.map { Self.width($0) }.max() ?? 0
        var top = 0.0, widest = 0.0
        for (i, line) in kept.enumerated() {
            let (ascent, height) = Self.lineMetrics(line, fallback: style)
            let baseline = top + ascent
            let lineWidth = Self.width(line)
            widest = max(widest, lineWidth)
            var x: Double
            switch alignment {
            case .natural, .left, .justified: x = 0
            case .right: x = boxWidth - lineWidth
            case .center: x = (boxWidth - lineWidth) / 2
            }
            var extraPerSpace = 0.0
            let endsParagraph = i >= rawLines.count || rawLines[i].endsParagraph
            if alignment == .justified, !endsParagraph, lineWidth < boxWidth {
                let spaces = Self.trimmed(line).filter(\.isSpace).count
                if spaces > 0 { extraPerSpace = (boxWidth - lineWidth) / Double(spaces) }
            }
            let first = glyphs.count
            var pen = x
            for (j, item) in line.enumerated() {
                if j > 0 { pen += item.kern }
                if !item.isSpace && !item.isNewline {
                    glyphs.append(Glyph(typeface: item.typeface, glyph: item.glyph, size: item.size,
                                        position: Point(x: pen + item.offset.x, y: baseline + item.offset.y), color: item.color, hasStyleColor: item.hasStyleColor))
                }
                pen += item.advance + (item.isSpace ? extraPerSpace : 0)
            }
            lines.append(Line(glyphRange: first..<glyphs.count, x: x, baseline: baseline,
                              width: extraPerSpace > 0 ? boxWidth : lineWidth, height: height))
            top += height
        }
        size = Size(width: widest, height: top)
    }

    /// Greedy line breaking at spaces; a word wider than the limit breaks between characters.
    private static func wrap(_ paragraph: ArraySlice<Item>, to limit: Double, emit: (ArraySlice<Item>) -> Void) {
        var lineStart = paragraph.startIndex
        guard !paragraph.isEmpty else { emit(paragraph); return }
        while lineStart < paragraph.endIndex {
            var pen = 0.0, lastBreak: Int?
            var i = lineStart
            var end = paragraph.endIndex
            while i < paragraph.endIndex {
                let item = paragraph[i]
                let next = pen + (i > lineStart ? item.kern : 0) + item.advance
                if item.isSpace {
                    lastBreak = i + 1
                } else if next > limit + 1e-9 && i > lineStart {
                    end = lastBreak ?? i
                    break
                }
                pen = next
                i += 1
            }
            emit(paragraph[lineStart..<end])
            lineStart = end
        }
    }

    private static func trimmed(_ line: [Item]) -> ArraySlice<Item> {
        var end = line.count
        while end > 0 && line[end - 1].isSpace { end -= 1 }
        return line[0..<end]
    }

    private static func width<C: Collection>(_ line: C) -> Double where C.Element == Item {
        var pen = 0.0, trailing = 0.0, first = true
        for item in line {
            pen += (first ? 0 : item.kern) + item.advance
            first = false
            trailing = item.isSpace ? trailing + item.advance : 0
        }
        return pen - trailing
    }

    private static func lineMetrics(_ line: [Item], fallback: TextStyle) -> (ascent: Double, height: Double) {
        var ascent = 0.0, height = 0.0
        for item in line {
            ascent = max(ascent, item.typeface.ascender * item.size)
            height = max(height, item.typeface.lineHeight * item.size)
        }
        if line.isEmpty, let face = Typeface.named(fallback.fontFamily) ?? Typeface.default {
            ascent = face.ascender * fallback.fontSize
            height = face.lineHeight * fallback.fontSize
        }
        return (ascent, height)
    }

    private static func lineHeight(_ line: [Item], fallback: TextStyle) -> Double {
        lineMetrics(line, fallback: fallback).height
    }

    /// `line` shortened with an ellipsis to fit `limit`.
    private static func truncate(_ line: [Item], to limit: Double, mode: TruncationMode) -> [Item] {
        guard let sample = line.last(where: { !$0.isNewline }) ?? line.first else { return line }
        let face = sample.typeface
        let glyph = face.glyph(for: "\u{2026}")
        let ellipsis = Item(typeface: face, glyph: glyph, size: sample.size, advance: face.advance(of: glyph) * sample.size,
                            kern: 0, color: sample.color, hasStyleColor: sample.hasStyleColor, isSpace: false, isNewline: false)
        let room = limit - ellipsis.advance
        guard room > 0 else { return [ellipsis] }
        var body = Array(trimmed(line))
        switch mode {
        case .none:
            return line
        case .end:
            while !body.isEmpty && (width(body) > room || body.last!.isSpace) { body.removeLast() }
            return body + [ellipsis]
        case .start:
            while !body.isEmpty && (width(body) > room || body.first!.isSpace) { body.removeFirst() }
            if !body.isEmpty { body[0].kern = 0 }
            return [ellipsis] + body
        case .middle:
            var head: [Item] = [], tail: [Item] = []
            var lo = 0, hi = body.count - 1
            var takeHead = true
            while lo <= hi {
                let candidate = takeHead ? body[lo] : body[hi]
                let trial = takeHead ? head + [candidate] : [candidate] + tail
                if width(takeHead ? trial : head) + width(takeHead ? tail : trial) > room { break }
                if takeHead { head = trial; lo += 1 } else { tail = trial; hi -= 1 }
                takeHead.toggle()
            }
            if !tail.isEmpty { tail[0].kern = 0 }
            return head + [ellipsis] + tail
        }
    }
}

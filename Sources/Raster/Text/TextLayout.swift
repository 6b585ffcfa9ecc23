// TextLayout: styled text shaped by HarfBuzz and broken into lines, with every glyph placed.

/// Styled text laid out in lines: runs shaped by HarfBuzz (ligatures, kerning, marks) over the
/// font's FreeType advances, lines broken at spaces (or anywhere in a word longer than the
/// width), aligned, and shortened with an ellipsis where asked. Coordinates: origin at the
/// top-left of the text box, y downward, each glyph's position on its baseline.
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
    private(set) var images = LayoutGlyphImages()
    /// The items and line ranges of the last layout, kept for the next ``update(_:style:width:height:alignment:isWrapped:truncation:)``.
    private var scratch = LayoutScratch()

    /// A character resolved to a glyph, before line breaking.
    fileprivate struct Item {
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

    /// One line before placement: a range of the scratch items.
    fileprivate struct LineRange {
        var range: Range<Int>
        var endsParagraph: Bool
    }

    /// Working storage of a layout pass, reused by the next pass of the same layout.
    fileprivate final class LayoutScratch: @unchecked Sendable {
        // @unchecked: only touched by a layout pass of a layout that holds the only reference.
        var items: [Item] = []
        var lines: [LineRange] = []
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
        lay(text.runs, style: style, width: width, height: height, alignment: alignment, isWrapped: isWrapped, truncation: truncation)
    }

    /// Lays out `text` again in this layout's storage, as ``init(_:style:width:height:alignment:isWrapped:truncation:)``
    /// would: when no other copy of the layout shares it, text that changes (a clock) is laid
    /// out without allocating once the arrays have grown to fit.
    public mutating func update(_ text: StyledText, style: TextStyle = TextStyle(), width: Double? = nil, height: Double? = nil,
                                alignment: TextAlignment = .natural, isWrapped: Bool = false, truncation: TruncationMode = .none) {
        lay(text.runs, style: style, width: width, height: height, alignment: alignment, isWrapped: isWrapped, truncation: truncation)
    }

    /// ``update(_:style:width:height:alignment:isWrapped:truncation:)`` for a string with no
    /// attributes of its own (no run array is made).
    public mutating func update(_ string: String, style: TextStyle = TextStyle(), width: Double? = nil, height: Double? = nil,
                                alignment: TextAlignment = .natural, isWrapped: Bool = false, truncation: TruncationMode = .none) {
        lay(CollectionOfOne(TextRun(string)), style: style, width: width, height: height, alignment: alignment,
            isWrapped: isWrapped, truncation: truncation)
    }

    private mutating func lay<Runs: Collection<TextRun>>(_ runs: Runs, style: TextStyle, width: Double?, height: Double?,
                                                        alignment: TextAlignment, isWrapped: Bool, truncation: TruncationMode) {
        glyphs.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        if isKnownUniquelyReferenced(&images) { images.reset() } else { images = LayoutGlyphImages() }
        if !isKnownUniquelyReferenced(&scratch) { scratch = LayoutScratch() }
        let scratch = self.scratch
        scratch.items.removeAll(keepingCapacity: true)
        scratch.lines.removeAll(keepingCapacity: true)
        // Room for every character at once, rather than doubling up to it (a new layout of a
        // long paragraph would otherwise allocate a dozen times per array).
        var characters = 0
        for run in runs { characters += run.string.unicodeScalars.count }
        scratch.items.reserveCapacity(characters)
        glyphs.reserveCapacity(characters)
        var advances = 0.0
        for run in runs {
            let family = run.fontFamily ?? style.fontFamily
            let size = max(0, run.fontSize ?? style.fontSize)
            let color = run.color ?? style.color
            guard let typeface = Typeface.named(family) ?? Typeface.default else { continue }
            typeface.shape(run.string.unicodeScalars) { shaped in
                let s = shaped.scalar.value
                let newline = s == 0x0A
                advances += shaped.advance * size
                scratch.items.append(Item(typeface: typeface, glyph: shaped.glyph, size: size, advance: newline ? 0 : shaped.advance * size,
                                          kern: shaped.kern * size, offset: Point(x: shaped.offset.x * size, y: shaped.offset.y * size),
                                          color: color, hasStyleColor: run.color == nil, isSpace: s == 0x20 || s == 0x09, isNewline: newline))
            }
        }
        let textCount = scratch.items.count
        let limit = width.map { max(0, $0) }
        if isWrapped, let limit, limit > 0, advances.isFinite {
            // About as many lines as the advances fill, and some to spare for short ones.
            let estimate = Int(min(Double(textCount), advances / limit * 1.25)) + 8
            scratch.lines.reserveCapacity(estimate)
            lines.reserveCapacity(estimate)
        }
        // Lines as ranges of the items; a truncated line's items are appended after the text's.
        var start = 0
        while start <= textCount, textCount > 0 {
            var end = start
            while end < textCount && !scratch.items[end].isNewline { end += 1 }
            if isWrapped, let limit {
                Self.wrap(scratch.items, start..<end, to: limit) { scratch.lines.append(LineRange(range: $0, endsParagraph: false)) }
                scratch.lines[scratch.lines.count - 1].endsParagraph = true
            } else {
                scratch.lines.append(LineRange(range: start..<end, endsParagraph: true))
            }
            start = end + 1
        }
        let rawLineCount = scratch.lines.count

        // Keep the lines that fit the height (at least one), then truncate.
        var overflowed = false
        if isWrapped, let height {
            var total = 0.0, count = 0
            for line in scratch.lines {
                let h = Self.lineMetrics(scratch.items[line.range], fallback: style).height
                if count > 0 && total + h > height + 1e-9 { break }
                total += h
                count += 1
            }
            overflowed = count < scratch.lines.count
            scratch.lines.removeLast(scratch.lines.count - count)
        }
        if truncation != .none, let limit {
            for i in scratch.lines.indices {
                let line = scratch.items[scratch.lines[i].range]
                guard (!isWrapped && Self.width(line) > limit + 1e-9) || (overflowed && i == scratch.lines.count - 1) else { continue }
                let shortened = Self.truncate(Array(line), to: limit, mode: overflowed && isWrapped ? .end : truncation)
                let first = scratch.items.count
                scratch.items.append(contentsOf: shortened)
                scratch.lines[i].range = first..<scratch.items.count
            }
        }

        var boxWidth = limit ?? 0
        if limit == nil {
            for line in scratch.lines { boxWidth = max(boxWidth, Self.width(scratch.items[line.range])) }
        }
        var top = 0.0, widest = 0.0
        for (i, lineRange) in scratch.lines.enumerated() {
            let line = scratch.items[lineRange.range]
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
            let endsParagraph = i >= rawLineCount || lineRange.endsParagraph
            if alignment == .justified, !endsParagraph, lineWidth < boxWidth {
                var spaces = 0
                for item in Self.trimmed(line) where item.isSpace { spaces += 1 }
                if spaces > 0 { extraPerSpace = (boxWidth - lineWidth) / Double(spaces) }
            }
            let first = glyphs.count
            var pen = x
            for j in line.indices {
                let item = line[j]
                if j > line.startIndex { pen += item.kern }
                if !item.isSpace && !item.isNewline {
                    glyphs.append(Glyph(typeface: item.typeface, glyph: item.glyph, size: item.size,
                                        position: Point(x: pen + item.offset.x, y: baseline + item.offset.y), color: item.color,
                                        hasStyleColor: item.hasStyleColor))
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
    private static func wrap(_ items: [Item], _ paragraph: Range<Int>, to limit: Double, emit: (Range<Int>) -> Void) {
        var lineStart = paragraph.lowerBound
        guard !paragraph.isEmpty else { emit(paragraph); return }
        while lineStart < paragraph.upperBound {
            var pen = 0.0, lastBreak: Int?
            var i = lineStart
            var end = paragraph.upperBound
            while i < paragraph.upperBound {
                let item = items[i]
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
            emit(lineStart..<end)
            lineStart = end
        }
    }

    private static func trimmed(_ line: ArraySlice<Item>) -> ArraySlice<Item> {
        var end = line.endIndex
        while end > line.startIndex && line[end - 1].isSpace { end -= 1 }
        return line[line.startIndex..<end]
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

    private static func lineMetrics(_ line: ArraySlice<Item>, fallback: TextStyle) -> (ascent: Double, height: Double) {
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

    /// `line` shortened with an ellipsis to fit `limit`.
    private static func truncate(_ line: [Item], to limit: Double, mode: TruncationMode) -> [Item] {
        guard let sample = line.last(where: { !$0.isNewline }) ?? line.first else { return line }
        let face = sample.typeface
        let glyph = face.glyph(for: "\u{2026}")
        let ellipsis = Item(typeface: face, glyph: glyph, size: sample.size, advance: face.advance(of: glyph) * sample.size,
                            kern: 0, color: sample.color, hasStyleColor: sample.hasStyleColor, isSpace: false, isNewline: false)
        let room = limit - ellipsis.advance
        guard room > 0 else { return [ellipsis] }
        var body = Array(trimmed(line[...]))
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

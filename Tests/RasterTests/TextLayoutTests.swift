import Foundation
@testable import Raster
import RasterTestSupport
import Testing

/// Fonts through fontconfig and FreeType: metrics, kerning, line breaking, truncation, drawing.
@Suite struct TextLayoutTests {
    static func face() throws -> Typeface { try #require(Typeface.named("DejaVu Sans")) }

    @Test func fontconfigFindsDejaVuSansWithItsMetrics() throws {
        let face = try Self.face()
        #expect(face.familyName == "DejaVu Sans")
        #expect(face.path.hasSuffix("DejaVuSans.ttf"))
        #expect(face.unitsPerEm == 2048)
        #expect(face.ascender == 1901.0 / 2048 && face.descender == 483.0 / 2048 && face.lineHeight == 2384.0 / 2048)
        #expect(Typeface.named("DejaVu Sans") === face)   // opened once
    }

    @Test func advancesAreFreeTypesAndKerningPullsPairsTogether() throws {
        let face = try Self.face()
        // hmtx advances and kern values of DejaVu Sans 2.37, in font units (read with FreeType's FT_LOAD_NO_SCALE).
        for (ch, units) in [("H", 1540.0), ("e", 1260), ("l", 569), ("o", 1253), ("A", 1401), ("V", 1401), ("T", 1251), (" ", 651)] {
            #expect(face.advance(of: face.glyph(for: Unicode.Scalar(ch)!)) == units / 2048, "\(ch)")
        }
        #expect(face.kerning(face.glyph(for: "A"), face.glyph(for: "V")) == -131.0 / 2048)
        #expect(face.kerning(face.glyph(for: "T"), face.glyph(for: "o")) == -348.0 / 2048)
        let size = 20.48      // one pixel per 100 font units
        let av = TextLayout("AV", style: TextStyle(fontSize: size))
        #expect(abs(av.glyphs[1].position.x - (1401 - 131) / 100.0) < 1e-9)
        let to = TextLayout("To", style: TextStyle(fontSize: size))
        #expect(abs(to.glyphs[1].position.x - (1251 - 348) / 100.0) < 1e-9)
        let hello = TextLayout("Hello", style: TextStyle(fontSize: size))
        var pen = 0.0
        let glyphs = "Hello".unicodeScalars.map { face.glyph(for: $0) }
        for i in 0..<5 {
            if i > 0 { pen += face.kerning(glyphs[i - 1], glyphs[i]) * size }
            #expect(abs(hello.glyphs[i].position.x - pen) < 1e-9)
            pen += face.advance(of: glyphs[i]) * size
        }
        #expect(abs(hello.size.width - pen) < 1e-9)
        #expect(abs(hello.lines[0].baseline - 19.01) < 1e-9)
        #expect(abs(hello.size.height - 23.84) < 1e-9)
    }

    @Test func wrappingBreaksAtSpacesAndLongWordsAnywhere() throws {
        let style = TextStyle(fontSize: 20)
        let words = TextLayout("alpha beta gamma delta", style: style, width: 120, isWrapped: true)
        #expect(words.lines.count > 1)
        #expect(words.lines.allSatisfy { $0.width <= 120 + 1e-9 })
        #expect(words.glyphs.count == "alphabetagammadelta".count)
        let long = TextLayout("abcdefghijklmnopqrstuvwxyz", style: style, width: 60, isWrapped: true)
        #expect(long.lines.count >= 4)
        #expect(long.lines.allSatisfy { $0.width <= 60 + 1e-9 })
        let paragraphs = TextLayout("one\ntwo\n\nfour", style: style)
        #expect(paragraphs.lines.count == 4)
        #expect(paragraphs.lines[2].glyphRange.isEmpty)
        // Lines past the height are dropped; with truncation the last kept line ends in "…".
        let clipped = TextLayout("alpha beta gamma delta epsilon zeta", style: style, width: 120, height: 50,
                                 isWrapped: true, truncation: .end)
        #expect(clipped.lines.count == 2)
        let face = try Self.face()
        #expect(clipped.glyphs.last?.glyph == face.glyph(for: "\u{2026}"))
    }

    @Test func truncationAndAlignment() throws {
        let face = try Self.face()
        let ellipsis = face.glyph(for: "\u{2026}")
        let style = TextStyle(fontSize: 16)
        let text: StyledText = "The quick brown fox jumps over the lazy dog"
        let end = TextLayout(text, style: style, width: 100, truncation: .end)
        #expect(end.glyphs.last?.glyph == ellipsis && end.lines[0].width <= 100)
        let start = TextLayout(text, style: style, width: 100, truncation: .start)
        #expect(start.glyphs.first?.glyph == ellipsis && start.lines[0].width <= 100)
        #expect(start.glyphs.last?.glyph == face.glyph(for: "g"))
        let middle = TextLayout(text, style: style, width: 100, truncation: .middle)
        #expect(middle.lines[0].width <= 100)
        #expect(middle.glyphs.first?.glyph == face.glyph(for: "T") && middle.glyphs.last?.glyph == face.glyph(for: "g"))
        #expect(middle.glyphs.contains { $0.glyph == ellipsis })
        let right = TextLayout("right", style: style, width: 200, alignment: .right)
        #expect(abs(right.lines[0].x + right.lines[0].width - 200) < 1e-9)
        let center = TextLayout("centre", style: style, width: 200, alignment: .center)
        #expect(abs(center.lines[0].x * 2 + center.lines[0].width - 200) < 1e-9)
        let justified = TextLayout("a b c d e f g h i j k l m n", style: style, width: 100, alignment: .justified, isWrapped: true)
        #expect(abs(justified.lines[0].width - 100) < 1e-9)
        #expect(justified.lines.last!.width < 100)
    }

    @Test func harfBuzzMakesLigaturesAndKernsPairs() throws {
        let face = try Self.face()
        let size = 20.48      // one pixel per 100 font units
        let f = face.glyph(for: "f"), i = face.glyph(for: "i")
        // DejaVu Sans's GSUB "liga" turns f + i into one glyph, which keeps the cluster's first letter.
        let fi = TextLayout("fi", style: TextStyle(fontSize: size))
        #expect(fi.glyphs.count == 1)
        #expect(fi.glyphs.first.map { $0.glyph != f && $0.glyph != i } == true)
        let office = TextLayout("office fit", style: TextStyle(fontSize: size))
        #expect(office.glyphs.count < "officefit".count)
        // Kerning through shaping: "AV" is narrower than its two advances.
        let a = face.glyph(for: "A"), v = face.glyph(for: "V")
        let av = TextLayout("AV", style: TextStyle(fontSize: size))
        #expect(av.glyphs.map(\.glyph) == [a, v])
        #expect(av.size.width < (face.advance(of: a) + face.advance(of: v)) * size - 1)
        // Text without ligatures or kerning pairs keeps FreeType's advances.
        let h = TextLayout("Hxmn", style: TextStyle(fontSize: size))
        var pen = 0.0
        for (k, s) in "Hxmn".unicodeScalars.enumerated() {
            #expect(abs(h.glyphs[k].position.x - pen) < 1e-9)
            pen += face.advance(of: face.glyph(for: s)) * size
        }
        #expect(abs(h.size.width - pen) < 1e-9)
    }

    @Test func updateLaysOutAgainInTheSameStorage() throws {
        let style = TextStyle(fontSize: 24)
        var clock = TextLayout("12:00", style: style, width: 120, alignment: .center)
        let storage = clock.glyphs.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        for text in ["12:01", "12:11", "09:59", "10:00"] {
            clock.update(text, style: style, width: 120, alignment: .center)
            let fresh = TextLayout(StyledText(text), style: style, width: 120, alignment: .center)
            #expect(clock.glyphs.map(\.glyph) == fresh.glyphs.map(\.glyph))
            #expect(clock.glyphs.map(\.position) == fresh.glyphs.map(\.position))
            #expect(clock.lines == fresh.lines && clock.size == fresh.size)
            #expect(clock.glyphs.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) } == storage)
        }
        // A copy keeps its own glyphs when the other is laid out again.
        let copy = clock
        clock.update(StyledText(runs: [TextRun("A longer line of text", color: .red)]), style: style, width: 120,
                     isWrapped: true, truncation: .end)
        #expect(copy.glyphs.count == 5 && clock.glyphs.count > 5)
        #expect(clock.glyphs.allSatisfy { !$0.hasStyleColor && $0.color == .red })
    }

    @Test func asciiDrawingMatchesTheLaidOutText() throws {
        let face = try #require(Typeface.named("DejaVu Sans Mono"))
        let text = "FPS 59.9  p99 16.71 ms\nAV To"
        let direct = try Bitmap(width: 160, height: 40), laidOut = try Bitmap(width: 160, height: 40)
        face.draw(ascii: Array(text.utf8), size: 10, into: direct, at: Point(x: 3.25, y: 2), color: .white)
        let layout = TextLayout(StyledText(text), style: TextStyle(fontFamily: "DejaVu Sans Mono", fontSize: 10, color: .white))
        GraphicsContext(bitmap: laidOut).draw(layout, at: Point(x: 3.25, y: 2))
        // Line heights are rounded to whole pixels by the ASCII path: compare the first line.
        #expect(direct.cropped(to: IntRect(x: 0, y: 0, width: 160, height: 14))!.hasSamePixels(as: laidOut.cropped(to: IntRect(x: 0, y: 0, width: 160, height: 14))!))
        #expect((0..<160).contains { direct[$0, 8] != 0 })
    }

    @Test func glyphImagesAreCached() throws {
        let face = try Self.face()
        let g = face.glyph(for: "g")
        let a = try #require(face.image(of: g, size: 13, phase: 1))
        #expect(face.image(of: g, size: 13, phase: 1) === a)
        #expect(face.image(of: g, size: 13, phase: 2) !== a)
    }

    @Test func textMatchesGolden() throws {
        let bitmap = try Bitmap(width: 240, height: 120)
        bitmap.clear(to: Color.white.premultipliedPixel)
        let ctx = GraphicsContext(bitmap: bitmap)
        let runs = StyledText(runs: [
            TextRun("Kerning: AV To. ", color: Color(rgb: 0x222222)),
            TextRun("Bold ", fontFamily: "DejaVu Sans:bold", color: Color(rgb: 0xCC3300)),
            TextRun("serif", fontFamily: "DejaVu Serif", fontSize: 18, color: Color(rgb: 0x0055AA)),
        ])
        ctx.draw(TextLayout(runs, style: TextStyle(fontSize: 13)), at: Point(x: 6, y: 4))
        ctx.draw(TextLayout("Small text stays crisp at 9 px and 11 px.", style: TextStyle(fontSize: 9)), at: Point(x: 6, y: 28))
        ctx.draw(TextLayout("Wrapped into a narrow box and centred.", style: TextStyle(fontSize: 11, color: Color(rgb: 0x335533)),
                            width: 110, alignment: .center, isWrapped: true), at: Point(x: 6, y: 44))
        ctx.saveGState()
        ctx.translateBy(x: 150, y: 100)
        ctx.rotate(by: -0.35)
        ctx.draw(TextLayout("Outlines", style: TextStyle(fontSize: 22, color: Color(rgb: 0x6633AA))), at: Point(x: 0, y: -20))
        ctx.restoreGState()
        assertMatchesGolden(bitmap, named: "text-gallery", in: Bundle.module, tolerance: 2)
    }
}

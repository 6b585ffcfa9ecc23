import Foundation
import Testing
@testable import LiveLayers
@testable import Raster
import RasterTestSupport

extension RuntimeSuites {
@MainActor
@Suite struct TextLayerTests {
    init() { freshRuntime() }

    func host(_ width: Double, _ height: Double) -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = .white
        keptRoots.append(root)
        return root
    }

    @Test func layoutUsesFreeTypeAdvancesAndTheLayersAttributes() throws {
        freshRuntime()
        let text = TextLayer()
        text.frame = Rect(x: 0, y: 0, width: 400, height: 40)
        text.string = "Hello"
        text.fontSize = 20.48
        let face = try #require(Typeface.named("DejaVu Sans"))
        // H e l l o: 1540 + 1260 + 569 + 569 + 1253 font units, 100 to the pixel; no kerning pairs.
        #expect(abs(text.layout.size.width - 51.91) < 1e-9)
        #expect(text.layout.glyphs.map(\.glyph) == "Hello".unicodeScalars.map { face.glyph(for: $0) })
        #expect(text.layout.glyphs.allSatisfy { $0.color == .white })
        text.alignmentMode = .right
        #expect(abs(text.layout.lines[0].x + text.layout.lines[0].width - 400) < 1e-9)
    }

    @Test func unchangedTextIsNotRedrawnAndFontSizeAnimates() throws {
        freshRuntime()
        let r = host(200, 60)
        let text = TextLayer()
        text.frame = Rect(x: 10, y: 10, width: 180, height: 40)
        text.string = "12:00:00"
        text.fontSize = 20
        text.foregroundColor = .black
        r.addSublayer(text)
        let bitmap = try Bitmap(width: 200, height: 60)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        let version = text.record(in: renderer).contentVersion
        #expect(renderer.render(r, at: 0.5, into: bitmap).isEmpty)
        #expect(text.record(in: renderer).contentVersion == version)
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        text.fontSize = 30
        text.foregroundColor = .red
        Transaction.commit()
        LayerClock.advance(to: 0.5)
        let shown = try #require(text.presentation())
        #expect(close(shown.fontSize, 20))
        renderer.render(r, at: 1.0, into: bitmap)
        #expect(close(try #require(text.presentation()).fontSize, 25))
        #expect(text.record(in: renderer).contentVersion > version)
    }

    @Test func animatedColourRepaintsTheCachedLayout() throws {
        freshRuntime()
        let r = host(200, 60)
        let text = TextLayer()
        text.frame = Rect(x: 10, y: 10, width: 180, height: 40)
        text.string = "Colour"
        text.fontSize = 24
        text.foregroundColor = .black
        r.addSublayer(text)
        let bitmap = try Bitmap(width: 200, height: 60)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        let pulse = BasicAnimation(keyPath: "foregroundColor")
        pulse.fromValue = Color.red
        pulse.toValue = Color.blue
        pulse.duration = 1
        text.add(pulse, forKey: "pulse")
        var layouts: Set<ObjectIdentifier> = []
        for frame in 1...4 {
            let t = Double(frame) * 0.2
            LayerClock.advance(to: t)
            let version = text.record(in: renderer).contentVersion
            renderer.render(r, at: t, into: bitmap)
            #expect(text.record(in: renderer).contentVersion > version, "repainted at frame \(frame)")
            let shown = try #require(text.presentation())
            layouts.insert(ObjectIdentifier(shown.layout.images))
            // The same pixels as a text layer made in this colour.
            let still = TextLayer()
            still.frame = text.frame
            still.string = text.string
            still.fontSize = 24
            still.foregroundColor = shown.foregroundColor
            let stillRoot = host(200, 60)
            stillRoot.addSublayer(still)
            let expected = try Bitmap(width: 200, height: 60)
            LayerRenderer().render(stillRoot, at: t, into: expected)
            #expect(bitmap.hasSamePixels(as: expected), "frame \(frame)")
        }
        #expect(layouts.count == 1)
    }

    @Test func wrappedTruncatedStyledTextMatchesGolden() throws {
        freshRuntime()
        let r = host(220, 90)
        let title = TextLayer()
        title.frame = Rect(x: 8, y: 6, width: 204, height: 24)
        title.styledText = StyledText(runs: [TextRun("Text", fontSize: 20, color: Color(rgb: 0xCC3300)),
                                             TextRun("Layer ", fontSize: 20, color: Color(rgb: 0x222222)),
                                             TextRun("DejaVu Serif", fontFamily: "DejaVu Serif", fontSize: 14, color: .blue)])
        let body = TextLayer()
        body.frame = Rect(x: 8, y: 32, width: 204, height: 52)
        body.string = "Lines break at spaces to fit the width, and the last line that fits ends in an ellipsis when more text follows."
        body.fontSize = 12
        body.foregroundColor = Color(white: 0.2)
        body.isWrapped = true
        body.truncationMode = .end
        body.alignmentMode = .justified
        r.addSublayer(title)
        r.addSublayer(body)
        let bitmap = try Bitmap(width: 220, height: 90)
        LayerRenderer().render(r, at: 0, into: bitmap)
        assertMatchesGolden(bitmap, named: "text-layers", in: Bundle.module, tolerance: 2)
    }
}
}

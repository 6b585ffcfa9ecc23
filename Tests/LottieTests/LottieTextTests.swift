// LottieTextTests: text layers drawn with TextLayer: font, size, colour, justification, tracking,
// line height, paragraph boxes, keyframed documents, and a missing font reported once.

import Foundation
import LiveLayers
import Lottie
import Raster
import Testing

@MainActor
private func render(_ data: Data, frame: Double = 0) throws -> (Bitmap, [String]) {
    let root = try LottieAnimation(json: data).makeLayer()
    root.currentFrame = frame
    let bitmap = try Bitmap(width: Int(root.bounds.width), height: Int(root.bounds.height))
    _ = LayerRenderer().render(root, at: LayerClock.currentTime, into: bitmap)
    return (bitmap, root.unsupportedFeatures)
}

/// The box of the pixels with any ink (alpha above a quarter), or `nil` when there are none.
private func ink(_ image: Bitmap, rows: Range<Int>? = nil) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var box: (Int, Int, Int, Int)?
    for y in rows ?? 0..<image.height {
        for x in 0..<image.width where image[x, y] >> 24 > 0x40 {
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
        }
    }
    return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
}

private let fonts = #","fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book","ascent":75}]}"#

private func document(_ text: String, size: Double = 20, justification: Int = 0, tracking: Double = 0, lineHeight: Double = 24,
                      font: String = "DejaVuSans", extra: String = "") -> String {
    #"{"t":"\#(text)","f":"\#(font)","s":\#(size),"fc":[1,0,0],"j":\#(justification),"tr":\#(tracking),"lh":\#(lineHeight)\#(extra)}"#
}

private func textLayer(_ documents: [(frame: Double, document: String)], position: String = "[50,40]", name: String = "text") -> String {
    let keyframes = documents.map { #"{"s":\#($0.document),"t":\#($0.frame)}"# }.joined(separator: ",")
    return #"{"ty":5,"nm":"\#(name)","ind":1,"ip":0,"op":20,"st":0,"ks":{"p":{"a":0,"k":\#(position)}},"t":{"d":{"k":[\#(keyframes)]},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}}"#
}

@Suite("Lottie text")
@MainActor
struct LottieTextTests {
    let face = try! #require(Typeface.named("DejaVu Sans"))

    /// "Hello" in DejaVu Sans 20 px, red, on the baseline at (50, 40): the ink starts at the
    /// origin, rises at most the ascender above the baseline, and is as wide as the advances
    /// (within 2 px: side bearings).
    @Test func pointTextSitsOnItsBaselineAtTheOrigin() throws {
        let (image, features) = try render(composition(layers: textLayer([(0, document("Hello"))]), width: 200, height: 80, extra: fonts))
        #expect(features.isEmpty, "\(features)")
        let box = try #require(ink(image))
        let width = "Hello".unicodeScalars.reduce(0.0) { $0 + face.advance(of: face.glyph(for: $1)) } * 20
        #expect(abs(box.minX - 50) <= 2, "\(box)")
        #expect(abs(Double(box.maxX + 1 - box.minX) - width) <= 3, "\(box) against advance \(width)")
        #expect(box.maxY <= 40 && box.minY >= 40 - Int((face.ascender * 20).rounded(.up)) - 1, "\(box)")
        // Red, as fc says.
        let x = (box.minX + 1)
        let column = (box.minY...box.maxY).map { image[x, $0] }.filter { $0 >> 24 == 0xFF }
        #expect(column.allSatisfy { $0 == 0xFFFF_0000 }, "\(column.map { String($0, radix: 16) })")
    }

    /// Right and centre justification end or centre the line on the origin.
    @Test(arguments: [(1, 1.0), (2, 0.5)])
    func justificationPlacesTheLineAboutTheOrigin(justification: Int, fraction: Double) throws {
        let (left, _) = try render(composition(layers: textLayer([(0, document("Hello"))], position: "[100,40]"), width: 200, height: 80, extra: fonts))
        let (moved, _) = try render(composition(layers: textLayer([(0, document("Hello", justification: justification))], position: "[100,40]"),
                                                width: 200, height: 80, extra: fonts))
        let a = try #require(ink(left)), b = try #require(ink(moved))
        let width = "Hello".unicodeScalars.reduce(0.0) { $0 + face.advance(of: face.glyph(for: $1)) } * 20
        #expect(abs(Double(a.minX - b.minX) - width * fraction) <= 1, "\(a) \(b)")
        #expect(a.minY == b.minY && a.maxY == b.maxY)
    }

    /// Tracking 500 (half an em, 10 px at 20 px) widens "HHHH" by three gaps of 10 px.
    @Test func trackingSpacesTheCharacters() throws {
        let (plain, _) = try render(composition(layers: textLayer([(0, document("HHHH"))]), width: 200, height: 80, extra: fonts))
        let (tracked, _) = try render(composition(layers: textLayer([(0, document("HHHH", tracking: 500))]), width: 200, height: 80, extra: fonts))
        let a = try #require(ink(plain)), b = try #require(ink(tracked))
        #expect(abs((b.maxX - b.minX) - (a.maxX - a.minX) - 30) <= 1, "\(a) \(b)")
        #expect(a.minX == b.minX)
    }

    /// Two lines with line height 30: the second's ink is the first's, 30 px lower.
    @Test func linesSitLineHeightApart() throws {
        let (image, _) = try render(composition(layers: textLayer([(0, document("H\\rH", lineHeight: 30))], position: "[20,30]"),
                                                width: 100, height: 100, extra: fonts))
        let first = try #require(ink(image, rows: 0..<35)), second = try #require(ink(image, rows: 35..<100))
        #expect(second.minY - first.minY == 30 && second.maxY - first.maxY == 30, "\(first) \(second)")
        #expect(second.minX == first.minX)
    }

    /// A paragraph box wraps its words to its width, from its top-left.
    @Test func paragraphBoxesWrapToTheirWidth() throws {
        let box = #","ps":[10,10],"sz":[60,100]"#
        let (image, _) = try render(composition(layers: textLayer([(0, document("HH HH HH", lineHeight: 25, extra: box))], position: "[0,0]"),
                                                width: 100, height: 120, extra: fonts))
        let all = try #require(ink(image))
        #expect(all.minX >= 10 && all.maxX < 70 && all.minY >= 10, "\(all)")
        // "HH HH" is wider than 60 at 20 px: three lines of "HH".
        #expect(ink(image, rows: 10..<35) != nil && ink(image, rows: 35..<60) != nil && ink(image, rows: 60..<85) != nil)
    }

    /// Documents hold from their keyframe to the next: "I" until frame 10, then "IIIIII".
    @Test func keyframedDocumentsSwitchAtTheirFrames() throws {
        let data = composition(layers: textLayer([(0, document("I")), (10, document("IIIIII"))]), width: 200, height: 80, extra: fonts)
        let (early, _) = try render(data, frame: 5), (late, _) = try render(data, frame: 12)
        let a = try #require(ink(early)), b = try #require(ink(late))
        let advance = face.advance(of: face.glyph(for: "I")) * 20
        #expect(abs(Double(b.maxX - a.maxX) - 5 * advance) <= 2, "\(a) \(b)")
    }

    /// A font that is not installed is drawn in fontconfig's substitute, reported once however
    /// many layers use it.
    @Test func aMissingFontFallsBackAndIsReportedOnce() throws {
        let missing = #","fonts":{"list":[{"fName":"Nope","fFamily":"No Such Family Anywhere","fStyle":"Regular"}]}"#
        let layers = textLayer([(0, document("Hi", font: "Nope"))], name: "one") + "," + textLayer([(0, document("Ho", font: "Nope"))], position: "[50,70]", name: "two")
        let (image, features) = try render(composition(layers: layers, width: 200, height: 100, extra: missing))
        #expect(ink(image) != nil, "the fallback font drew nothing")
        let reports = features.filter { $0.contains("No Such Family Anywhere") }
        #expect(reports.count == 1 && reports[0].contains("is not installed (drawn in "), "\(features)")
    }

    /// Hostile text: too many characters or lines is a clear error; a long paragraph in a huge
    /// box wraps in bounded work.
    @Test func hostileTextIsAnErrorOrBoundedWork() throws {
        func build(_ text: String, extra: String = "", tracking: Double = 0) throws -> [String] {
            try LottieAnimation(json: composition(layers: textLayer([(0, document(text, tracking: tracking, extra: extra))]), extra: fonts))
                .makeLayer().unsupportedFeatures
        }
        #expect(throws: LottieError.self) { try build(String(repeating: "x", count: 300_000)) }
        #expect(throws: LottieError.self) { try build(String(repeating: "x\\r", count: 30_000)) }
        #expect(throws: LottieError.self) { try build(String(repeating: "xy", count: 15_000), tracking: 10) }
        _ = try build(String(repeating: "ab ", count: 60_000), extra: #","ps":[0,0],"sz":[1e12,100]"#)
    }

    /// A file that carries its glyphs (`chars`) draws them, in units of a 100-pixel font: here
    /// "A" is a 50x50 square on the baseline with advance 60, so "AA" at 20 px is two 10x10
    /// squares 12 px apart above the baseline at (20, 40), and no font is looked up.
    @Test func glyphsCarriedByTheFileAreDrawn() throws {
        let square = #"{"ty":"gr","it":[{"ty":"sh","ks":{"a":0,"k":{"c":true,"v":[[0,0],[50,0],[50,-50],[0,-50]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},{"ty":"tr","p":{"a":0,"k":[0,0]}}]}"#
        let extra = #","fonts":{"list":[{"fName":"Boxes","fFamily":"Box Family Not Installed","fStyle":"Regular","ascent":75}]},"# +
            #""chars":[{"ch":"A","size":100,"style":"Regular","w":60,"fFamily":"Box Family Not Installed","data":{"shapes":[\#(square)]}}]"#
        let (image, features) = try render(composition(layers: textLayer([(0, document("AA", font: "Boxes"))], position: "[20,40]"),
                                                        width: 100, height: 60, extra: extra))
        #expect(features.isEmpty, "\(features)")
        let box = try #require(ink(image))
        #expect(box.minX == 20 && box.maxX == 41 && box.minY == 30 && box.maxY == 39, "\(box)")
        #expect(image[25, 35] == 0xFFFF_0000 && image[37, 35] == 0xFFFF_0000 && image[31, 35] == 0)
    }
}

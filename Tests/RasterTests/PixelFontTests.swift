import Foundation
@testable import Raster
import RasterTestSupport
import Testing

@Suite struct PixelFontTests {
    private let font = PixelFont.standard
    private let printable = (32...126).map { Unicode.Scalar(UInt8($0)) }

    @Test func everyPrintableGlyphHasPixelsExceptSpace() {
        for scalar in printable {
            let lit = font.glyphRows(for: scalar).reduce(0) { $0 + $1.nonzeroBitCount }
            if scalar == " " {
                #expect(lit == 0)
            } else {
                #expect(lit > 0, "glyph \(scalar) is empty")
            }
        }
    }

    @Test func glyphsDifferFromEachOtherAndFromTheBox() {
        var seen: [[UInt8]: Unicode.Scalar] = [:]
        for scalar in printable + ["\u{7F}"] {
            let rows = Array(font.glyphRows(for: scalar))
            #expect(seen[rows] == nil, "\(scalar) looks like \(seen[rows].map(String.init) ?? "")")
            seen[rows] = scalar
        }
    }

    @Test func onlyDescendersAndLowPunctuationReachBelowTheBaseline() {
        let below = Set("gjpqy,;_".unicodeScalars)
        for scalar in printable {
            let rows = font.glyphRows(for: scalar)
            let usesDescent = rows[rows.startIndex + 7] | rows[rows.startIndex + 8] != 0
            #expect(usesDescent == below.contains(scalar), "glyph \(scalar)")
        }
    }

    @Test func unknownCharactersAreBoxes() {
        let box = Array(font.glyphRows(for: "\u{7F}"))
        #expect(box == [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F, 0, 0])
        #expect(Array(font.glyphRows(for: "é")) == box)
        #expect(Array(font.glyphRows(for: "\u{1F600}")) == box)
    }

    @Test func drawnPixelsMatchTheGlyphAtScaleOneAndTwo() throws {
        for scale in [1, 2] {
            let bitmap = try Bitmap(width: 20, height: 24)
            font.draw("R", into: bitmap, at: Point(x: 3.7, y: 2), scale: scale, color: .white)
            let rows = Array(font.glyphRows(for: "R"))
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let gx = (x - 3) / scale, gy = (y - 2) / scale
                    let inGlyph = x >= 3 && y >= 2 && gx < 5 && gy < 9 && rows[gy] & (0x10 >> UInt8(gx)) != 0
                    #expect(bitmap[x, y] == (inGlyph ? 0xFFFF_FFFF : 0), "scale \(scale) at \(x), \(y)")
                }
            }
        }
    }

    @Test func drawingBlendsSourceOver() throws {
        let bitmap = try Bitmap(width: 8, height: 10)
        bitmap.clear(to: 0xFFFF_FFFF)
        font.draw("|", into: bitmap, at: .zero, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        // Premultiplied (128, 128, 0, 0) over opaque white: 128 + 255·127/255 = 255 alpha and red.
        #expect(bitmap[2, 3] == 0xFFFF_7F7F)
        #expect(bitmap[1, 3] == 0xFFFF_FFFF)
        font.draw("|", into: bitmap, at: .zero, color: .clear)
        #expect(bitmap[2, 3] == 0xFFFF_7F7F)
    }

    @Test func drawingIsClippedToTheBitmapAndItsStride() throws {
        // A bitmap 8 wide inside rows 12 pixels apart: the padding must stay untouched.
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: 12 * 8)
        memory.initialize(repeating: 0x1234_5678, count: 12 * 8)
        let bitmap = try Bitmap(adopting: memory, width: 8, height: 8, stride: 12, deallocator: { $0.deallocate() })
        bitmap.clear()
        for (text, origin) in [("WMW", Point(x: -5, y: -6)), ("@#\nQ", Point(x: 5, y: 3)), ("xx", Point(x: -40, y: 2)),
                               ("big", Point(x: -1e15, y: 0)), ("nan", Point(x: .nan, y: 0))] {
            font.draw(text, into: bitmap, at: origin, scale: 2, color: .white)
        }
        font.draw("H", into: bitmap, at: Point(x: 2, y: 2), scale: 1 << 40, color: .white)
        withExtendedLifetime(bitmap) {
            for y in 0..<8 {
                for x in 8..<12 { #expect(memory[y * 12 + x] == 0x1234_5678) }
            }
        }
        #expect(bitmap[0, 0] == 0xFFFF_FFFF)   // the first W's middle row, scaled, covers the corner
    }

    @Test func sizeOfText() {
        #expect(font.size(of: "AB", scale: 1) == Size(width: 11, height: 9))
        #expect(font.size(of: "A\nBCD", scale: 1) == Size(width: 17, height: 19))
        #expect(font.size(of: "A\r\nBCD", scale: 2) == Size(width: 34, height: 38))
        #expect(font.size(of: "", scale: 1) == .zero)
        #expect(font.size(of: "\n", scale: 1) == Size(width: 0, height: 19))
        #expect(font.size(of: "x", scale: 0) == .zero)
    }

    /// Every glyph at scale 1 and 2 on a dark background, as the overlay draws them.
    @Test func glyphSheet() throws {
        let lines = stride(from: 32, through: 126, by: 32).map { start in
            String(String.UnicodeScalarView((start..<min(start + 32, 127)).map { Unicode.Scalar(UInt8($0)) }))
        }
        let text = lines.joined(separator: "\n") + "\nFPS 59.9  drop 0  [space] pause\u{7F}é"
        let small = font.size(of: text, scale: 1), large = font.size(of: text, scale: 2)
        let bitmap = try Bitmap(width: Int(large.width) + 8, height: Int(small.height + large.height) + 14)
        bitmap.clear(to: 0xFF20_2830)
        font.draw(text, into: bitmap, at: Point(x: 4, y: 4), color: .white)
        font.draw(text, into: bitmap, at: Point(x: 4, y: small.height + 10), scale: 2, color: Color(rgb: 0xFFD060, alpha: 0.9))
        assertMatchesGolden(bitmap, named: "pixel-font", in: Bundle.module)
    }
}

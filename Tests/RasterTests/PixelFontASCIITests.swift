import Raster
import Testing

@Suite struct PixelFontASCIITests {
    /// Bytes draw exactly as the same text given as a string, including newlines and boxes.
    @Test func asciiBytesDrawLikeTheString() throws {
        let text = "FPS 60.0  p99 1.25 ms\ndropped 3: blit 2\u{7F}"
        let fromString = try Bitmap(width: 200, height: 40)
        let fromBytes = try Bitmap(width: 200, height: 40)
        for b in [fromString, fromBytes] { b.clear(to: 0xFF20_2020) }
        PixelFont.standard.draw(text, into: fromString, at: Point(x: 3, y: 2), scale: 1, color: .white)
        PixelFont.standard.draw(ascii: Array(text.utf8), into: fromBytes, at: Point(x: 3, y: 2), scale: 1, color: .white)
        #expect(fromBytes.hasSamePixels(as: fromString))
        var lit = 0
        for y in 0..<40 { for x in 0..<200 where fromBytes[x, y] != 0xFF20_2020 { lit += 1 } }
        #expect(lit > 100)
    }
}

import Testing
import Raster

/// Copying a region between bitmaps: only the region's pixels change, at the same place, and
/// what lies outside either bitmap is skipped, whatever the strides.
@Suite struct BitmapCopyTests {
    @Test func aRegionIsCopiedToTheSamePlaceAndClippedToBothBitmaps() throws {
        let source = try Bitmap(width: 6, height: 5)
        for y in 0..<5 { for x in 0..<6 { source[x, y] = UInt32(0xFF00_0000 | (y << 8) | x) } }
        // A view: its stride (8) differs from the source's (6).
        let backing = try Bitmap(width: 8, height: 4)
        backing.clear(to: 0xFF12_3456)
        let target = try #require(backing.view(of: IntRect(x: 0, y: 0, width: 4, height: 4)))
        target.copy(IntRect(x: 2, y: 1, width: 10, height: 2), from: source)
        for y in 0..<4 {
            for x in 0..<4 {
                let copied = x >= 2 && (1...2).contains(y)
                #expect(target[x, y] == (copied ? source[x, y] : 0xFF12_3456), "pixel \(x), \(y)")
            }
        }
        #expect(backing[4, 1] == 0xFF12_3456, "the copy ran past the view")
        target.copy(IntRect(x: -3, y: 9, width: 2, height: 2), from: source)   // outside: nothing
        #expect(target[0, 3] == 0xFF12_3456)
    }
}

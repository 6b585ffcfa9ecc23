import Foundation
import Raster
@testable import RasterTestSupport
import Testing

/// The golden-image helpers themselves: differences are counted right and the diff sheet is written.
@Suite struct GoldenSupportTests {
    @Test func differenceCountsPixelsBeyondTheTolerance() throws {
        let a = try Bitmap(width: 4, height: 3), b = try Bitmap(width: 4, height: 3)
        a.clear(to: 0xFF10_2030)
        b.clear(to: 0xFF10_2030)
        b[1, 1] = 0xFF11_2030     // off by 1: within the default tolerance
        b[2, 2] = 0xFF10_2036     // off by 6
        let d = try #require(difference(a, b, tolerance: GoldenTolerance.default))
        #expect(d == ImageDifference(maximumChannelDifference: 6, differingPixels: 1))
        #expect(difference(a, b, tolerance: GoldenTolerance.exact)?.differingPixels == 2)
        #expect(difference(a, try Bitmap(width: 3, height: 3), tolerance: 0) == nil)
    }

    @Test func diffSheetIsExpectedDiffActualSideBySide() throws {
        let a = try Bitmap(width: 5, height: 2), b = try Bitmap(width: 5, height: 2)
        a.clear(to: 0xFF00_0000)
        b.clear(to: 0xFF00_0000)
        b[3, 1] = 0xFFFF_FFFF
        let path = try #require(writeDiff(expected: a, actual: b, name: "golden-support-self-test", filePath: #filePath))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(path.contains(".build/golden-diffs/"))
        let sheet = try Bitmap(pngFile: path)
        #expect(sheet.width == 15 && sheet.height == 2)
        #expect(sheet[5 + 3, 1] >> 16 & 0xFF > 200)   // red in the diff panel
        #expect(sheet[10 + 3, 1] == 0xFFFF_FFFF)      // the actual image on the right
    }
}

// JPEGTests: JPEG decoded through libjpeg-turbo, and damaged or hostile data refused cleanly.

import Foundation
import Raster
import Testing

@Suite struct JPEGTests {
    /// A 16x8 JPEG (quality 95, no chroma subsampling): the left 8 columns red, the right 8 blue.
    static let redBlue: [UInt8] = [UInt8](Data(base64Encoded: """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/\
        2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAIABADAREAAhEBAxEB/8QAFAAB\
        AAAAAAAAAAAAAAAAAAAACP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAWAQEBAQAAAAAAAAAAAAAAAAAKCAn/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIR\
        AxEAPwAXpTb+CGVQNe//2Q==
        """)!)

    /// Whether `pixel` is opaque and each channel within `tolerance` of `rgb`.
    func near(_ pixel: UInt32, _ rgb: UInt32, tolerance: Int) -> Bool {
        guard pixel >> 24 == 0xFF else { return false }
        return [16, 8, 0].allSatisfy { shift in abs(Int((pixel >> shift) & 0xFF) - Int((rgb >> UInt32(shift)) & 0xFF)) <= tolerance }
    }

    @Test func decodesOpaqueRGBWithinJPEGsLoss() throws {
        #expect(Bitmap.looksLikeJPEG(Self.redBlue))
        let image = try Bitmap(jpegData: Self.redBlue)
        #expect(image.width == 16 && image.height == 8)
        // Tolerance 24 of 255 per channel: JPEG's loss at quality 95 next to a hard colour edge.
        for y in 0..<8 {
            #expect(near(image[2, y], 0xFF0000, tolerance: 24), "row \(y): \(String(image[2, y], radix: 16))")
            #expect(near(image[13, y], 0x0000FF, tolerance: 24), "row \(y): \(String(image[13, y], radix: 16))")
        }
    }

    @Test func damagedOrHostileDataIsAnError() throws {
        #expect(throws: JPEGError.self) { try Bitmap(jpegData: []) }
        #expect(throws: JPEGError.self) { try Bitmap(jpegData: [UInt8]("not a jpeg at all".utf8)) }
        // Cut short after the header: libjpeg goes on with grey (a warning, not an error), never a crash.
        _ = try? Bitmap(jpegData: Array(Self.redBlue.prefix(200)))
        _ = try? Bitmap(jpegData: Array(Self.redBlue.prefix(40)))
        // Frame headers claiming 20000x8 (wider than a bitmap) and 16000x16000 (256 megapixels)
        // are refused before any pixel is decoded.
        let sof = try #require((0..<(Self.redBlue.count - 1)).first { Self.redBlue[$0] == 0xFF && Self.redBlue[$0 + 1] == 0xC0 })
        for (height, width) in [(8, 20000), (16000, 16000)] {
            var giant = Self.redBlue
            giant[sof + 5] = UInt8(height >> 8); giant[sof + 6] = UInt8(height & 0xFF)
            giant[sof + 7] = UInt8(width >> 8); giant[sof + 8] = UInt8(width & 0xFF)
            #expect {
                try Bitmap(jpegData: giant)
            } throws: { error in
                "\(error)".contains("too large")
            }
        }
    }
}

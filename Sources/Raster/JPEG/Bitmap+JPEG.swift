// Bitmap+JPEG: reading JPEG through libjpeg-turbo (the decompressor; JPEG is never written).
//
// libjpeg-turbo writes B, G, R, A bytes (JCS_EXT_BGRA), which on little-endian is a `UInt32`
// 0xAARRGGBB: our layout, and opaque, so premultiplied already.

import CJPEG
#if canImport(Glibc)
import Glibc
#endif

/// Why JPEG data could not be decoded.
public enum JPEGError: Error, Equatable, CustomStringConvertible {
    /// The data is not a JPEG, is damaged beyond what libjpeg can go on with, or describes an
    /// image larger than a ``Bitmap`` (or ``Bitmap/maximumJPEGPixels``); `reason` says which.
    case invalidData(reason: String)

    public var description: String {
        switch self {
        case let .invalidData(reason): "invalid JPEG data: \(reason)"
        }
    }
}

extension Bitmap {
    /// The most pixels a decoded JPEG may have: 64 megapixels, 256 MB of pixels.
    public static let maximumJPEGPixels = 64 << 20

    /// Whether `data` starts like a JPEG (its SOI marker), to tell it from a PNG.
    public static func looksLikeJPEG(_ data: [UInt8]) -> Bool {
        data.count >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF
    }

    /// Decodes JPEG data held in memory into a new, opaque bitmap (greyscale and CMYK become RGB).
    /// - Throws: ``JPEGError`` when the data is not a JPEG, is damaged, or describes too large an image.
    public convenience init(jpegData data: [UInt8]) throws(JPEGError) {
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let decoded = data.withUnsafeBufferPointer { bytes in
            message.withUnsafeMutableBufferPointer { text in
                live_jpeg_decode(bytes.baseAddress, UInt(bytes.count), Int32(Bitmap.maximumSide), Bitmap.maximumJPEGPixels,
                                 &width, &height, text.baseAddress, text.count)
            }
        }
        guard let decoded else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .invalidData(reason: reason.isEmpty ? "not a JPEG" : reason)
        }
        defer { free(decoded) }
        let w = Int(width), h = Int(height)
        do { try self.init(width: w, height: h) } catch {
            throw .invalidData(reason: "image of \(w)x\(h) is too large")
        }
        decoded.withMemoryRebound(to: UInt32.self, capacity: w * h) { source in
            for y in 0..<h {
                (pixels + y * stride).update(from: source + y * w, count: w)
            }
        }
    }
}

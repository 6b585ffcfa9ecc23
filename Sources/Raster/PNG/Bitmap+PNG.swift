// Bitmap+PNG: reading and writing PNG through libpng's simplified API (png_image).
//
// libpng hands out and takes straight (non-premultiplied) 8-bit sRGB in B, G, R, A byte order,
// which on little-endian is a `UInt32` 0xAARRGGBB: the same layout as our pixels except for the
// premultiplication, which is converted here in both directions.

import CPNG
#if canImport(Glibc)
import Glibc
#endif

/// Why a PNG could not be read or written.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// The data is not a PNG, or is damaged or truncated; `reason` is libpng's message.
    case invalidData(reason: String)
    /// The image's size is outside what a ``Bitmap`` accepts.
    case unsupportedSize(width: Int, height: Int)
    /// A file could not be read or written; `reason` is libpng's message.
    case fileError(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidData(reason): return "invalid PNG data: \(reason)"
        case let .unsupportedSize(w, h):
            return "PNG of \(w)x\(h) is too large: each side must be 1...\(Bitmap.maximumSide)"
        case let .fileError(path, reason): return "PNG file \(path): \(reason)"
        }
    }
}

extension Bitmap {
    /// Decodes a PNG file into a new bitmap.
    /// - Throws: ``PNGError`` when the file is missing, unreadable, not a PNG, truncated or too large.
    public convenience init(pngFile path: String) throws(PNGError) {
        try self.init(reading: PNGReader(file: path))
    }

    /// Decodes PNG data held in memory into a new bitmap.
    /// - Throws: ``PNGError`` when the data is not a PNG, is truncated or describes too large an image.
    public convenience init(pngData data: [UInt8]) throws(PNGError) {
        try self.init(reading: PNGReader(data: data))
    }

    private convenience init(reading reader: PNGReader) throws(PNGError) {
        let (width, height) = reader.size
        guard (1...Bitmap.maximumSide).contains(width), (1...Bitmap.maximumSide).contains(height) else {
            throw .unsupportedSize(width: width, height: height)
        }
        do { try self.init(width: width, height: height) } catch {
            throw .unsupportedSize(width: width, height: height)
        }
        try reader.finish(into: pixels, stride: stride)
        let all = UnsafeMutableBufferPointer(start: pixels, count: stride * height)
        for i in all.indices { all[i] = PNGCodec.premultiply(all[i]) }
    }

    /// Encodes the bitmap as a PNG file with an alpha channel, replacing any file at `path`.
    /// - Throws: ``PNGError/fileError(path:reason:)`` when the file cannot be written.
    public func writePNG(to path: String) throws(PNGError) {
        var straight = straightPixels()
        var image = pngImage()
        // Not png_image_write_to_file: when a write fails it removes the path, which deletes a
        // device or a FIFO given as the output (run as root, /dev/full itself). Only a partial
        // regular file is removed here.
        guard let file = fopen(path, "wb") else { throw .fileError(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        let isRegular = fstat(fileno(file), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        var reason: String?
        if png_image_write_to_stdio(&image, file, 0, &straight, Int32(width * 4), nil) == 0 {
            let error = errno
            reason = ferror(file) != 0 ? String(cString: strerror(error)) : PNGCodec.message(of: &image)
            png_image_free(&image)
        } else if fflush(file) != 0 || ferror(file) != 0 {
            reason = String(cString: strerror(errno))
        }
        if fclose(file) != 0, reason == nil { reason = String(cString: strerror(errno)) }
        if let reason {
            if isRegular { unlink(path) }
            throw .fileError(path: path, reason: reason)
        }
    }

    /// The bitmap encoded as PNG data with an alpha channel.
    public func pngData() throws(PNGError) -> [UInt8] {
        let straight = straightPixels()
        var image = pngImage()
        var size = 0
        // The first call measures, the second writes.
        guard png_image_write_to_memory(&image, nil, &size, 0, straight, Int32(width * 4), nil) != 0 else {
            let reason = PNGCodec.message(of: &image)
            png_image_free(&image)
            throw .invalidData(reason: reason)
        }
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { raw in
            png_image_write_to_memory(&image, raw.baseAddress, &size, 0, straight, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            let reason = PNGCodec.message(of: &image)
            png_image_free(&image)
            throw .invalidData(reason: reason)
        }
        out.removeLast(out.count - size)
        return out
    }

    private func pngImage() -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        return image
    }

    /// The pixels packed row after row with straight alpha, as libpng wants them.
    private func straightPixels() -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { out[y * width + x] = PNGCodec.unpremultiply(pixels[y * stride + x]) }
        }
        return out
    }
}

/// One read through libpng's simplified API; owns the `png_image` (and a copy of in-memory data,
/// which libpng reads until the end) and frees both when done.
final class PNGReader {
    private var image = png_image()
    private var data: UnsafeMutableRawBufferPointer?
    private let path: String?

    /// Reads the whole file first (see ``PNGFileContents``), so that an error names its cause
    /// (libpng's stdio reader says only "Read Error"), and decodes it from memory.
    init(file path: String) throws(PNGError) {
        let bytes = try PNGFileContents.read(path)
        self.path = path
        image.version = UInt32(PNG_IMAGE_VERSION)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        copy.copyBytes(from: bytes)
        data = copy
        guard png_image_begin_read_from_memory(&image, copy.baseAddress, bytes.count) != 0 else {
            throw .fileError(path: path, reason: "not a PNG image, or a damaged one (\(PNGCodec.message(of: &image)))")
        }
    }

    init(data bytes: [UInt8]) throws(PNGError) {
        path = nil
        image.version = UInt32(PNG_IMAGE_VERSION)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        copy.copyBytes(from: bytes)
        data = copy
        guard png_image_begin_read_from_memory(&image, copy.baseAddress, bytes.count) != 0 else {
            throw .invalidData(reason: PNGCodec.message(of: &image))
        }
    }

    deinit {
        png_image_free(&image)
        data?.deallocate()
    }

    var size: (width: Int, height: Int) { (Int(image.width), Int(image.height)) }

    /// Decodes the pixels as straight B, G, R, A bytes into `pixels`, rows `stride` pixels apart.
    func finish(into pixels: UnsafeMutablePointer<UInt32>, stride: Int) throws(PNGError) {
        image.format = UInt32(PNG_FORMAT_BGRA)
        guard png_image_finish_read(&image, nil, pixels, Int32(stride * 4), nil) != 0 else {
            let reason = PNGCodec.message(of: &image)
            if let path { throw .fileError(path: path, reason: "truncated or damaged PNG data (\(reason))") }
            throw .invalidData(reason: reason)
        }
    }
}

/// A file's bytes, read for decoding: only a regular file is read (a FIFO, device or socket
/// could block forever or never end), it is opened non-blocking so that the open itself cannot
/// wait for a writer, and every failure names its reason (`strerror`).
enum PNGFileContents {
    static func read(_ path: String) throws(PNGError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .fileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileError(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .fileError(path: path, reason: "not a regular file (\(kind(of: info.st_mode)))")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .fileError(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }  // shrank while being read: decode what is there
            filled += n
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return bytes
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}

/// Pixel conversions and libpng message extraction.
enum PNGCodec {
    /// Straight 0xAARRGGBB to premultiplied, rounding to nearest.
    @inline(__always)
    static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        @inline(__always) func mul(_ c: UInt32) -> UInt32 {
            let t = c * a + 128
            return (t + (t >> 8)) >> 8
        }
        return a << 24 | mul((p >> 16) & 0xFF) << 16 | mul((p >> 8) & 0xFF) << 8 | mul(p & 0xFF)
    }

    /// Premultiplied 0xAARRGGBB to straight, rounding to nearest and clamping malformed input.
    @inline(__always)
    static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        @inline(__always) func div(_ c: UInt32) -> UInt32 { min(255, (c * 255 + a / 2) / a) }
        return a << 24 | div((p >> 16) & 0xFF) << 16 | div((p >> 8) & 0xFF) << 8 | div(p & 0xFF)
    }

    /// libpng's error text from a `png_image`.
    static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}

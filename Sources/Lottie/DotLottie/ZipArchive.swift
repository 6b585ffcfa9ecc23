// ZipArchive: the files of a zip archive (a dotLottie), read from memory with bounded sizes.

import CPNG
import Foundation

/// A zip archive's files, read through its central directory.
///
/// Only what dotLottie files use: stored and deflated entries (zlib's raw inflate), no ZIP64,
/// no encryption. Every offset and size is checked against the data, entries and their sizes
/// are bounded, and inflation stops at the declared size, so a hostile archive (a zip bomb,
/// overlapping or truncated entries) ends in ``LottieError/malformed(path:reason:)``.
struct ZipArchive {
    /// The most entries an archive may list.
    static let maximumEntries = 10_000
    /// The most bytes all entries may inflate to.
    static let maximumTotalSize = LottieAnimation.maximumFileSize

    /// Entry names in the archive's order, and their contents.
    private(set) var names: [String] = []
    private var contents: [String: [UInt8]] = [:]

    subscript(name: String) -> [UInt8]? { contents[name] }

    init(data: [UInt8]) throws(LottieError) {
        func bad(_ reason: String) -> LottieError { .malformed(path: "zip", reason: reason) }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end of central directory record: the last signature within its comment's reach.
        guard data.count >= 22 else { throw bad("too short for a zip archive") }
        var end = -1
        var at = data.count - 22
        let lowest = max(0, data.count - 22 - 0xFFFF)
        while at >= lowest {
            if data[at] == 0x50, data[at + 1] == 0x4B, data[at + 2] == 0x05, data[at + 3] == 0x06 { end = at; break }
            at -= 1
        }
        guard end >= 0 else { throw bad("no end of central directory (not a zip archive, or truncated)") }
        let count = u16(end + 10), directorySize = u32(end + 12), directoryOffset = u32(end + 16)
        if count == 0xFFFF || directoryOffset == 0xFFFF_FFFF { throw bad("ZIP64 archives are not supported") }
        guard count <= Self.maximumEntries else { throw bad("\(count) entries; at most \(Self.maximumEntries)") }
        guard directoryOffset + directorySize <= end else { throw bad("the central directory lies outside the archive") }
        var total = 0
        var cursor = directoryOffset
        for index in 0..<count {
            guard cursor + 46 <= end, u32(cursor) == 0x0201_4B50 else { throw bad("central directory entry \(index) is damaged") }
            let flags = u16(cursor + 8), method = u16(cursor + 10)
            let checksum = u32(cursor + 16), compressed = u32(cursor + 20), size = u32(cursor + 24)
            let nameLength = u16(cursor + 28), extraLength = u16(cursor + 30), commentLength = u16(cursor + 32)
            let local = u32(cursor + 42)
            guard cursor + 46 + nameLength <= end else { throw bad("central directory entry \(index) is damaged") }
            let name = String(decoding: data[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            cursor += 46 + nameLength + extraLength + commentLength
            if name.hasSuffix("/") { continue }  // a folder
            guard flags & 1 == 0 else { throw bad("'\(name)' is encrypted") }
            guard compressed != 0xFFFF_FFFF, size != 0xFFFF_FFFF else { throw bad("ZIP64 archives are not supported") }
            total += size
            guard total <= Self.maximumTotalSize else { throw bad("the files inflate to more than \(Self.maximumTotalSize >> 20) MB") }
            guard local + 30 <= data.count, u32(local) == 0x0403_4B50 else { throw bad("'\(name)' has no local header where the directory says") }
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            guard start + compressed <= data.count else { throw bad("'\(name)' runs past the end of the archive") }
            let stored = data[start..<(start + compressed)]
            let bytes: [UInt8]
            switch method {
            case 0:
                guard compressed == size else { throw bad("'\(name)' is stored with two different sizes") }
                bytes = Array(stored)
            case 8:
                bytes = try Self.inflate(stored, size: size, name: name)
            default:
                throw bad("'\(name)' uses compression method \(method) (only stored and deflate)")
            }
            let actual = bytes.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, UInt32($0.count))) }
            guard actual == checksum else { throw bad("'\(name)' is damaged (its CRC-32 does not match)") }
            names.append(name)
            contents[name] = bytes
        }
    }

    /// Inflates raw deflate data to exactly `size` bytes: more or fewer is damage.
    private static func inflate(_ input: ArraySlice<UInt8>, size: Int, name: String) throws(LottieError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size)
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .malformed(path: "zip", reason: "zlib could not start inflating '\(name)'")
        }
        defer { inflateEnd(&stream) }
        var status: Int32 = Z_OK
        var produced = 0
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                // zlib never writes to its input; its API just is not const.
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                // One byte of room past the end would tell a longer stream: instead, a stream that
                // has not ended when the output is full is too long.
                status = CPNG.inflate(&stream, Z_FINISH)
                produced = target.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END, produced == size else {
            let why = status == Z_DATA_ERROR ? "damaged deflate data" : status == Z_STREAM_END ? "shorter than its declared \(size) bytes" : "longer than its declared \(size) bytes, or truncated"
            throw .malformed(path: "zip", reason: "'\(name)': \(why)")
        }
        return output
    }
}

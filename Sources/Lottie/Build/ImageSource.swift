// ImageSource: where an animation's images come from (data URLs, files beside the JSON, a dotLottie's zip), PNG or JPEG.

import Foundation
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Finds and decodes the image of an asset: a base64 data URL, a file in the JSON's folder, or
/// an entry of the dotLottie archive it came in. PNG and JPEG are told apart by their bytes.
struct ImageSource: Sendable {
    /// The folder of the JSON file, for images referenced by file name.
    var directory: String?
    /// A dotLottie's files by their path in the archive.
    var archive: [String: [UInt8]] = [:]

    /// The largest image file read, in bytes.
    static let maximumFileSize = 64 << 20

    func bitmap(folder: String, file: String) -> Bitmap? {
        if file.hasPrefix("data:") {
            guard let comma = file.firstIndex(of: ","), file[..<comma].hasSuffix(";base64"),
                  let data = Data(base64Encoded: String(file[file.index(after: comma)...]), options: .ignoreUnknownCharacters)
            else { return nil }
            return Self.decode([UInt8](data))
        }
        guard !file.isEmpty else { return nil }
        if !archive.isEmpty {
            // dotLottie: `u` is "/images/" (v1) or "/i/" (v2), relative to the archive's root.
            var path = folder + file
            while path.hasPrefix("/") { path.removeFirst() }
            for candidate in [path, "images/" + file, "i/" + file] {
                if let bytes = archive[candidate] { return Self.decode(bytes) }
            }
            return nil
        }
        guard let directory else { return nil }
        return Self.readFile(directory + "/" + folder + file).flatMap(Self.decode)
    }

    /// PNG or JPEG, by the bytes.
    static func decode(_ bytes: [UInt8]) -> Bitmap? {
        if Bitmap.looksLikeJPEG(bytes) { return try? Bitmap(jpegData: bytes) }
        return try? Bitmap(pngData: bytes)
    }

    /// A regular file's bytes, up to ``maximumFileSize`` (a FIFO or device is never opened for reading).
    private static func readFile(_ path: String) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= maximumFileSize,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }
}

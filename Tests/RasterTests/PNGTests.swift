import Foundation
@testable import Raster
import Testing

@Suite struct PNGTests {
    /// A bitmap with opaque, translucent and transparent pixels, all valid premultiplied values.
    static func sample() throws -> Bitmap {
        let b = try Bitmap(width: 37, height: 11)
        for y in 0..<b.height {
            for x in 0..<b.width {
                let a = UInt32((x * 7 + y * 29) % 256)
                let straight = a << 24 | UInt32(x * 6) << 16 | UInt32(y * 23) << 8 | UInt32((x * y) % 256)
                b[x, y] = PNGCodec.premultiply(straight)
            }
        }
        return b
    }

    @Test func roundTripsThroughMemory() throws {
        let original = try Self.sample()
        let data = try original.pngData()
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let decoded = try Bitmap(pngData: data)
        #expect(decoded.hasSamePixels(as: original))
    }

    @Test func roundTripsThroughAFile() throws {
        let original = try Self.sample()
        let path = NSTemporaryDirectory() + "raster-png-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try original.writePNG(to: path)
        #expect(try Bitmap(pngFile: path).hasSamePixels(as: original))
    }

    @Test func premultiplicationConvertsBothWays() {
        #expect(PNGCodec.premultiply(0x80FF_0000) == 0x8080_0000)
        #expect(PNGCodec.unpremultiply(0x8080_0000) == 0x80FF_0000)
        #expect(PNGCodec.premultiply(0x00FF_FFFF) == 0)
        // A malformed premultiplied pixel (colour above alpha) clamps rather than overflowing.
        #expect(PNGCodec.unpremultiply(0x10FF_FFFF) == 0x10FF_FFFF)
    }

    @Test func truncatedDataIsAnError() throws {
        let data = try Self.sample().pngData()
        for length in [0, 8, 20, 40, data.count / 2, data.count - 13] {
            #expect(throws: PNGError.self) { try Bitmap(pngData: Array(data.prefix(length))) }
        }
    }

    @Test func garbageIsAnError() {
        var rng = SplitMix64(seed: 0x5EED)
        let garbage = (0..<500).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        #expect(throws: PNGError.self) { try Bitmap(pngData: garbage) }
        // A valid signature followed by garbage.
        #expect(throws: PNGError.self) { try Bitmap(pngData: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + garbage) }
    }

    @Test func missingOrUnwritablePathsAreErrors() throws {
        #expect(throws: PNGError.self) { try Bitmap(pngFile: "/nonexistent/nothing.png") }
        #expect(throws: PNGError.self) { try Self.sample().writePNG(to: "/nonexistent-dir/out.png") }
    }

    /// Reading names the file and the cause; a FIFO is refused at once instead of blocking.
    @Test func readErrorsSayWhy() throws {
        let folder = NSTemporaryDirectory() + "png-read-errors-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo.png", 0o600) == 0)
        #expect(throws: PNGError.fileError(path: folder + "/fifo.png", reason: "not a regular file (a FIFO)")) { try Bitmap(pngFile: folder + "/fifo.png") }
        #expect(throws: PNGError.fileError(path: folder, reason: "not a regular file (a directory)")) { try Bitmap(pngFile: folder) }
        #expect(throws: PNGError.fileError(path: folder + "/none.png", reason: "No such file or directory")) { try Bitmap(pngFile: folder + "/none.png") }
        let whole = try Self.sample().pngData()
        try Data(whole.prefix(whole.count - 20)).write(to: URL(fileURLWithPath: folder + "/cut.png"))
        do {
            _ = try Bitmap(pngFile: folder + "/cut.png")
            Issue.record("a truncated PNG was read")
        } catch {
            #expect(error.description.contains("cut.png") && error.description.contains("truncated"), "\(error)")
        }
    }
}

/// A small seeded generator (SplitMix64) so randomized tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

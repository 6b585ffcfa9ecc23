// RasterTestSupport: golden-image comparison shared by every test target.
//
// Workflow (after vello's check_ref and ArgumentParser's assertSnapshot):
// - goldens are PNGs in the test target's `Goldens` folder (copied as a resource, and read from
//   the source tree first so a freshly recorded golden is used without a rebuild);
// - a missing golden is recorded and the test fails with "recorded new golden";
// - `RECORD_GOLDENS=1` re-records every golden a run touches (the test still fails, so a
//   re-record is never mistaken for a pass);
// - on a mismatch, `expected | diff | actual` side by side goes to `.build/golden-diffs/NAME.png`
//   in the package (gitignored), and the failure states the largest per-channel difference and
//   how many pixels differ.

import Foundation
import Raster
import Testing

/// How far a pixel may differ from its golden before the test fails.
public enum GoldenTolerance {
    /// Bit-identical pixels.
    public static let exact = 0
    /// The default: each premultiplied channel (A, R, G, B, in 0...255) of each pixel may differ
    /// by at most 1 from the golden, which absorbs one rounding step (float order of operations,
    /// SIMD against scalar) and nothing visible.
    public static let `default` = 1
}

/// The result of comparing two bitmaps channel by channel.
public struct ImageDifference: Sendable, Equatable {
    /// The largest absolute difference of any premultiplied channel of any pixel (0...255).
    public var maximumChannelDifference: Int
    /// How many pixels have a channel differing by more than the tolerance.
    public var differingPixels: Int
}

/// Compares two bitmaps of the same size; `nil` when the sizes differ.
public func difference(_ a: Bitmap, _ b: Bitmap, tolerance: Int) -> ImageDifference? {
    guard a.width == b.width, a.height == b.height else { return nil }
    var result = ImageDifference(maximumChannelDifference: 0, differingPixels: 0)
    for y in 0..<a.height {
        for x in 0..<a.width {
            let d = channelDifference(a[x, y], b[x, y])
            result.maximumChannelDifference = max(result.maximumChannelDifference, d)
            if d > tolerance { result.differingPixels += 1 }
        }
    }
    return result
}

/// The largest absolute difference between the four channels of two pixels.
public func channelDifference(_ p: UInt32, _ q: UInt32) -> Int {
    var m = 0
    for shift in stride(from: 0, through: 24, by: 8) {
        m = max(m, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
    }
    return m
}

/// Checks `bitmap` against the golden PNG `name`.png of the test target that `filePath` is in.
///
/// - Parameters:
///   - name: the golden's file name without `.png`.
///   - bundle: the test target's resource bundle (`Bundle.module`), read when the source tree's
///     `Goldens` folder is not available.
///   - tolerance: the largest per-channel difference accepted; see ``GoldenTolerance``.
public func assertMatchesGolden(
    _ bitmap: Bitmap,
    named name: String,
    in bundle: Bundle? = nil,
    tolerance: Int = GoldenTolerance.default,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let sourceFolder = goldensFolder(near: filePath)
    let sourceURL = sourceFolder.map { $0.appendingPathComponent(name + ".png") }
    let bundleURL = bundle?.resourceURL?.appendingPathComponent("Goldens/\(name).png")
    let record = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"

    let existing = [sourceURL, bundleURL].compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0.path) }
    guard !record, let existing else {
        guard let sourceURL else {
            Issue.record("no Goldens folder found near \(filePath)", sourceLocation: sourceLocation)
            return
        }
        do {
            try bitmap.writePNG(to: sourceURL.path)
            Issue.record("recorded new golden \(sourceURL.path)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("could not record golden \(sourceURL.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    let expected: Bitmap
    do { expected = try Bitmap(pngFile: existing.path) } catch {
        Issue.record("could not read golden \(existing.path): \(error)", sourceLocation: sourceLocation)
        return
    }
    guard let diff = difference(expected, bitmap, tolerance: tolerance) else {
        let diffPath = writeDiff(expected: expected, actual: bitmap, name: name, filePath: filePath)
        Issue.record("""
            golden \(name): size \(bitmap.width)x\(bitmap.height) differs from the golden's \
            \(expected.width)x\(expected.height); images in \(diffPath ?? "(not written)")
            """, sourceLocation: sourceLocation)
        return
    }
    guard diff.differingPixels == 0 else {
        let diffPath = writeDiff(expected: expected, actual: bitmap, name: name, filePath: filePath)
        Issue.record("""
            golden \(name): \(diff.differingPixels) pixels differ by more than \(tolerance); \
            max per-channel difference \(diff.maximumChannelDifference); \
            expected|diff|actual in \(diffPath ?? "(not written)")
            """, sourceLocation: sourceLocation)
        return
    }
}

/// The `Goldens` folder of the test target holding `filePath`: the nearest ancestor folder that has one.
func goldensFolder(near filePath: String) -> URL? {
    var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("Goldens")
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), isDir.boolValue { return candidate }
        if dir.lastPathComponent == "Tests" { break }
        dir.deleteLastPathComponent()
    }
    return nil
}

/// Writes `expected | diff | actual` side by side into `<package>/.build/golden-diffs/NAME.png`.
/// The diff panel is red where a channel differs (brighter for larger differences), else a dim
/// grey copy of the expected image.
func writeDiff(expected: Bitmap, actual: Bitmap, name: String, filePath: String) -> String? {
    var root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while root.path != "/" && root.lastPathComponent != "Tests" { root.deleteLastPathComponent() }
    let folder = (root.path == "/" ? URL(fileURLWithPath: NSTemporaryDirectory()) : root.deletingLastPathComponent())
        .appendingPathComponent(".build/golden-diffs")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let w = max(expected.width, actual.width), h = max(expected.height, actual.height)
    guard let sheet = try? Bitmap(width: min(Bitmap.maximumSide, w * 3), height: h) else { return nil }
    sheet.copy(from: expected, toX: 0, y: 0)
    sheet.copy(from: actual, toX: 2 * w, y: 0)
    for y in 0..<h {
        for x in 0..<w {
            let d = channelDifference(expected[x, y], actual[x, y])
            if d > 0 {
                sheet[w + x, y] = 0xFF00_0000 | UInt32(min(255, 96 + d * 4)) << 16
            } else {
                let p = expected[x, y]
                let grey = (((p >> 16) & 0xFF) + ((p >> 8) & 0xFF) + (p & 0xFF)) / 12
                sheet[w + x, y] = 0xFF00_0000 | grey << 16 | grey << 8 | grey
            }
        }
    }
    let path = folder.appendingPathComponent(name + ".png").path
    do { try sheet.writePNG(to: path) } catch { return nil }
    return path
}

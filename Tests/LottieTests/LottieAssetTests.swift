// LottieAssetTests: JPEG images and dotLottie archives, and hostile archives refused cleanly.

import Foundation
import LiveLayers
import Lottie
import Raster
import Testing

@MainActor
private func render(_ animation: LottieAnimation, frame: Double = 0) throws -> Bitmap {
    let root = try animation.makeLayer()
    root.currentFrame = frame
    let bitmap = try Bitmap(width: Int(root.bounds.width), height: Int(root.bounds.height))
    _ = LayerRenderer().render(root, at: LayerClock.currentTime, into: bitmap)
    return bitmap
}

/// Whether `pixel` is opaque and each channel within `tolerance` of `rgb`.
private func near(_ pixel: UInt32, _ rgb: UInt32, tolerance: Int) -> Bool {
    guard pixel >> 24 == 0xFF else { return false }
    return [16, 8, 0].allSatisfy { shift in abs(Int((pixel >> shift) & 0xFF) - Int((rgb >> UInt32(shift)) & 0xFF)) <= tolerance }
}

@Suite("Lottie images and dotLottie")
@MainActor
struct LottieAssetTests {
    /// A 16x8 JPEG, left half red, right half blue (the same as RasterTests' JPEGTests.redBlue).
    static let jpegBase64 = """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/\
        2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAIABADAREAAhEBAxEB/8QAFAAB\
        AAAAAAAAAAAAAAAAAAAACP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAWAQEBAQAAAAAAAAAAAAAAAAAKCAn/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIR\
        AxEAPwAXpTb+CGVQNe//2Q==
        """

    /// A dotLottie made with Python's zipfile (deflated): manifest.json naming animation
    /// "square", animations/square.json (40x20: a red 20x20 solid at the left, and a 4x4 green
    /// PNG from images/img_0.png scaled 5x at x 20), and the PNG.
    static let dotLottie = [UInt8](Data(base64Encoded: """
        UEsDBBQAAAAIABF7d10Mf7slSQAAAFUAAAANAAAAbWFuaWZlc3QuanNvbhXKMQ6AMAhA0as0zC6uXsU4kEgMiUIF6tL07pb1/d/hI3NWga3ACkuBi4QMQy0lyCMR\
        hR+MufnUvQOfWf1taJT9Vq1TwhqNY/xQSwMEFAAAAAgAEXt3XaePRE/EAAAAYQEAABYAAABhbmltYXRpb25zL3NxdWFyZS5qc29udZB9CoMwDMXvkv1btMpk0BvsDEOG\
        uOrK/CimTkR69z2tg22wQhuS/vJe2oWepCiLTpEkQdVAKpGCjCWF0NuQTqSOCHdSKULBrB2Tuixkbmg2bX1dm1dqg3COqMemLWrNMa7sG4tsVyPXkPe5oKaY9RCk3Ax1\
        QV0L1JrSjYMGaDo4JIIGXZ0/vX4GZLelD0gtq9lCRShAGiPL3IP5LmdSCuzcey+Ce7K7c9/gXbt3+s+LS6CHqpJYgHkKn8P7J22jeJ/7F1BLAwQUAAAACAAPe3ddJYKZ\
        oOMAAAAUAQAAEAAAAGltYWdlcy9pbWdfMC5wbmfrDPBz5+WS4mJgYOD19HAJAtIsIMzIDCQn2/PYgjjpjr6ODAwb+7n/JLIC+QrJHkG+DAxVagwMDS0MDL+AQg0vGBhK\
        DRgYXiUwMFjNYGAQL5izK9AGKMEW4BPiyvCf4f////l7IwKBIoxJ3u4ujP+ZdO8BOewlnr6u7K+4xfkl5I9GyT0CCnF7ujiGcFxPTmgAcjgYGPUV7hoCWaolrhElKYkl\
        qVbJRalAisHIwMhM19BQ18g4xNDUysjEythQ28DAysDghPOTCygacvNTMtMqcWvYKReTA9TA4Onq57LOKaEJAFBLAQIUAxQAAAAIABF7d10Mf7slSQAAAFUAAAANAAAA\
        AAAAAAAAAACAAQAAAABtYW5pZmVzdC5qc29uUEsBAhQDFAAAAAgAEXt3XaePRE/EAAAAYQEAABYAAAAAAAAAAAAAAIABdAAAAGFuaW1hdGlvbnMvc3F1YXJlLmpzb25Q\
        SwECFAMUAAAACAAPe3ddJYKZoOMAAAAUAQAAEAAAAAAAAAAAAAAApIFsAQAAaW1hZ2VzL2ltZ18wLnBuZ1BLBQYAAAAAAwADAL0AAAB9AgAAAAA=
        """)!)

    @Test func jpegDataURLImagesAreDrawn() throws {
        let json = """
        {"v":"5.7.0","fr":10,"ip":0,"op":10,"w":16,"h":8,
         "assets":[{"id":"photo","w":16,"h":8,"u":"","p":"data:image/jpeg;base64,\(Self.jpegBase64)","e":1}],
         "layers":[{"ty":2,"nm":"photo","ind":1,"refId":"photo","ip":0,"op":10,"st":0,"ks":{}}]}
        """
        let image = try render(LottieAnimation(json: Data(json.utf8)))
        #expect(near(image[2, 4], 0xFF0000, tolerance: 24), "\(String(image[2, 4], radix: 16))")
        #expect(near(image[13, 4], 0x0000FF, tolerance: 24), "\(String(image[13, 4], radix: 16))")
    }

    @Test func jpegFilesBesideTheJSONAreDrawn() throws {
        let folder = NSTemporaryDirectory() + "lottie-jpeg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/images", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(base64Encoded: Self.jpegBase64)!.write(to: URL(fileURLWithPath: folder + "/images/photo.jpg"))
        let json = """
        {"v":"5.7.0","fr":10,"ip":0,"op":10,"w":16,"h":8,"assets":[{"id":"photo","w":16,"h":8,"u":"images/","p":"photo.jpg"}],
         "layers":[{"ty":2,"nm":"photo","ind":1,"refId":"photo","ip":0,"op":10,"st":0,"ks":{}}]}
        """
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/anim.json"))
        let image = try render(LottieAnimation(contentsOfFile: folder + "/anim.json"))
        #expect(near(image[2, 4], 0xFF0000, tolerance: 24))
        #expect(near(image[13, 4], 0x0000FF, tolerance: 24))
    }

    @Test func dotLottieArchivesPlayTheirAnimationWithItsImages() throws {
        let animation = try LottieAnimation(dotLottie: Data(Self.dotLottie))
        #expect(animation.size == Size(width: 40, height: 20))
        let image = try render(animation)
        #expect(image[10, 10] == 0xFFFF_0000)  // the solid
        #expect(image[30, 10] == 0xFF00_FF00)  // the PNG from images/, scaled 5x
        // The same file read from disk is told by its zip signature, whatever its name.
        let path = NSTemporaryDirectory() + "lottie-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).lottie"
        try Data(Self.dotLottie).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try LottieAnimation(contentsOfFile: path).size == Size(width: 40, height: 20))
        // Damaged past its signature, a .lottie is called a bad archive, not bad JSON.
        try Data([0x13, 0x37] + Self.dotLottie.dropFirst(4)).write(to: URL(fileURLWithPath: path))
        #expect {
            try LottieAnimation(contentsOfFile: path)
        } throws: { error in
            guard case let LottieError.malformed(at, reason) = error else { return false }
            return at == "zip" && reason.contains("zip signature") && "\(error)".hasPrefix("malformed dotLottie archive at zip")
        }
    }

    /// dotLottie 2's layout: `a/ID.json` and images in `i/` (here the red/blue JPEG, scaled to
    /// 20x20 at x 20).
    @Test func dotLottieVersion2ArchivesWithJPEGImages() throws {
        let archive = [UInt8](Data(base64Encoded: """
            UEsDBBQAAAAIANqEd12BMe1vOwAAAEIAAAANAAAAbWFuaWZlc3QuanNvbqtWKkstKs7Mz1OyUlAyUtJRUEpPzUstSizJLwKJlKQWl4AEE/MycxNLgMqKgaLR\
            1UqZKSDZCqXa2FoAUEsDBBQAAAAIANqEd112essgoAAAAAIBAAAIAAAAYS94Lmpzb25djlEKwjAQRO8y36FtilXJDTyDFCma1qjVkKRKCbm70xZB/Rpm9u3s\
            RjyhUGWbrIBA66BkIWAsFOVhF/uCWlHOUCWl8V4HD7WPMCcum747TMuk5HqmtgIDB7nJGdsPkl1sR69ZnWqBWzNqt9SEkc0C956oNccwOE3Q3NkuBZxud993\
            /p7zYbZXVsXpWESzBKzmu0WdyPzGsqxEWXGSUp3eUEsDBBQAAAAIAA57d13/9uHllgAAACQBAAALAAAAaS9pbWdfMC5qcGeVj70NAjEMhZ/j/Di5FBcJwSTQ\
            UiCdBBVLMBp7UDAEBw0bsAEhhuqg4otsOU/PdlIv9Y5+N2wHEAHUDuoNGxhSNBvFsmZnLVvvvH9HiNIieC+dxKS0Kncp60WHfFqNY3Yp+JD+pp5QBIKeqcAU\
            4kL1jJk+coKo2n+raOpcfzERk0R1l1/3FZmpreGCNRbH1VMO++Wjji9QSwECFAMUAAAACADahHddgTHtbzsAAABCAAAADQAAAAAAAAAAAAAAgAEAAAAAbWFu\
            aWZlc3QuanNvblBLAQIUAxQAAAAIANqEd112essgoAAAAAIBAAAIAAAAAAAAAAAAAACAAWYAAABhL3guanNvblBLAQIUAxQAAAAIAA57d13/9uHllgAAACQB\
            AAALAAAAAAAAAAAAAACkgSwBAABpL2ltZ18wLmpwZ1BLBQYAAAAAAwADAKoAAADrAQAAAAA=
            """)!)
        let image = try render(LottieAnimation(dotLottie: Data(archive)))
        #expect(near(image[24, 10], 0xFF0000, tolerance: 24), "\(String(image[24, 10], radix: 16))")
        #expect(near(image[36, 10], 0x0000FF, tolerance: 24), "\(String(image[36, 10], radix: 16))")
        #expect(image[10, 10] == 0)
    }

    /// Damaged and hostile archives end in `malformed` errors that say what is wrong: never a
    /// trap, a hang or an allocation of the size a header claims.
    @Test func hostileArchivesAreClearErrors() throws {
        let good = Self.dotLottie
        func reason(_ bytes: [UInt8]) -> String? {
            do {
                _ = try LottieAnimation(dotLottie: Data(bytes))
                return nil
            } catch {
                guard case let .malformed(path, reason) = error else { return "\(error)" }
                return "\(path): \(reason)"
            }
        }
        func u32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
            for i in 0..<4 { bytes[offset + i] = UInt8((value >> (8 * UInt32(i))) & 0xFF) }
        }
        func isEnd(_ i: Int) -> Bool { good[i] == 0x50 && good[i + 1] == 0x4B && good[i + 2] == 5 && good[i + 3] == 6 }
        let end = try #require((0...(good.count - 22)).last(where: isEnd))
        let directory = Int(good[end + 16]) | Int(good[end + 17]) << 8

        #expect(reason(Array(good.prefix(good.count - 30)))?.contains("no end of central directory") == true)
        #expect(reason([UInt8](repeating: 0x50, count: 100))?.contains("zip") == true)
        var outside = good
        u32(0xFFFF_FF00, at: end + 16, in: &outside)  // the directory far past the end
        #expect(reason(outside)?.contains("outside the archive") == true)
        var bomb = good
        u32(0x7FFF_FFFF, at: directory + 24, in: &bomb)  // manifest.json claims 2 GB inflated
        #expect(reason(bomb)?.contains("more than") == true, "\(reason(bomb) ?? "no error")")
        var lying = good
        u32(10, at: directory + 24, in: &lying)  // claims 10 bytes: the stream is longer
        #expect(reason(lying)?.contains("longer than its declared") == true, "\(reason(lying) ?? "no error")")
        var misplaced = good
        u32(UInt32(good.count - 10), at: directory + 42, in: &misplaced)  // local header past the data
        #expect(reason(misplaced)?.contains("no local header") == true)
        var corrupt = good
        for i in 60..<90 { corrupt[i] ^= 0x5A }  // inside manifest.json's deflate stream
        #expect(reason(corrupt) != nil)
        // Every truncation is an error or a playable file, never a crash.
        for length in stride(from: 0, to: good.count, by: 7) { _ = reason(Array(good.prefix(length))) }
    }
}

// PlayCommandTests: `live-player play FILE.json` headless: fitted, centred, transparent, and its errors.

import Foundation
import Raster
import Testing

@Suite struct PlayCommandTests {
    /// A 100x50 composition at 10 fps whose red 20x20 square moves from x 20 to 80 over frames 0...10.
    static let json = """
    {"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":50,"layers":[{"ty":4,"nm":"square","ind":1,"ip":0,"op":20,"st":0,
     "ks":{"p":{"a":1,"k":[{"t":0,"s":[20,25],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[80,25]}]}},
     "shapes":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},
               {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]},
     {"ty":5,"nm":"Caption","ind":2,"ip":0,"op":20,"ks":{}}]}
    """

    private func withFile(_ text: String, _ body: (String) throws -> Void) throws {
        let path = PlayerProcess.temporaryPath("anim.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test func rendersTheFrameAtATimeFittedAndCentredOnTransparency() throws {
        try withFile(Self.json) { file in
            let shot = PlayerProcess.temporaryPath("shot.png")
            defer { try? FileManager.default.removeItem(atPath: shot) }
            // Frame 5 (0.5 s at 10 fps): the square's centre at (50, 25); at 200x200 the
            // composition is scaled 2x and centred vertically (offset 50).
            let result = try PlayerProcess.run(["play", file, "--headless", "--no-overlay", "--at", "0.5", "--size", "200x200", "--screenshot", shot])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("text layers without a document (layer 'Caption')"))
            let image = try Bitmap(pngFile: shot)
            #expect(image.width == 200 && image.height == 200)
            #expect(image[100, 100] == 0xFFFF_0000)
            #expect(image[40, 100] == 0)     // where the square started: transparent now
            #expect(image[100, 20] == 0)     // above the fitted composition
        }
    }

    @Test func backgroundFillsWhereNothingIsDrawn() throws {
        try withFile(Self.json) { file in
            let shot = PlayerProcess.temporaryPath("bg.png")
            defer { try? FileManager.default.removeItem(atPath: shot) }
            let result = try PlayerProcess.run(["play", file, "--headless", "--no-overlay", "--at", "0", "--background", "#0000ff", "--screenshot", shot])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let image = try Bitmap(pngFile: shot)
            #expect(image.width == 100 && image.height == 50)  // native size
            #expect(image[90, 5] == 0xFF00_00FF)
            #expect(image[20, 25] == 0xFFFF_0000)
        }
    }

    /// Without --frames, a headless run plays the animation once and ends on its last frame:
    /// 20 frames at 10 fps are 2 s, 120 frames at 60 fps (not the 12 s cap's 720).
    @Test func aHeadlessRunEndsAtTheOutPoint() throws {
        try withFile(Self.json) { file in
            let shot = PlayerProcess.temporaryPath("end.png")
            defer { try? FileManager.default.removeItem(atPath: shot) }
            let result = try PlayerProcess.run(["play", file, "--headless", "--no-overlay", "--fps", "60", "--screenshot", shot])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let summary = try #require(RunSummary(in: result.stdout), "\(result.stdout)")
            #expect((120...122).contains(summary.frames), "\(result.stdout)")
            // The last frame: the square has arrived at x 80 (it starts at 20).
            let image = try Bitmap(pngFile: shot)
            #expect(image[80, 25] == 0xFFFF_0000)
            #expect(image[20, 25] == 0)
        }
        // With --frames the animation loops for as many frames as asked.
        try withFile(Self.json) { file in
            let result = try PlayerProcess.run(["play", file, "--headless", "--no-overlay", "--fps", "60", "--frames", "300"])
            #expect(RunSummary(in: result.stdout)?.frames == 300, "\(result.stdout)")
        }
    }

    @Test func malformedFilesExitWith65AndTheJSONPath() throws {
        try withFile(Self.json.replacingOccurrences(of: #""w":100"#, with: #""w":"wide""#)) { file in
            let result = try PlayerProcess.run(["play", file, "--headless", "--at", "0"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("$.w"), "stderr: \(result.stderr)")
        }
        try withFile("{not json") { file in
            let result = try PlayerProcess.run(["play", file, "--headless", "--at", "0"])
            #expect(result.status == 65, "stderr: \(result.stderr)")
        }
    }

    /// A dotLottie plays like its JSON: the archive of LottieAssetTests (a red solid at the left
    /// of a 40x20 composition, a green PNG from the archive at the right).
    @Test func dotLottieFilesPlay() throws {
        let archive = "UEsDBBQAAAAIABF7d10Mf7slSQAAAFUAAAANAAAAbWFuaWZlc3QuanNvbhXKMQ6AMAhA0as0zC6uXsU4kEgMiUIF6tL07pb1/d/hI3NWga3ACkuBi4QMQy0lyCMR"
            + "hR+MufnUvQOfWf1taJT9Vq1TwhqNY/xQSwMEFAAAAAgAEXt3XaePRE/EAAAAYQEAABYAAABhbmltYXRpb25zL3NxdWFyZS5qc29udZB9CoMwDMXvkv1btMpk0BvsDEOG"
            + "uOrK/CimTkR69z2tg22wQhuS/vJe2oWepCiLTpEkQdVAKpGCjCWF0NuQTqSOCHdSKULBrB2Tuixkbmg2bX1dm1dqg3COqMemLWrNMa7sG4tsVyPXkPe5oKaY9RCk3Ax1"
            + "QV0L1JrSjYMGaDo4JIIGXZ0/vX4GZLelD0gtq9lCRShAGiPL3IP5LmdSCuzcey+Ce7K7c9/gXbt3+s+LS6CHqpJYgHkKn8P7J22jeJ/7F1BLAwQUAAAACAAPe3ddJYKZ"
            + "oOMAAAAUAQAAEAAAAGltYWdlcy9pbWdfMC5wbmfrDPBz5+WS4mJgYOD19HAJAtIsIMzIDCQn2/PYgjjpjr6ODAwb+7n/JLIC+QrJHkG+DAxVagwMDS0MDL+AQg0vGBhK"
            + "DRgYXiUwMFjNYGAQL5izK9AGKMEW4BPiyvCf4f////l7IwKBIoxJ3u4ujP+ZdO8BOewlnr6u7K+4xfkl5I9GyT0CCnF7ujiGcFxPTmgAcjgYGPUV7hoCWaolrhElKYkl"
            + "qVbJRalAisHIwMhM19BQ18g4xNDUysjEythQ28DAysDghPOTCygacvNTMtMqcWvYKReTA9TA4Onq57LOKaEJAFBLAQIUAxQAAAAIABF7d10Mf7slSQAAAFUAAAANAAAA"
            + "AAAAAAAAAACAAQAAAABtYW5pZmVzdC5qc29uUEsBAhQDFAAAAAgAEXt3XaePRE/EAAAAYQEAABYAAAAAAAAAAAAAAIABdAAAAGFuaW1hdGlvbnMvc3F1YXJlLmpzb25Q"
            + "SwECFAMUAAAACAAPe3ddJYKZoOMAAAAUAQAAEAAAAAAAAAAAAAAApIFsAQAAaW1hZ2VzL2ltZ18wLnBuZ1BLBQYAAAAAAwADAL0AAAB9AgAAAAA="
        let path = PlayerProcess.temporaryPath("anim.lottie"), shot = PlayerProcess.temporaryPath("lottie.png")
        try Data(base64Encoded: archive)!.write(to: URL(fileURLWithPath: path))
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: shot)
        }
        let result = try PlayerProcess.run(["play", path, "--headless", "--no-overlay", "--at", "0", "--size", "80x40", "--screenshot", shot])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let image = try Bitmap(pngFile: shot)
        #expect(image[20, 20] == 0xFFFF_0000 && image[60, 20] == 0xFF00_FF00)
    }

    /// A damaged dotLottie (here: cut short, so the zip has no central directory) exits 65 and says why.
    @Test func aDamagedDotLottieExitsWith65() throws {
        let path = PlayerProcess.temporaryPath("broken.lottie")
        try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 200)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try PlayerProcess.run(["play", path, "--headless", "--at", "0"])
        #expect(result.status == 65, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("no end of central directory"), "stderr: \(result.stderr)")
    }

    @Test func missingFileOrArgument() throws {
        let missing = try PlayerProcess.run(["play", "/nonexistent/anim.json", "--headless"])
        #expect(missing.status == 64 && missing.stderr.contains("cannot read"))
        let none = try PlayerProcess.run(["play", "--headless"])
        #expect(none.status == 64 && none.stderr.contains("play needs a Lottie file"))
    }
}

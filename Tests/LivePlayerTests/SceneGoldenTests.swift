import Foundation
import Raster
import RasterTestSupport
import Testing

/// Every scene rendered by the player itself (`--headless --at T --screenshot`), against goldens.
/// `--at` is exact and the virtual clock deterministic, so the tolerance only absorbs rounding.
@Suite struct SceneGoldenTests {
    static let cases: [(scene: String, size: String, at: Double)] = [
        ("arrow", "240x240", 0.5), ("arrow", "240x240", 1.5), ("arrow", "240x240", 3.5),
        ("line", "320x240", 2.0), ("rays", "320x240", 3.0), ("orbit", "320x240", 0.5),
        ("pk", "320x240", 1.5), ("fillmodes", "320x240", 1.5), ("fillmodes", "320x240", 9.0),
        ("gallery", "320x240", 1.5),
    ]

    @Test(arguments: cases.indices)
    func sceneMatchesGolden(_ index: Int) throws {
        let c = Self.cases[index]
        let path = PlayerProcess.temporaryPath("\(c.scene).png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try PlayerProcess.run([c.scene, "--headless", "--size", c.size, "--at", "\(c.at)", "--screenshot", path])
        try #require(result.status == 0, "\(result.stderr)")
        let frame = try Bitmap(pngFile: path)
        assertMatchesGolden(frame, named: "\(c.scene)-\(c.size)-at-\(c.at)", in: Bundle.module, tolerance: 2)
    }

    @Test func sameTimeSamePixels() throws {
        let a = PlayerProcess.temporaryPath("a.png"), b = PlayerProcess.temporaryPath("b.png")
        defer { for p in [a, b] { try? FileManager.default.removeItem(atPath: p) } }
        for path in [a, b] {
            let result = try PlayerProcess.run(["orbit", "--headless", "--size", "200x150", "--at", "0.37", "--screenshot", path])
            try #require(result.status == 0)
        }
        #expect(try Bitmap(pngFile: a).hasSamePixels(as: Bitmap(pngFile: b)))
    }
}

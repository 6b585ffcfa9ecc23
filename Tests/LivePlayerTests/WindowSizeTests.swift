import Foundation
import Raster
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport

private let server = WindowHarness.Server()

/// Issue 11, defect 3: every size the server accepts renders or is clamped, never traps or
/// goes blank. A frame is at most 16384 pixels a side; a larger window shows its top-left part.
@Suite(.serialized) struct WindowSizeTests {
    let harness: WindowHarness
    init() throws { harness = try WindowHarness(server) }

    static let pkBackground: UInt32 = 0xFFFA_FAFA

    /// The part beyond the screen cannot be read back from Xvfb (XGetImage needs the area on
    /// screen), so the frame is checked through the c key's screenshot.
    @Test func aWindowWiderThanTheLargestFrameShowsItsTopLeftPart() throws {
        let shot = PlayerProcess.temporaryPath("wide.png")
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let (player, client, window) = try harness.launch(["pk", "--size", "160x120", "--no-overlay", "--screenshot", shot], title: "live-player: pk")
        defer { player.kill(SIGKILL) }
        #expect(PlayerProcess.eventually { client.image(ofWindow: window).map { $0[150, 5] == Self.pkBackground } ?? false })
        client.resize(window: window, width: 17000, height: 100)
        client.sync()
        #expect(PlayerProcess.eventually { client.size(ofWindow: window).map { $0 == (17000, 100) } ?? false })
        client.send(.c, toWindow: window)
        #expect(PlayerProcess.eventually { player.standardOutput.contains("screenshot: \(shot)") }, "stderr: \(player.standardError)")
        let saved = try Bitmap(pngFile: shot)
        #expect(saved.width == 16384 && saved.height == 100)
        #expect(saved[16000, 5] == Self.pkBackground)
        #expect(!player.standardError.contains("invalid bitmap size"), "stderr: \(player.standardError)")
        client.send(.q, toWindow: window)
        #expect(player.wait(timeout: 30) == 0, "stderr: \(player.standardError)")
    }
}

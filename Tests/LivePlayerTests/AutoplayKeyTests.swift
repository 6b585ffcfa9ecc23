import Foundation
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport

/// One Xvfb for the suite, kept alive by a connected client (the server runs with `-terminate`).
private let autoplayServer = Result { () throws -> XvfbServer in
    let server = try XvfbServer()
    autoplayKeeper = try X11TestClient(displayName: server.display)
    return server
}
nonisolated(unsafe) private var autoplayKeeper: X11TestClient?

/// `--autoplay` presses go again after each completed cycle; keys that replace the running
/// animation must not restart it in a loop (issue 11, defect 1: 100 % CPU, q and signals ignored).
@Suite(.serialized) struct AutoplayKeyTests {
    let server: XvfbServer
    init() throws { server = try autoplayServer.get() }

    @Test(arguments: [
        ("arrow", [Key.g]),
        ("pk", [Key.g]),
        ("fillmodes", [Key.g]),
        ("orbit", [Key.g, Key.r, Key.digit(2), Key.digit(5)]),
        ("gallery", [Key.g, Key.r]),
    ])
    func keysDuringAutoplayLeaveThePlayerResponsive(scene: String, keys: [Key]) throws {
        let player = try PlayerProcess.start([scene, "--size", "160x120", "--autoplay"], display: server.display)
        defer { player.kill(SIGKILL) }
        let client = try X11TestClient(displayName: server.display)
        var window: UInt?
        _ = PlayerProcess.eventually { window = client.windows(named: "live-player: \(scene)").first; return window != nil || !player.isRunning }
        let id = try #require(window, "no window; stderr: \(player.standardError)")
        func handledKeys() -> Int { player.standardError.split(separator: "\n").filter { $0.hasPrefix("live-player: key ") }.count }
        for (index, key) in keys.enumerated() {
            client.send(key, toWindow: id)
            client.sync()
            // Handled (the player traces each key) before the next is sent.
            #expect(PlayerProcess.eventually(timeout: 5) { handledKeys() > index })
        }
        client.send(.q, toWindow: id)
        client.sync()
        #expect(player.wait(timeout: 30) == 0, "\(scene) after \(keys): stderr \(player.standardError)")
        #expect(player.standardOutput.contains("\(scene) 160x120 window"), "stdout: \(player.standardOutput)")
    }
}

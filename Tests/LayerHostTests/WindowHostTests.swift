import DisplayClock
import LayerHost
@testable import LiveLayers
import Raster
import Testing
import X11Presenter
import X11TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A WindowHost on a real Xvfb, driven by real input (XTest through xdotool).
@MainActor
@Suite(.serialized) struct WindowHostTests {
    /// A click reaches onEvent with its location in the root layer's superlayer space, where
    /// hitTest finds the layer under it; stopping from a handler ends run().
    @Test func clickArrivesInLayerCoordinatesAndStopEndsTheRun() throws {
        let server = try XvfbServer()
        LayerRuntime.shared.reset()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 64, height: 48)
        let target = Layer()
        target.frame = Rect(x: 8, y: 8, width: 16, height: 16)
        root.addSublayer(target)
        let host = try WindowHost(title: "host-click", width: 64, height: 48, rootLayer: root, displayName: server.display)
        var clicks: [PointerEvent] = []
        host.onEvent = { event in
            if case let .pointerUp(pointer) = event {
                clicks.append(pointer)
                host.stop()
            }
        }
        // The click, once the window is mapped; if it never arrives, closing the window ends the run.
        let input = try ChildProcess("/usr/bin/xdotool", ["search", "--sync", "--name", "^host-click$",
                                                          "mousemove", "--sync", "--window", "%1", "12", "14", "click", "1",
                                                          "sleep", "8", "windowclose", "%1"],
                                     environment: ["DISPLAY": server.display])
        defer { input.kill(SIGTERM) }
        try host.run()
        let click = try #require(clicks.first)
        #expect(click.location == Point(x: 12, y: 14))
        #expect(click.button == .primary)
        #expect(root.hitTest(click.location) === target)
    }
}

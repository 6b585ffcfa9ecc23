import Dispatch
import Testing
import Raster
@_spi(Testing) import X11Presenter
import X11TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What happens to a window besides frames and keys: other clients destroy, unmap and resize it;
/// its server stops or dies. The window reports each as an event, in the server's order, and
/// never ends the process. Each test has its own Xvfb (some stop or kill it).
///
/// These are tests of the ``X11WindowTests`` suite, not a suite of their own: windows must not be
/// opened and closed on several threads at once in one process. libXext reads its per-extension
/// display cache (`XextFindDisplay`'s `extinfo->cur`) without its lock, so a window closing on one
/// thread while another calls MIT-SHM crashes in libXext; the suite runs its tests one at a time.
extension X11WindowTests {
    func openLifecycleWindow(on server: XvfbServer, interrupter: ConnectionInterrupter? = nil) throws -> X11Window {
        let window = try X11Window(.init(displayName: server.display, title: "lifecycle", width: 64, height: 48,
                                         className: "lifecycle-test", interrupter: interrupter))
        window.onNotice = { _ in }
        _ = pump(window) { $0.contains(.shown) }
        return window
    }

    /// A key before a resize and one after arrive in that order, with the resize between them,
    /// and the frame buffer changes size only at the next acquire.
    @Test func eventsKeepTheServersOrder() throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server)
        let client = try X11TestClient(displayName: server.display)
        let before = window.acquireFrameBuffer()
        client.send(.g, toWindow: window.windowID)
        client.resize(window: window.windowID, width: 80, height: 60)
        client.send(.q, toWindow: window.windowID)
        client.sync()
        let events = pump(window) { $0.contains(.keyDown(KeyEvent(keysym: 0x71, text: "q"))) }.filter {
            switch $0 {
            case .keyDown, .resize: true
            default: false
            }
        }
        #expect(events == [.keyDown(KeyEvent(keysym: 0x67, text: "g")), .resize(width: 80, height: 60), .keyDown(KeyEvent(keysym: 0x71, text: "q"))])
        #expect(before.width == 64, "the frame buffer changed before the owner asked for it")
        let after = window.acquireFrameBuffer()
        #expect(after.width == 80 && after.height == 60)
    }

    @Test func destructionByAnotherClientIsAnEvent() throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server)
        let client = try X11TestClient(displayName: server.display)
        client.destroy(window: window.windowID)
        #expect(pump(window) { $0.contains(.destroyed) }.contains(.destroyed))
        // Presenting into the destroyed window neither fails nor waits for a completion.
        window.acquireFrameBuffer().clear(to: 0xFFFF_0000)
        window.presentAll()
        _ = window.acquireFrameBuffer()
        window.close()
    }

    @Test func unmappingAndMappingAreEvents() throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server)
        let client = try X11TestClient(displayName: server.display)
        client.unmap(window: window.windowID)
        #expect(pump(window) { $0.contains(.hidden) }.contains(.hidden))
        client.map(window: window.windowID)
        #expect(pump(window) { $0.contains(.shown) }.contains(.shown))
    }

    /// The server dies: the window reports it once and the process goes on (libX11 would exit).
    @Test func lostConnectionIsAnEventNotAnExit() throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server)
        server.kill()
        let events = pump(window) { $0.contains(.connectionLost) }
        #expect(events.filter { $0 == .connectionLost }.count == 1)
        #expect(window.isConnectionLost)
        window.acquireFrameBuffer().clear(to: 0xFF00_FF00)
        window.presentAll()
        window.synchronize()
        var more: [WindowEvent] = []
        window.processEvents(into: &more)
        #expect(more.isEmpty)
        window.close()
    }

    /// A stopped server never answers XSync; the interrupter, from another thread, ends the wait.
    @Test func interrupterEndsAWaitOnAStoppedServer() throws {
        let server = try XvfbServer()
        let interrupter = ConnectionInterrupter()
        let window = try openLifecycleWindow(on: server, interrupter: interrupter)
        kill(server.processIdentifier, SIGSTOP)
        defer { kill(server.processIdentifier, SIGCONT) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { interrupter.interrupt() }
        window.synchronize()  // blocks until interrupted
        #expect(interrupter.isInterrupted)
        #expect(pump(window) { $0.contains(.connectionLost) }.contains(.connectionLost))
        window.close()
    }

    /// Interrupted while the window is being set up (the watchdog fired during XOpenDisplay's
    /// return): the set-up runs on against a dead connection without crashing, and the first
    /// events say so.
    @Test func connectionInterruptedDuringSetUpOpensAsLost() throws {
        let server = try XvfbServer()
        let interrupter = ConnectionInterrupter()
        interrupter.interrupt()
        let window = try X11Window(.init(displayName: server.display, title: "interrupted", width: 32, height: 24, interrupter: interrupter))
        window.onNotice = { _ in }
        var events: [WindowEvent] = []
        window.processEvents(into: &events)
        #expect(events == [.connectionLost])
        window.acquireFrameBuffer().clear(to: 0xFF00_00FF)
        window.presentAll()
        window.close()
        #expect(!interrupter.isAttached)
    }

    @Test func windowCarriesItsClassAndProcess() throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server)
        let xprop = try ChildProcess("/usr/bin/xprop", ["-id", String(window.windowID), "WM_CLASS", "_NET_WM_PID", "_NET_WM_NAME"],
                                     environment: ["DISPLAY": server.display])
        _ = xprop.wait(timeout: 10)
        #expect(xprop.standardOutput.contains("WM_CLASS(STRING) = \"lifecycle-test\", \"lifecycle-test\""), "\(xprop.standardOutput)")
        #expect(xprop.standardOutput.contains("_NET_WM_PID(CARDINAL) = \(getpid())"))
        #expect(xprop.standardOutput.contains("_NET_WM_NAME(UTF8_STRING) = \"lifecycle\""))
    }
}

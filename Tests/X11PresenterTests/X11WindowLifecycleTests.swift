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
    /// With `present`, the window shows frames through Present, its events on a connection of their own.
    func openLifecycleWindow(on server: XvfbServer, interrupter: ConnectionInterrupter? = nil, present: Bool = false) throws -> X11Window {
        let window = try X11Window(.init(displayName: server.display, title: "lifecycle", width: 64, height: 48, usesPresent: present,
                                         className: "lifecycle-test", interrupter: interrupter))
        if present { #expect(window.presentation == .present) }
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

    @Test(arguments: [false, true])
    func destructionByAnotherClientIsAnEvent(present: Bool) throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server, present: present)
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
    /// With Present, its events' connection ends too, and the window says nothing more of it.
    @Test(arguments: [false, true])
    func lostConnectionIsAnEventNotAnExit(present: Bool) throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server, present: present)
        var notices: [String] = []
        window.onNotice = { notices.append($0) }
        if present {
            window.acquireFrameBuffer().clear(to: 0xFF00_00FF)
            window.presentAll()
        }
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
        #expect(notices.isEmpty, "\(notices)")
        window.close()
    }

    /// A stopped server never answers XSync; the interrupter, from another thread, ends the wait.
    /// With Present, the interrupter holds both connections (it is attached once both are open)
    /// and shuts both down.
    @Test(arguments: [false, true])
    func interrupterEndsAWaitOnAStoppedServer(present: Bool) throws {
        let server = try XvfbServer()
        let interrupter = ConnectionInterrupter()
        let window = try openLifecycleWindow(on: server, interrupter: interrupter, present: present)
        #expect(interrupter.isAttached)
        kill(server.processIdentifier, SIGSTOP)
        defer { kill(server.processIdentifier, SIGCONT) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { interrupter.interrupt() }
        window.synchronize()  // blocks until interrupted
        #expect(interrupter.isInterrupted)
        #expect(pump(window) { $0.contains(.connectionLost) }.contains(.connectionLost))
        window.close()
        #expect(!interrupter.isAttached)
    }

    /// Another client kills the connection Present's events arrive on (`xkill` on its
    /// selection): the window's own connection is fine, so Present stops with a notice and
    /// frames are blitted; the ended connection leaves no descriptor readable for ever (a frame
    /// loop waiting on it would spin), and nothing waits for completions that cannot come.
    @Test func lostPresentEventConnectionFallsBackToBlits() throws {
        let server = try XvfbServer()
        let window = try openLifecycleWindow(on: server, present: true)
        var notices: [String] = []
        window.onNotice = { notices.append($0) }
        let client = try X11TestClient(displayName: server.display)
        // A frame in flight: its completion will never come.
        window.acquireFrameBuffer().clear(to: 0xFF00_00FF)
        window.presentAll()
        client.killClient(owning: try #require(window.presentEventsResource))
        var events = pump(window) { _ in window.presentation != .present }
        #expect(window.presentation == .blit(reason: "the connection for Present's events was lost"))
        #expect(notices == ["Present stopped (the connection for its events was lost); frames are blitted at once"])
        #expect(!events.contains(.connectionLost))
        #expect(window.presentEventsResource == nil)
        // Blitted frames reach the window.
        let frame = window.acquireFrameBuffer()
        frame.clear(to: 0xFF12_3456)
        window.presentAll()
        window.synchronize()
        let shown = try #require(client.image(ofWindow: window.windowID))
        #expect(shown[5, 5] & 0xFF_FFFF == 0x12_3456)
        // Nothing is left to read: the descriptor is quiet.
        events.removeAll()
        window.processEvents(into: &events)
        #expect(!window.hasQueuedEvents)
        var fd = pollfd(fd: window.connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fd, 1, 0) == 0, "revents \(fd.revents)")
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

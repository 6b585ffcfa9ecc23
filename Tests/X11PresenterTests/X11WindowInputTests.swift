import Testing
import Raster
@_spi(Testing) import X11Presenter
import X11TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// This suite's own Xvfb, kept alive by a connected client (the server runs with `-terminate`).
private let inputServer = Result { () throws -> XvfbServer in
    let server = try XvfbServer()
    inputKeeper = try X11TestClient(displayName: server.display)
    return server
}
nonisolated(unsafe) private var inputKeeper: X11TestClient?

/// Real input (XTest, through `xdotool`) arrives as events: pointer motion, buttons and scrolling
/// with window positions, crossing, keys down and up with keysym, text and modifiers.
@Suite(.serialized) struct X11WindowInputTests {
    let server: XvfbServer

    init() throws { server = try inputServer.get() }

    /// Waits (bounded: a few seconds, a hang check) until `condition` holds for the events seen.
    func pump(_ window: X11Window, until condition: ([WindowEvent]) -> Bool) -> [WindowEvent] {
        var events: [WindowEvent] = []
        for _ in 0..<250 {
            window.processEvents(into: &events)
            if condition(events) { break }
            var fd = pollfd(fd: window.connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 20)
        }
        return events
    }

    func xdotool(_ arguments: [String]) throws {
        let tool = try ChildProcess("/usr/bin/xdotool", arguments, environment: ["DISPLAY": server.display])
        _ = tool.wait(timeout: 10)
    }

    func openWindow() throws -> X11Window {
        let window = try X11Window(.init(displayName: server.display, title: "input", width: 96, height: 64))
        window.onNotice = { _ in }
        _ = pump(window) { $0.contains { if case .expose = $0 { true } else { false } } }
        return window
    }

    @Test func pointerMotionButtonsAndScrollCarryWindowPositions() throws {
        let window = try openWindow()
        try xdotool(["mousemove", "--sync", "--window", String(window.windowID), "10", "20"])
        try xdotool(["click", "1"])
        try xdotool(["click", "4"])
        try xdotool(["click", "7"])
        try xdotool(["mousemove", "--sync", "200", "200"])
        let events = pump(window) { $0.contains { if case .pointerExited = $0 { true } else { false } } }
        let at = Point(x: 10, y: 20)
        #expect(events.contains(.pointerEntered(at)) || events.contains(.pointerMoved(PointerEvent(location: at))))
        #expect(events.contains(.pointerDown(PointerEvent(location: at, button: .primary))))
        // The release names its button, and carries the held button's mask as modifiers do not.
        #expect(events.contains { if case let .pointerUp(e) = $0 { e.button == .primary && e.location == at } else { false } })
        #expect(events.contains(.scroll(ScrollEvent(location: at, deltaX: 0, deltaY: 1))))
        #expect(events.contains(.scroll(ScrollEvent(location: at, deltaX: -1, deltaY: 0))))
        #expect(!events.contains { if case let .pointerUp(e) = $0 { e.button == .other(4) } else { false } })
        #expect(events.contains { if case .pointerExited = $0 { true } else { false } })
    }

    @Test func keysGoDownAndUpWithTextAndModifiers() throws {
        let window = try openWindow()
        // No window manager: the keyboard follows the pointer into the window.
        try xdotool(["mousemove", "--sync", "--window", String(window.windowID), "30", "30"])
        try xdotool(["key", "shift+g"])
        try xdotool(["key", "Escape"])
        let events = pump(window) { $0.contains { if case let .keyUp(e) = $0 { e.keysym == 0xFF1B } else { false } } }
        let downs = events.compactMap { if case let .keyDown(e) = $0 { e } else { nil } }
        let ups = events.compactMap { if case let .keyUp(e) = $0 { e } else { nil } }
        #expect(downs.contains(KeyEvent(keysym: 0x67, text: "G", modifiers: .shift)))
        #expect(ups.contains { $0.keysym == 0x67 && $0.text.isEmpty })
        #expect(downs.contains(KeyEvent(keysym: 0xFF1B, text: "", modifiers: [])))
        #expect(downs.map(\.keysym).filter { $0 == 0x67 }.count == 1)
        #expect(Key(keysym: 0x67) == .g)  // the player's mapping on top
    }
}

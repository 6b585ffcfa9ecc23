import Testing
import Raster
@_spi(Testing) import X11Presenter
import X11TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One Xvfb for the whole suite (Swift Testing makes a suite instance per test), and a client
/// that stays connected so the server (started with `-terminate`) ends with the test process.
private let sharedServer = Result { () throws -> XvfbServer in
    let server = try XvfbServer()
    keeper = try X11TestClient(displayName: server.display)
    return server
}
nonisolated(unsafe) private var keeper: X11TestClient?

/// Window tests against a real Xvfb: one server for the suite, tests one at a time.
@Suite(.serialized) struct X11WindowTests {
    let server: XvfbServer

    init() throws { server = try sharedServer.get() }

    /// Waits (bounded: a few seconds, a hang check) until `condition` holds for the events seen.
    func pump(_ window: X11Window, until condition: ([WindowEvent]) -> Bool) -> [WindowEvent] {
        var events: [WindowEvent] = []
        for _ in 0..<200 {
            window.processEvents(into: &events)
            if condition(events) { break }
            var fd = pollfd(fd: window.connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 20)
        }
        return events
    }

    func openWindow(title: String, width: Int = 96, height: Int = 64, sharedMemory: Bool = true) throws -> X11Window {
        let window = try X11Window(.init(displayName: server.display, title: title, width: width, height: height, usesSharedMemory: sharedMemory))
        window.onNotice = { _ in }
        _ = pump(window) { $0.contains { if case .expose = $0 { true } else { false } } }
        return window
    }

    /// A pattern with distinct values in every channel, so a swapped or shifted byte shows.
    func drawPattern(into bitmap: Bitmap, seed: UInt32) {
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let r = UInt32(x * 255 / max(1, bitmap.width - 1)), g = UInt32(y * 255 / max(1, bitmap.height - 1))
                bitmap[x, y] = 0xFF00_0000 | r << 16 | g << 8 | ((UInt32(x ^ y) &+ seed) & 0xFF)
            }
        }
    }

    @Test func sharedMemoryFrameReadsBackEqual() throws {
        let window = try openWindow(title: "shm")
        #expect(window.transport == .sharedMemory)
        let frame = window.acquireFrameBuffer()
        drawPattern(into: frame, seed: 7)
        let expected = frame.cropped(to: frame.bounds)!
        window.presentAll()
        _ = window.acquireFrameBuffer()  // waits for ShmCompletion: the server has read it
        let client = try X11TestClient(displayName: server.display)
        let shown = try #require(client.image(ofWindow: window.windowID))
        #expect(shown.hasSamePixels(as: expected))
    }

    @Test func putImageFallbackReadsBackEqual() throws {
        let window = try openWindow(title: "putimage", sharedMemory: false)
        #expect(window.transport == .putImage(reason: "shared memory was not asked for"))
        let frame = window.acquireFrameBuffer()
        drawPattern(into: frame, seed: 99)
        let expected = frame.cropped(to: frame.bounds)!
        window.presentAll()
        window.synchronize()
        let client = try X11TestClient(displayName: server.display)
        let shown = try #require(client.image(ofWindow: window.windowID))
        #expect(shown.hasSamePixels(as: expected))
    }

    @Test func onlyDamagedRectanglesAreSent() throws {
        let window = try openWindow(title: "damage")
        let frame = window.acquireFrameBuffer()
        frame.clear(to: 0xFF00_00FF)
        window.presentAll()
        let next = window.acquireFrameBuffer()
        next.clear(to: 0xFFFF_0000)
        window.present(damage: [IntRect(x: 10, y: 20, width: 5, height: 4)])
        _ = window.acquireFrameBuffer()
        let shown = try #require(try X11TestClient(displayName: server.display).image(ofWindow: window.windowID))
        #expect(shown[10, 20] == 0xFFFF_0000)
        #expect(shown[14, 23] == 0xFFFF_0000)
        #expect(shown[15, 23] == 0xFF00_00FF)
        #expect(shown[9, 20] == 0xFF00_00FF)
    }

    @Test func keysAndCloseRequestArriveAsEvents() throws {
        let window = try openWindow(title: "keys")
        let client = try X11TestClient(displayName: server.display)
        for key in [Key.g, .space, .enter, .r, .p, .s, .f, .c, .q, .rightArrow, .leftArrow, .home, .end, .l, .digit(1), .digit(6), .tab, .escape] {
            client.send(key, toWindow: window.windowID)
        }
        client.sendCloseRequest(toWindow: window.windowID)
        let events = pump(window) { $0.contains(.close) }
        let keys = events.compactMap { if case let .keyDown(k) = $0 { Key(keysym: k.keysym) } else { nil } }
        #expect(keys == [.g, .space, .enter, .r, .p, .s, .f, .c, .q, .rightArrow, .leftArrow, .home, .end, .l, .digit(1), .digit(6), .tab, .escape])
        #expect(events.last == .close)
    }

    /// Events that arrive while the window waits for a completion are read off the socket, so
    /// the descriptor no longer shows them: `hasQueuedEvents` must, or a loop blocking on the
    /// descriptor would strand them (the bug this guards against left keys unhandled).
    @Test func eventsReadDuringACompletionWaitAreReported() throws {
        let window = try openWindow(title: "queued")
        let client = try X11TestClient(displayName: server.display)
        var events: [WindowEvent] = []
        window.processEvents(into: &events)
        #expect(!window.hasQueuedEvents)
        window.presentAll()
        client.send(.q, toWindow: window.windowID)
        client.sync()
        window.synchronize()  // reads the key into Xlib's queue
        _ = window.acquireFrameBuffer()
        #expect(window.hasQueuedEvents)
        events.removeAll()
        window.processEvents(into: &events)
        #expect(events.contains(.keyDown(KeyEvent(keysym: 0x71, text: "q"))))
        #expect(!window.hasQueuedEvents)
    }

    @Test func exposedAreasAreReblittedFromTheLastFrame() throws {
        let window = try openWindow(title: "expose")
        let frame = window.acquireFrameBuffer()
        drawPattern(into: frame, seed: 41)
        let expected = frame.cropped(to: frame.bounds)!
        window.presentAll()
        _ = window.acquireFrameBuffer()
        let client = try X11TestClient(displayName: server.display)
        let cover = client.coverArea(x: 10, y: 10, width: 40, height: 30)
        #expect(client.image(ofWindow: window.windowID).map { !$0.hasSamePixels(as: expected) } ?? false)
        client.destroy(window: cover)
        let events = pump(window) { $0.contains { if case .expose = $0 { true } else { false } } }
        #expect(events.contains { if case .expose = $0 { true } else { false } })
        _ = window.acquireFrameBuffer()
        #expect(client.image(ofWindow: window.windowID)?.hasSamePixels(as: expected) ?? false)
    }

    @Test func resizeReallocatesTheFrameBuffer() throws {
        let window = try openWindow(title: "resize")
        let client = try X11TestClient(displayName: server.display)
        client.resize(window: window.windowID, width: 150, height: 110)
        let events = pump(window) { $0.contains(.resize(width: 150, height: 110)) }
        #expect(events.contains(.resize(width: 150, height: 110)))
        #expect(window.width == 150 && window.height == 110)
        let frame = window.acquireFrameBuffer()
        #expect(frame.width == 150 && frame.height == 110)
        drawPattern(into: frame, seed: 3)
        let expected = frame.cropped(to: frame.bounds)!
        window.presentAll()
        _ = window.acquireFrameBuffer()
        let shown = try #require(client.image(ofWindow: window.windowID))
        #expect(shown.hasSamePixels(as: expected))
    }

    @Test(arguments: [true, false])
    func frameBufferKeptAcrossAResizeStaysValid(sharedMemory: Bool) throws {
        let window = try openWindow(title: "kept", sharedMemory: sharedMemory)
        let client = try X11TestClient(displayName: server.display)
        let old = window.acquireFrameBuffer()
        client.resize(window: window.windowID, width: 120, height: 90)
        _ = pump(window) { $0.contains(.resize(width: 120, height: 90)) }
        #expect(window.acquireFrameBuffer() !== old)
        // The old pixels were detached or freed with their image before the bitmap owned them.
        drawPattern(into: old, seed: 5)
        #expect(old[old.width - 1, old.height - 1] & 0xFF00_0000 == 0xFF00_0000)
        #expect(old.cropped(to: old.bounds)?.hasSamePixels(as: old) == true)
    }

    @Test func missingDisplayIsAClearError() {
        #expect(throws: X11Error.cannotOpenDisplay(":9999")) {
            try X11Window(.init(displayName: ":9999", title: "none", width: 10, height: 10))
        }
    }
}

/// Over TCP the server cannot check our credentials, so it refuses a 0600 segment (BadAccess):
/// the window must notice at attach time and fall back to XPutImage, not hang waiting.
@Suite(.serialized) struct RemoteDisplayTests {
    let server: XvfbServer

    init() throws { server = try XvfbServer(listenArguments: ["-listen", "tcp"]) }


    @Test func badAccessFallsBackToPutImage() throws {
        let display = "127.0.0.1" + server.display
        var notices: [String] = []
        // The TCP listener may come up a moment after the Unix socket the harness waits for.
        var opened: X11Window?
        for _ in 0..<50 where opened == nil {
            opened = try? X11Window(.init(displayName: display, title: "tcp", width: 40, height: 30))
            if opened == nil { usleep(100_000) }
        }
        let window = try #require(opened, "cannot open \(display)")
        window.onNotice = { notices.append($0) }
        guard case let .putImage(reason) = window.transport else {
            Issue.record("expected the XPutImage fallback over TCP, got \(window.transport)")
            return
        }
        #expect(reason.contains("refused"))
        let frame = window.acquireFrameBuffer()
        frame.clear(to: 0xFF12_3456)
        window.presentAll()
        window.synchronize()
        let shown = try #require(try X11TestClient(displayName: display).image(ofWindow: window.windowID))
        #expect(shown[20, 15] == 0xFF12_3456)
    }
}

/// A window the server lets another client make huge gets a frame buffer of at most 16384 a
/// side and 64 megapixels: 32767x32767 cost the player 2 GB and seconds a frame.
@Suite struct FrameSizeTests {
    @Test(arguments: [(32767, 32767), (16384, 16384), (16000, 4200), (8193, 8192), (32767, 5000), (5000, 32767)])
    func aHugeWindowsFrameIsAtMost64Megapixels(width: Int, height: Int) {
        let frame = X11Window.frameSize(forWindowWidth: width, height: height)
        #expect(frame.width * frame.height <= 8192 * 8192, "\(frame)")
        #expect(frame.width <= Bitmap.maximumSide && frame.height <= Bitmap.maximumSide)
        // Shrunk in proportion (within a pixel of rounding), not cut to a strip.
        let sideLimited = (min(width, Bitmap.maximumSide), min(height, Bitmap.maximumSide))
        let ratio = Double(sideLimited.0) / Double(sideLimited.1)
        #expect(abs(Double(frame.width) / Double(frame.height) - ratio) < ratio * 0.001 + 1 / Double(frame.height), "\(frame)")
        #expect(frame.width * frame.height > 8192 * 8192 - 2 * 16384, "\(frame)")
    }

    @Test func framesUpTo64MegapixelsKeepTheWindowsSize() {
        #expect(X11Window.frameSize(forWindowWidth: 8192, height: 8192) == (8192, 8192))
        #expect(X11Window.frameSize(forWindowWidth: 16384, height: 4096) == (16384, 4096))
        #expect(X11Window.frameSize(forWindowWidth: 17000, height: 100) == (16384, 100))
        #expect(X11Window.frameSize(forWindowWidth: 0, height: 0) == (1, 1))
    }
}

// SecondConnectionSupport: what another Xlib connection in the same process needs from the
// presenter, for test support (X11TestClient lives in Tests/X11TestSupport, not here).
//
// Xlib's error handlers are process-wide, so a second connection cannot install its own without
// taking them from the windows; it shares the presenter's instead, through this SPI.

internal import CX11

/// The presenter's process-wide Xlib error handling, for another connection opened by test code.
@_spi(Testing) public enum X11ErrorTrap {
    /// Installs the presenter's error and IO-error handlers (once per process), so that protocol
    /// errors are trapped or reported and a lost connection never ends the process.
    public static func installHandlers() { ErrorTrap.installHandlers() }

    /// Runs `body` and returns the first protocol error code it caused on `display` (an Xlib
    /// `Display *`), or 0; waits for the server before and after.
    public static func trapErrors(on display: OpaquePointer, _ body: () -> Void) -> UInt8 {
        ErrorTrap.trapErrors(on: display, body)
    }
}

/// Notices that another connection (an Xlib `Display *` opened by test code) was lost, in place
/// of Xlib's `exit(1)`. After ``isLost`` turns true, make no Xlib call on it but `XCloseDisplay`.
@_spi(Testing) public final class X11ConnectionWatch {
    private let watch = ConnectionWatch()

    public init() {}

    /// Whether the connection has failed.
    public var isLost: Bool { watch.isLost }

    /// Starts watching `display`; keep this object alive until the display is closed.
    public func install(on display: OpaquePointer) { watch.install(on: display) }
}

/// One MIT-SHM frame buffer made as a window makes it, on a connection of its own: for tests that
/// look at the segment while the server is held (grabbed by another client) in the middle of it.
@_spi(Testing) public enum X11SharedMemoryProbe {
    /// Opens `displayName`, calls `opened` (another client may grab the server now: the attach
    /// then waits for the grab to end), makes a `width`×`height` shared-memory image, frees it
    /// and closes the connection. Returns whether the server attached the segment.
    public static func attach(displayName: String, width: Int, height: Int, opened: () -> Void) -> Bool {
        ErrorTrap.installHandlers()
        guard let display = XOpenDisplay(displayName) else { return false }
        let watch = ConnectionWatch()
        watch.install(on: display)
        defer { XCloseDisplay(display) }
        opened()
        let screen = CX11_DefaultScreen(display)
        guard let visual = CX11_DefaultVisual(display, screen) else { return false }
        do {
            _ = try SharedMemoryImage(display: display, watch: watch, visual: visual, depth: CX11_DefaultDepth(display, screen),
                                      width: width, height: height)
            return true
        } catch {
            return false
        }
    }
}

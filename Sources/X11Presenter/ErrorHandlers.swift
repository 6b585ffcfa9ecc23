// ErrorHandlers: the process-wide Xlib error and IO-error handlers, installed in one place.
//
// Xlib keeps these handlers per process, and calls them on the thread that made the failing
// request. A window (and each test client) is used from one thread; the trap state is per
// connection and locked, because a test process drives several connections from several threads.

internal import CX11
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Protocol errors (asynchronous replies such as BadAccess): either trapped by the code that
/// expects them, or reported on stderr. Xlib's default handler would exit the process.
///
/// Each connection is used from one thread, but a process (a test run) may drive several
/// connections from several threads, and Xlib calls the one process-wide handler on whichever
/// thread hit the error: traps are therefore kept per connection, behind a lock.
enum ErrorTrap {
    /// The first error code seen by each connection that is trapping, keyed by its address.
    private static let traps = Mutex<[UInt: UInt8]>([:])
    private static let installation = Mutex(false)
    /// Windows whose destruction by another client is expected (keyed by connection and id):
    /// requests sent before the `DestroyNotify` is read fail with BadWindow or BadDrawable, and
    /// the window reports the destruction as an event instead of an error line per request.
    private static let ownWindows = Mutex<Set<OwnWindow>>([])

    private struct OwnWindow: Hashable {
        var display: UInt
        var window: UInt
    }

    /// Silences BadWindow and BadDrawable errors about `window` on `display` until ``forget(window:on:)``.
    static func own(window: UInt, on display: OpaquePointer) {
        _ = ownWindows.withLock { $0.insert(OwnWindow(display: UInt(bitPattern: display), window: window)) }
    }

    /// Ends ``own(window:on:)``, before the connection closes (its address may be reused).
    static func forget(window: UInt, on display: OpaquePointer) {
        _ = ownWindows.withLock { $0.remove(OwnWindow(display: UInt(bitPattern: display), window: window)) }
    }

    /// Installs the error and IO-error handlers, once per process.
    static func installHandlers() {
        installation.withLock { installed in
            guard !installed else { return }
            installed = true
            _ = XSetErrorHandler(handleProtocolError)
            _ = XSetIOErrorHandler(handleIOError)
        }
    }

    /// Runs `body`, then waits for the server (`XSync`) and returns the first protocol error
    /// code it caused on `display`, or 0. As xscreensaver's `xshm.c`, for requests a server may refuse.
    static func trapErrors(on display: OpaquePointer, _ body: () -> Void) -> UInt8 {
        let key = UInt(bitPattern: display)
        XSync(display, 0)
        traps.withLock { $0[key] = 0 }
        body()
        XSync(display, 0)
        return traps.withLock { $0.removeValue(forKey: key) ?? 0 }
    }

    fileprivate static func record(_ event: XErrorEvent, display: OpaquePointer?) {
        let key = display.map { UInt(bitPattern: $0) } ?? 0
        let trapped = traps.withLock { traps -> Bool in
            guard let code = traps[key] else { return false }
            if code == 0 { traps[key] = event.error_code }
            return true
        }
        guard !trapped else { return }
        if event.error_code == BadWindow || event.error_code == BadDrawable,
           ownWindows.withLock({ $0.contains(OwnWindow(display: key, window: UInt(event.resourceid))) }) {
            return
        }
        let message = "X11Presenter: X protocol error \(event.error_code) (request \(event.request_code).\(event.minor_code))\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
    }
}

private func handleProtocolError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    if let event { ErrorTrap.record(event.pointee, display: display) }
    return 0
}

/// Silences Xlib's "XIO: fatal IO error" text: the per-display exit handler (see
/// `ConnectionWatch`) marks the connection lost and the window reports it to its owner.
private func handleIOError(_ display: OpaquePointer?) -> Int32 { 0 }

/// The per-display IO-error exit handler (libX11 ≥ 1.7), in place of Xlib's bare `exit(1)`: it
/// marks the connection lost and returns, so the library never ends the process; its owner decides.
///
/// Once it has run, Xlib sets `XlibDisplayIOError` and its calls no longer touch the socket
/// (`_XSend`, `_XReply`, `_XEventsQueued` return at once), but some are not safe: `XNextEvent` on
/// an empty queue dereferences a missing event, and requests keep filling the output buffer.
/// So after ``isLost`` turns true the connection's owner makes no Xlib call but `XCloseDisplay`.
final class ConnectionWatch {
    private(set) var isLost = false

    func install(on display: OpaquePointer) {
        XSetIOErrorExitHandler(display, handleIOErrorExit, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func connectionFailed() { isLost = true }
}

private func handleIOErrorExit(_ display: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ConnectionWatch>.fromOpaque(context).takeUnretainedValue().connectionFailed()
}

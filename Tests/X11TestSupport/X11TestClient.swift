// X11TestClient: a second client on the same display, for tests: reads window pixels back and
// sends the events a user or window manager would. A test-support type: not shipped to users.

import CX11
import Raster
@_spi(Testing) import X11Presenter

/// Another connection to a display, playing the user and the window manager in tests.
///
/// Like ``X11Window``, use it from one thread only.
public final class X11TestClient {
    private let display: OpaquePointer
    private let watch = X11ConnectionWatch()

    /// Opens a connection to `displayName`.
    public init(displayName: String) throws(X11Error) {
        X11ErrorTrap.installHandlers()
        guard let display = XOpenDisplay(displayName) else { throw .cannotOpenDisplay(displayName) }
        self.display = display
        watch.install(on: display)
    }

    deinit { XCloseDisplay(display) }

    /// Waits until the server has handled everything this client sent.
    public func sync() { if !watch.isLost { XSync(display, 0) } }

    /// The top-level windows whose title is `name`.
    public func windows(named name: String) -> [UInt] {
        guard !watch.isLost else { return [] }
        var root: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, CX11_RootWindow(display, CX11_DefaultScreen(display)), &root, &parent, &children, &count) != 0,
              let children else { return [] }
        defer { XFree(children) }
        var found: [UInt] = []
        for i in 0..<Int(count) {
            var title: UnsafeMutablePointer<CChar>?
            if XFetchName(display, children[i], &title) != 0, let title {
                if String(cString: title) == name { found.append(UInt(children[i])) }
                XFree(title)
            }
        }
        return found
    }

    /// The top-level windows whose title is `name` and whose `_NET_WM_PID` is `pid`: the windows
    /// of one process, whatever other clients with the same title show.
    public func windows(named name: String, process pid: Int32) -> [UInt] {
        let property = XInternAtom(display, "_NET_WM_PID", 1)
        guard property != 0 else { return [] }
        return windows(named: name).filter { id in
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0, remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let error = X11ErrorTrap.trapErrors(on: display) {
                _ = XGetWindowProperty(display, Window(id), property, 0, 1, 0, Atom(AnyPropertyType), &type, &format, &count, &remaining, &data)
            }
            defer { if let data { XFree(data) } }
            // Format 32 properties come back as C longs.
            guard error == 0, format == 32, count == 1, let data else { return false }
            return UnsafeRawPointer(data).loadUnaligned(as: Int.self) == Int(pid)
        }
    }

    /// The window's size, or `nil` if there is no such window.
    public func size(ofWindow id: UInt) -> (width: Int, height: Int)? {
        var attributes = XWindowAttributes()
        let ok = X11ErrorTrap.trapErrors(on: display) { _ = XGetWindowAttributes(display, Window(id), &attributes) } == 0
        return ok ? (Int(attributes.width), Int(attributes.height)) : nil
    }

    /// What the server shows in the window (`XGetImage`), as opaque pixels, or `nil` if the
    /// window is gone or not fully on screen.
    public func image(ofWindow id: UInt) -> Bitmap? {
        guard let (width, height) = size(ofWindow: id) else { return nil }
        var image: UnsafeMutablePointer<XImage>?
        let error = X11ErrorTrap.trapErrors(on: display) {
            image = XGetImage(display, Window(id), 0, 0, UInt32(width), UInt32(height), ~0, ZPixmap)
        }
        guard error == 0, let image, let bitmap = try? Bitmap(width: width, height: height) else { return nil }
        defer { _ = CX11_XDestroyImage(image) }
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = 0xFF00_0000 | UInt32(truncatingIfNeeded: CX11_XGetPixel(image, Int32(x), Int32(y)) & 0xFF_FFFF)
            }
        }
        return bitmap
    }

    /// Sends a key press and release to the window, as `xdotool key --window` does.
    public func send(_ key: Key, toWindow id: UInt) { send(keysym: key.keysym, toWindow: id) }

    /// Sends a press and release of the key that produces `keysym` (`XK_*`) to the window.
    public func send(keysym: UInt, toWindow id: UInt) {
        let keycode = XKeysymToKeycode(display, KeySym(keysym))
        for type in [KeyPress, KeyRelease] {
            var event = XEvent()
            event.xkey.type = type
            event.xkey.display = display
            event.xkey.window = Window(id)
            event.xkey.root = CX11_RootWindow(display, CX11_DefaultScreen(display))
            event.xkey.same_screen = 1
            event.xkey.keycode = UInt32(keycode)
            _ = XSendEvent(display, Window(id), 1, type == KeyPress ? KeyPressMask : KeyReleaseMask, &event)
        }
        XFlush(display)
    }

    /// Sends `WM_DELETE_WINDOW`, as a window manager does when the close button is clicked.
    public func sendCloseRequest(toWindow id: UInt) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = Window(id)
        event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(XInternAtom(display, "WM_DELETE_WINDOW", 0))
        event.xclient.data.l.1 = 0
        _ = XSendEvent(display, Window(id), 0, NoEventMask, &event)
        XFlush(display)
    }

    /// Maps a plain window over the area (as another application's window would), and returns it.
    public func coverArea(x: Int, y: Int, width: Int, height: Int) -> UInt {
        let screen = CX11_DefaultScreen(display)
        let cover = XCreateSimpleWindow(display, CX11_RootWindow(display, screen), Int32(x), Int32(y),
                                        UInt32(width), UInt32(height), 0, 0, CX11_BlackPixel(display, screen))
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        XChangeWindowAttributes(display, cover, UInt(CWOverrideRedirect), &attributes)
        XMapRaised(display, cover)
        XSync(display, 0)
        return UInt(cover)
    }

    /// Destroys a window made by ``coverArea(x:y:width:height:)``, uncovering what was below.
    public func destroy(window id: UInt) {
        XDestroyWindow(display, Window(id))
        XSync(display, 0)
    }

    /// Unmaps the window, as a window manager does when it is iconified.
    public func unmap(window id: UInt) {
        XUnmapWindow(display, Window(id))
        XSync(display, 0)
    }

    /// Maps the window again.
    public func map(window id: UInt) {
        XMapWindow(display, Window(id))
        XSync(display, 0)
    }

    /// Holds the server for this client alone (`XGrabServer`): other clients' requests wait,
    /// replies included, until ``ungrabServer()``. Returns once the server holds.
    public func grabServer() {
        XGrabServer(display)
        sync()
    }

    /// Lets the server handle the other clients again.
    public func ungrabServer() {
        XUngrabServer(display)
        sync()
    }

    /// Closes the connection of the client that made resource `id` (`XKillClient`, as `xkill`
    /// does); the client's resources are freed.
    public func killClient(owning id: UInt) {
        XKillClient(display, XID(id))
        XSync(display, 0)
    }

    /// Resizes the window, as a window manager does when its border is dragged.
    public func resize(window id: UInt, width: Int, height: Int) {
        XResizeWindow(display, Window(id), UInt32(width), UInt32(height))
        XFlush(display)
    }
}

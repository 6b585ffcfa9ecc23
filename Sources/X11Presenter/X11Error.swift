// X11Error: why the presenter could not open, or keep, its window.

#if canImport(Glibc)
import Glibc
#endif

/// Why the X11 presenter could not open a window or keep it on screen.
public enum X11Error: Error, Equatable, CustomStringConvertible {
    /// No display was named (`--display` or `DISPLAY`), so there is nothing to connect to.
    case noDisplayNamed
    /// The X server named here could not be reached.
    case cannotOpenDisplay(String)
    /// The screen has no TrueColor visual of depth 24 or 32 with the masks `0xFF0000`, `0xFF00`, `0xFF`.
    case unsupportedVisual(String)
    /// The server's pixel layout is not 32 bits per pixel, least significant byte first.
    case unsupportedPixelFormat(bitsPerPixel: Int, byteOrder: Int)
    /// The window or its image buffer could not be made at this size.
    case cannotCreateImage(width: Int, height: Int)

    public var description: String {
        switch self {
        case .noDisplayNamed:
            return "no X display: DISPLAY is not set and no --display was given"
        case let .cannotOpenDisplay(name):
            return "cannot open the X display '\(name)': \(Self.reason(cannotOpen: name))"
        case let .unsupportedVisual(name):
            return "display '\(name)' has no TrueColor visual of depth 24 or 32 with masks 0xFF0000/0xFF00/0xFF"
        case let .unsupportedPixelFormat(bpp, order):
            return "unsupported server pixel format: \(bpp) bits per pixel, byte order \(order == 0 ? "LSB" : "MSB") first"
        case let .cannotCreateImage(w, h):
            return "cannot create a \(w)x\(h) image buffer"
        }
    }

    /// Why `name` could not be opened, as far as can be told from outside Xlib (which reports
    /// only failure): a local display whose socket is missing has no server; one whose socket
    /// exists refused or did not answer.
    static func reason(cannotOpen name: String) -> String {
        let colon = name.lastIndex(of: ":")
        let host = colon.map { String(name[..<$0]) } ?? name
        let number = colon.map { name[name.index(after: $0)...].split(separator: ".").first.map(String.init) ?? "" } ?? ""
        guard colon != nil, !number.isEmpty, number.allSatisfy(\.isNumber) else {
            return "not a display name (expected [host]:N[.screen], such as :0)"
        }
        guard host.isEmpty || host == "unix" else {
            return "the server on \(host) did not accept the connection (unreachable, not listening on TCP, or not authorized)"
        }
        let socket = "/tmp/.X11-unix/X\(number)"
        guard access(socket, F_OK) == 0 else { return "no X server is running there (no \(socket))" }
        return "its server refused the connection or did not answer (stopped, or not authorized: see xauth)"
    }
}

// PresentEventConnection: a window's Present events, received on an X connection of their own
// and read from its socket into memory allocated once.

internal import CX11

/// The Present events of one window, on a second connection to its server.
///
/// libxcb allocates every packet it reads and a node to queue it, and cannot read into the
/// caller's memory, so a completion read through it costs two allocations (on every frame paced
/// by vblanks). The server sends a window's Present events to each client that selected them,
/// whoever presented, so this connection selects the window's completions once and then only its
/// socket is read, whole packets at a time, into a fixed buffer (`CX11_ReadPresentEvent`). The
/// window's own connection keeps everything else: its presents stay in order with the frames'
/// uploads on it.
///
/// The socket is never written after set-up and is read without blocking, so a stopped server
/// cannot hold the frame loop here; a ``ConnectionInterrupter`` shuts it down with the window's.
final class PresentEventConnection {
    /// What ``next(_:)`` found.
    enum Read {
        /// An event, in the argument.
        case event
        /// No whole event has arrived.
        case none
        /// The connection closed or failed: the server went away, or another client killed it.
        case lost
    }

    /// The socket: readable when events (or the connection's end) arrive.
    let descriptor: Int32
    /// The selection's id, a resource of this connection (`XKillClient` on it ends the connection).
    private(set) var selection: UInt32 = 0
    private var connection: OpaquePointer?
    private let reader: UnsafeMutablePointer<CX11_PresentEventReader>
    private var isSelected = false
    private var reportedLoss = false

    /// Connects to `displayName`; nil when the server cannot be reached.
    init?(displayName: String) {
        guard let connection = CX11_ConnectPresentEvents(displayName) else { return nil }
        self.connection = connection
        descriptor = xcb_get_file_descriptor(connection)
        reader = .allocate(capacity: 1)
        reader.initialize(to: CX11_PresentEventReader())
    }

    deinit {
        close()
        reader.deallocate()
    }

    /// Selects `window`'s completions and waits until the server has; false if it could not (no
    /// Present, the window is gone, the connection failed). Call before the window's first present.
    func select(window: UInt) -> Bool {
        guard let connection, !isSelected else { return false }
        isSelected = CX11_SelectPresentEvents(connection, UInt32(truncatingIfNeeded: window), &selection, reader) != 0
        return isSelected
    }

    /// Takes the next event off the socket without blocking. ``Read/lost`` comes once; after it,
    /// and after ``close()``, there is nothing more.
    func next(_ event: inout CX11_PresentEvent) -> Read {
        guard connection != nil, isSelected, !reportedLoss else { return .none }
        switch CX11_ReadPresentEvent(reader, &event) {
        case 1: return .event
        case 0: return .none
        default:
            reportedLoss = true
            return .lost
        }
    }

    /// Closes the connection (the server drops the selection). Never blocks.
    func close() {
        guard let connection else { return }
        CX11_ClosePresentEvents(connection)
        self.connection = nil
    }
}

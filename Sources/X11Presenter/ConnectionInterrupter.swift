// ConnectionInterrupter: ends every wait on an X server that has stopped answering.

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ends, from another thread, every wait of a window on its X server.
///
/// Xlib blocks without a timeout wherever it needs the server: a reply (`XSync`, closing), or
/// room in the socket to write. A server that is stopped (`SIGSTOP`, a debugger) or wedged never
/// answers, and the thread that owns the window waits for ever. ``interrupt()`` shuts the
/// connection's socket down (and that of the connection Present's events arrive on): the blocked
/// call returns, and the window reports ``WindowEvent/connectionLost``, as if the server had gone away.
///
/// Give one to a window in its ``X11Window/Configuration``; call ``interrupt()`` from any thread
/// (a watchdog), but not from a signal handler (it takes a lock).
public final class ConnectionInterrupter: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        /// The socket of the window's connection for Present's events, when it has one.
        var eventDescriptor: Int32 = -1
        var isInterrupted = false
    }
    private let state = Mutex(State())

    public init() {}

    /// Shuts the connection down now, or as soon as a window attaches it. Later calls do nothing more.
    public func interrupt() {
        state.withLock { state in
            state.isInterrupted = true
            if state.descriptor >= 0 { _ = shutdown(state.descriptor, Int32(SHUT_RDWR)) }
            if state.eventDescriptor >= 0 { _ = shutdown(state.eventDescriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Whether ``interrupt()`` was called.
    public var isInterrupted: Bool { state.withLock { $0.isInterrupted } }

    /// Whether a window's connection is open (from the moment `XOpenDisplay` returns, and with
    /// Present the connection for its events is open too, until the window is closed). Before
    /// that, the window may be blocked in opening either, on a server that accepted the
    /// connection but never answers it: nothing can interrupt that wait.
    public var isAttached: Bool { state.withLock { $0.descriptor >= 0 } }

    /// The window's connection is open on `descriptor`, and its connection for Present's events
    /// on `eventDescriptor` (-1: none); interrupted already, they are shut down now.
    func attach(_ descriptor: Int32, events eventDescriptor: Int32 = -1) {
        state.withLock { state in
            state.descriptor = descriptor
            state.eventDescriptor = eventDescriptor
            if state.isInterrupted {
                _ = shutdown(descriptor, Int32(SHUT_RDWR))
                if eventDescriptor >= 0 { _ = shutdown(eventDescriptor, Int32(SHUT_RDWR)) }
            }
        }
    }

    /// The connection for Present's events is about to close: its descriptor's number may be
    /// reused, so it is forgotten first.
    func detachEvents() {
        state.withLock { $0.eventDescriptor = -1 }
    }

    /// The connections are closed; their descriptors' numbers may be reused, so they are forgotten.
    func detach() {
        state.withLock { state in
            state.descriptor = -1
            state.eventDescriptor = -1
        }
    }
}

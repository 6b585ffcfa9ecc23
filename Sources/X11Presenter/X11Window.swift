// X11Window: one top-level window, its frame buffer, and its events.
//
// Threading: every Xlib call of this module must happen on one thread, the one that created the
// window (the frame loop's). The type is deliberately not Sendable. Windows on several threads
// of one process are not safe either: libXext reads its per-extension display cache unlocked
// (XextFindDisplay), so one window closing while another calls MIT-SHM can crash there. Only
// ConnectionInterrupter is for other threads (it shuts the socket down, no Xlib call).

internal import CX11
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// A top-level X11 window that shows frames drawn into a ``Bitmap``.
///
/// The frame buffer is an MIT-SHM image when the server allows it (the renderer draws into
/// the shared memory itself: no copy), else an ordinary image sent with `XPutImage`.
/// Only damaged rectangles are sent; uncovered parts are re-sent from the last frame.
///
/// Use it from one thread only: Xlib is not used thread-safely here.
public final class X11Window {
    /// How frames travel to the server.
    public enum Transport: Equatable, Sendable {
        /// MIT-SHM: the server copies straight from shared memory.
        case sharedMemory
        /// `XPutImage` through the socket, and why shared memory is not used.
        case putImage(reason: String)
    }

    /// What the window is opened with.
    public struct Configuration: Sendable {
        /// The display to open (`:1`, `host:0`); `nil` means the `DISPLAY` environment variable.
        public var displayName: String?
        /// The window's title.
        public var title: String
        /// The initial width in pixels.
        public var width: Int
        /// The initial height in pixels.
        public var height: Int
        /// Whether to try MIT-SHM; `false` sends every frame with `XPutImage`.
        public var usesSharedMemory: Bool
        /// Whether to show frames through the Present extension at chosen vblanks (from a ring of
        /// pixmaps: MIT-SHM, else filled with `XPutImage`; see ``present(damage:atMSC:)``) when
        /// the server allows it; see ``presentation``.
        public var usesPresent: Bool
        /// With ``usesPresent``: whether Present is used only when its pixmaps can be MIT-SHM
        /// segments, frames being blitted otherwise. For a window whose frames are all shown at
        /// once (``present(damage:)``), where Present is worth it only so that the server's
        /// release of a frame comes on the connection of Present's events, read without
        /// allocating, not as a blit's `ShmCompletion` on the window's own (libxcb allocates every
        /// event it reads): pixmaps filled with `XPutImage` would cost the server a copy more
        /// than blitting the frame to the window.
        public var presentsOnlyFromSharedMemory: Bool
        /// How long to wait for the server to finish reading a shared-memory frame before
        /// giving up on that frame's completion event (a server that never answers must not hang us).
        public var completionTimeout: Double
        /// The application's class, set as both parts of `WM_CLASS`: window managers, taskbars
        /// and `xdotool search --class` find the window by it. `nil` sets no `WM_CLASS`.
        public var className: String?
        /// Ends the window's waits on a server that stopped answering, from another thread.
        public var interrupter: ConnectionInterrupter?

        /// Creates a configuration.
        public init(displayName: String? = nil, title: String, width: Int, height: Int,
                    usesSharedMemory: Bool = true, usesPresent: Bool = false, presentsOnlyFromSharedMemory: Bool = false,
                    completionTimeout: Double = 0.25, className: String? = nil, interrupter: ConnectionInterrupter? = nil) {
            self.displayName = displayName
            self.title = title
            self.width = width
            self.height = height
            self.usesSharedMemory = usesSharedMemory
            self.usesPresent = usesPresent
            self.presentsOnlyFromSharedMemory = presentsOnlyFromSharedMemory
            self.completionTimeout = completionTimeout
            self.className = className
            self.interrupter = interrupter
        }
    }

    /// The display's name as Xlib resolved it.
    public let displayName: String
    /// The window's id, for tools such as `xdotool` and for tests.
    public let windowID: UInt
    /// The current width in pixels, as the server last reported it (the frame buffer follows at
    /// the next ``acquireFrameBuffer()``).
    public private(set) var width: Int
    /// The current height in pixels, as the server last reported it.
    public private(set) var height: Int
    /// How frames reach the server. The window does not announce the initial fall-back to
    /// `XPutImage`; its owner says so once, in its own words.
    public private(set) var transport: Transport
    /// How frames are shown: through Present at a vblank, or blitted as soon as they are ready.
    public enum Presentation: Equatable, Sendable {
        /// `PresentPixmap` at a target vblank (``present(damage:atMSC:)``) or at once
        /// (``present(damage:)``), of MIT-SHM pixmaps or, without MIT-SHM (see ``transport``), of
        /// pixmaps filled with `XPutImage`; vblanks can be asked for.
        case present
        /// `XShmPutImage` or `XPutImage` at once; `reason` says why not Present (nil: not asked for).
        case blit(reason: String?)
    }

    /// How frames are shown. The window does not announce a fall-back from Present; its owner says
    /// so, in its own words.
    public private(set) var presentation: Presentation
    /// The screen's refresh rate as XRandR reports it (60 Hz when it cannot say, as on Xvfb, or
    /// the connection is lost). Asked on first use only: libXrandr keeps a libXext display list
    /// entry for every connection it sees.
    public private(set) lazy var displayRefresh: DisplayRefresh = {
        guard !watch.isLost, !isClosed else { return .fallback }
        return DisplayRefresh.query(display, root: CX11_RootWindow(display, CX11_DefaultScreen(display)))
    }()

    /// Called with a one-line notice (the fall-back to `XPutImage`, a late completion); by default
    /// written to stderr.
    public var onNotice: (String) -> Void = { message in
        let line = "X11Presenter: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    /// A file descriptor that is readable when events may be waiting. Wait on it together with
    /// the display link's deadline, then call ``processEvents(into:)``. It is the X connection's
    /// socket, or with Present (see ``presentation``) an epoll descriptor that is readable when
    /// that socket or the one Present's events arrive on is. It stays the same until ``close()``.
    public var connectionFileDescriptor: Int32 { readiness >= 0 ? readiness : CX11_ConnectionNumber(display) }
    /// Whether the server has gone away; the window can show nothing more. The window reports
    /// it once as ``WindowEvent/connectionLost``.
    public var isConnectionLost: Bool { watch.isLost }

    private let display: OpaquePointer
    private let window: Window
    private let gc: GC
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let deleteWindowAtom: Atom
    private let protocolsAtom: Atom
    private let completionEventType: Int32
    private let completionTimeout: Double
    private let watch = ConnectionWatch()
    private let interrupter: ConnectionInterrupter?
    private var image: any ServerImage
    /// The size `image` was made for; it differs from `width` × `height` after a resize until
    /// the next ``acquireFrameBuffer()`` makes the new one.
    private var imageSize: (width: Int, height: Int)
    private var awaitingCompletion = false
    private var pending: [WindowEvent] = []
    private var noticedLateCompletion = false
    private var reportedLoss = false
    private var isDestroyed = false
    private var isClosed = false
    /// The keycode whose release was dropped as half of an auto-repeat pair.
    private var repeatingKeycode: UInt32?
    private var scheduler: PresentScheduler?
    /// With Present: the connection its events arrive on.
    private var presentEvents: PresentEventConnection?
    /// With Present: an epoll set of both connections' sockets (see ``connectionFileDescriptor``).
    private var readiness: Int32 = -1

    /// Opens the display, picks a TrueColor visual, and maps a window with a frame buffer.
    ///
    /// If the X server goes away later (it crashed, was killed, or the ``ConnectionInterrupter``
    /// was used), the window makes no more X calls and reports ``WindowEvent/connectionLost``;
    /// the process goes on, and its owner decides what to do.
    /// - Throws: ``X11Error`` when the display cannot be opened or offers no usable visual.
    public init(_ configuration: Configuration) throws(X11Error) {
        ErrorTrap.installHandlers()
        let requested = configuration.displayName ?? getenv("DISPLAY").map { String(cString: $0) }
        guard let requested, !requested.isEmpty else { throw .noDisplayNamed }
        guard let display = XOpenDisplay(requested) else { throw .cannotOpenDisplay(requested) }
        let name = String(cString: XDisplayString(display))
        // Opened before the interrupter is given the connections: until both are open, a server
        // that stops answering holds the set-up here as in XOpenDisplay (see
        // ConnectionInterrupter.isAttached), and once both are, interrupting ends every wait.
        let presentEvents = configuration.usesPresent ? PresentEventConnection(displayName: name) : nil
        watch.install(on: display)
        interrupter = configuration.interrupter
        interrupter?.attach(CX11_ConnectionNumber(display), events: presentEvents?.descriptor ?? -1)

        let screen = CX11_DefaultScreen(display)
        guard let (visual, depth) = Self.trueColorVisual(display, screen: screen) else {
            XCloseDisplay(display)
            configuration.interrupter?.detach()
            throw .unsupportedVisual(name)
        }
        let root = CX11_RootWindow(display, screen)
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = 0
        attributes.border_pixel = 0
        attributes.colormap = XCreateColormap(display, root, visual, AllocNone)
        // StructureNotify: resizes, destruction by another client, unmapping and mapping.
        attributes.event_mask = ExposureMask | KeyPressMask | KeyReleaseMask | StructureNotifyMask
            | ButtonPressMask | ButtonReleaseMask | PointerMotionMask | EnterWindowMask | LeaveWindowMask | FocusChangeMask
        let width = max(1, configuration.width), height = max(1, configuration.height)
        let window = XCreateWindow(display, root, 0, 0, UInt32(width), UInt32(height), 0, depth, UInt32(InputOutput), visual,
                                   UInt(CWBackPixel | CWBorderPixel | CWColormap | CWEventMask), &attributes)
        ErrorTrap.own(window: UInt(window), on: display)
        Self.setIdentity(display, window: window, title: configuration.title, className: configuration.className)
        let protocols = XInternAtom(display, "WM_PROTOCOLS", 0)
        var deleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", 0)
        XSetWMProtocols(display, window, &deleteWindow, 1)
        self.deleteWindowAtom = deleteWindow
        self.protocolsAtom = protocols

        let gc = XCreateGC(display, window, 0, nil)!
        self.display = display
        self.window = window
        self.gc = gc
        self.visual = visual
        self.depth = depth
        self.displayName = name
        self.windowID = UInt(window)
        self.width = width
        self.height = height
        self.completionTimeout = configuration.completionTimeout
        // Interrupted during set-up, the connection is dead: libXext is not asked about it (its
        // per-extension display lists go wrong for a display that dies before MIT-SHM is
        // initialized: a later lookup crashed), and the window opens as lost, with a plain image.
        let lostDuringSetUp = watch.isLost
        self.completionEventType = lostDuringSetUp ? -1 : XShmGetEventBase(display) + ShmCompletion

        let made: (any ServerImage, Transport)
        do {
            made = try Self.makeImage(display, watch: watch, visual: visual, depth: depth, width: width, height: height,
                                      sharedMemory: lostDuringSetUp ? "the connection was lost" : configuration.usesSharedMemory ? nil : "shared memory was not asked for")
        } catch {
            XFreeGC(display, gc)
            XDestroyWindow(display, window)
            ErrorTrap.forget(window: UInt(window), on: display)
            XCloseDisplay(display)
            configuration.interrupter?.detach()
            throw error
        }
        self.image = made.0
        self.imageSize = (width, height)
        self.transport = made.1
        presentation = .blit(reason: nil)
        // libXpresent keeps libXext display lists too: not for a dead connection.
        if configuration.usesPresent, !watch.isLost {
            if let reason = PresentScheduler.unavailability(display) {
                presentation = .blit(reason: reason)
            } else if !Self.selectPresentEvents(presentEvents, of: window, on: display, watch: watch) {
                presentation = .blit(reason: "no connection for Present's events")
            } else if let presentEvents {
                let frame = Self.frameSize(forWindowWidth: width, height: height)
                func makeScheduler(_ upload: PresentScheduler.Upload) throws(SharedMemoryImage.Failure) -> PresentScheduler {
                    try PresentScheduler(display: display, watch: watch, window: window, events: presentEvents, visual: visual, depth: depth,
                                         width: frame.width, height: frame.height, upload: upload)
                }
                // Without MIT-SHM (a remote display) the pixmaps are filled with XPutImage.
                let sharedPixmaps = transport == .sharedMemory && PresentScheduler.offersSharedPixmaps(display)
                if sharedPixmaps { scheduler = try? makeScheduler(.sharedMemory) }
                if scheduler == nil, configuration.presentsOnlyFromSharedMemory {
                    presentation = .blit(reason: transport != .sharedMemory ? "frames do not go through MIT-SHM"
                                         : sharedPixmaps ? "no MIT-SHM pixmaps for Present" : "the server offers no MIT-SHM pixmaps for Present")
                } else if scheduler == nil {
                    do {
                        scheduler = try makeScheduler(.putImage)
                        if transport == .sharedMemory { transport = .putImage(reason: "the server offers no MIT-SHM pixmaps for Present") }
                    } catch {
                        presentation = .blit(reason: "no pixmaps for Present: \(error)")
                    }
                }
                if scheduler != nil { presentation = .present }
            }
        }
        if let presentEvents {
            if let scheduler {
                readiness = CX11_MakeReadiness(CX11_ConnectionNumber(display), presentEvents.descriptor)
                if readiness >= 0 {
                    self.presentEvents = presentEvents
                } else {
                    scheduler.close()
                    self.scheduler = nil
                    presentation = .blit(reason: "no epoll set for Present's events (\(String(cString: strerror(errno))))")
                }
            }
            if self.presentEvents == nil {
                interrupter?.detachEvents()
                presentEvents.close()
            }
        }
        XMapWindow(display, window)
        XFlush(display)
    }

    /// Selects the window's Present events on `events`, once the server has made the window
    /// (requests on two connections have no order between them).
    private static func selectPresentEvents(_ events: PresentEventConnection?, of window: Window, on display: OpaquePointer,
                                            watch: ConnectionWatch) -> Bool {
        guard let events else { return false }
        XSync(display, 0)
        return !watch.isLost && events.select(window: UInt(window))
    }

    /// Closes the connection of Present's events, after taking its socket out of the epoll set
    /// and from the interrupter (its number may be reused at once).
    private func closePresentEvents() {
        guard let presentEvents else { return }
        if readiness >= 0 { CX11_RemoveFromReadiness(readiness, presentEvents.descriptor) }
        interrupter?.detachEvents()
        presentEvents.close()
        self.presentEvents = nil
    }

    /// Presenting stops: frames are blitted at once from now on, going on from the newest frame
    /// presented (frames are drawn over their damage alone, and Exposes are re-blitted).
    private func stopPresent(reason: String) {
        if let scheduler, !watch.isLost, !isClosed {
            if imageSize != (width, height) { reallocate() }
            _ = scheduler.copyNewestFrame(into: image.bitmap)
        }
        scheduler?.close()
        scheduler = nil
        closePresentEvents()
        presentation = .blit(reason: reason)
    }

    deinit { close() }

    /// Closes the window and the connection. Safe to call more than once and after the
    /// connection is lost.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if !watch.isLost {
            waitForCompletion()
            scheduler?.close()
            scheduler = nil
            closePresentEvents()
            image = PlaceholderImage.shared
            XFreeGC(display, gc)
            if !isDestroyed { XDestroyWindow(display, window) }
        }
        // The image lets go of its segment while the display still exists (on a lost
        // connection without an X call).
        image = PlaceholderImage.shared
        scheduler = nil
        closePresentEvents()
        if readiness >= 0 {
            Glibc.close(readiness)
            readiness = -1
        }
        ErrorTrap.forget(window: windowID, on: display)
        // On a lost connection Xlib only frees its memory here; it sends nothing. Until it has
        // closed the socket, an interrupter may still end a wait in its final XSync.
        XCloseDisplay(display)
        interrupter?.detach()
    }

    // MARK: Frames

    /// The bitmap to draw the next frame into, once the server has finished reading the previous
    /// one. It wraps the frame buffer's memory, so it keeps the last frame's pixels; after a
    /// ``WindowEvent/resize(width:height:)`` it is a new, blank bitmap of the new size, and the
    /// one returned before must no longer be used (its memory is released). It is at most
    /// ``Bitmap/maximumSide`` pixels a side and ``maximumFramePixels`` in all
    /// (``frameSize(forWindowWidth:height:)``): a larger window shows the frame in its top-left part.
    ///
    /// With Present and MIT-SHM, it is a pixmap of the ring that the server has released
    /// (its present completed: copied or skipped), brought up to the last frame presented. With Present without MIT-SHM, it is
    /// one bitmap that keeps the last frame; the next present sends a released pixmap what it lacks.
    public func acquireFrameBuffer() -> Bitmap {
        if let scheduler {
            waitForServer { scheduler.hasIdleBuffer } onTimeout: {
                scheduler.abandonBusyBuffers()
                return "no Present completion from the server within \(Int(completionTimeout * 1000)) ms; reusing a pixmap"
            }
            if self.scheduler === scheduler, scheduler.size != Self.frameSize(forWindowWidth: width, height: height), !watch.isLost, !isClosed {
                resizeRing(scheduler)
            }
            if let scheduler = self.scheduler { return scheduler.acquire() }
        }
        waitForCompletion()
        if imageSize != (width, height), !watch.isLost, !isClosed { reallocate() }
        return image.bitmap
    }

    /// Shows the frame buffer at vblank `msc` (0: the next vblank) with `damage` as the update
    /// region, through Present; returns the present's serial, which the
    /// ``WindowEvent/presented(serial:timing:skipped:)`` event names. Without Present (see
    /// ``presentation``) it blits at once, as ``present(damage:)``, and returns nil.
    @discardableResult
    public func present(damage: [IntRect], atMSC msc: UInt64) -> UInt32? {
        guard let scheduler else {
            present(damage: damage)
            return nil
        }
        guard !watch.isLost, !isClosed, !isDestroyed else { return nil }
        keepPresentsInOrder(scheduler, atMSC: msc)
        // Present stopped meanwhile: the frame was drawn into a pixmap that is gone.
        guard self.scheduler === scheduler else { return nil }
        return scheduler.present(damage: damage, atMSC: msc, lateAtOnce: vblanksAreCounted)
    }

    /// Reads the last present's completion if it has arrived (a late frame's usually has), then
    /// waits for it when a present for `msc` (nil: one shown at once) could be shown before it
    /// (see ``PresentScheduler/mayOvertakeUnfinishedPresent(atMSC:)``). Whether the last present
    /// is still waiting also decides whether this one may be shown at once.
    private func keepPresentsInOrder(_ scheduler: PresentScheduler, atMSC msc: UInt64?) {
        // Presents shown at once follow each other without a look at the sockets.
        if msc == nil, !scheduler.mayOvertakeUnfinishedPresentAtOnce { return }
        if scheduler.hasUnfinishedPresent { readArrivedEvents() }
        guard msc.map(scheduler.mayOvertakeUnfinishedPresent(atMSC:)) ?? scheduler.mayOvertakeUnfinishedPresentAtOnce else { return }
        waitForServer { !scheduler.hasUnfinishedPresent } onTimeout: {
            scheduler.forgetUnfinishedPresent()
            return "no Present completion from the server within \(Int(completionTimeout * 1000)) ms; presenting anyway"
        }
    }

    /// Reads the events that have arrived, without blocking, keeping them for ``processEvents(into:)``.
    private func readArrivedEvents() {
        while !watch.isLost, XEventsQueued(display, QueuedAfterReading) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if let translated = translate(&event) { pending.append(translated) }
        }
        readPresentEvents(into: &pending)
    }

    /// Appends the Present events that have arrived. When their connection was lost while the
    /// window's own is not (another client killed it), Present stops and frames are blitted: no
    /// completion would free a pixmap, no vblank would come. When the server went away, the
    /// window's connection reports it.
    private func readPresentEvents(into events: inout [WindowEvent]) {
        guard let scheduler else { return }
        scheduler.readEvents(into: &events)
        guard scheduler.eventsLost else { return }
        // A server that went away ends both connections, the window's perhaps a moment later:
        // a round trip on it tells that from another client killing only this one. (On a
        // stopped server it waits, as any round trip, until the interrupter shuts both down.)
        if !watch.isLost { XSync(display, 0) }
        if watch.isLost {
            closePresentEvents()
        } else {
            stopPresent(reason: "the connection for Present's events was lost")
            onNotice("Present stopped (the connection for its events was lost); frames are blitted at once")
        }
    }

    /// Whether the server's vblanks are counted by a timer rather than a real display's scanout:
    /// XRandR knows no refresh rate (Xvfb, whose modes have a 0 Hz dot clock). Such a server rounds
    /// its counter to the nearest vblank, so a present that reaches it later than half a period
    /// before its target would wait a vblank more, where the next frame replaces it: a drop no
    /// frame caused. With no scanout to tear, a present that finds its target vblank current is
    /// shown at once instead. On a real display a frame that misses its vblank waits for the next.
    private lazy var vblanksAreCounted: Bool = displayRefresh.source == .default

    /// Asks the server for a ``WindowEvent/vblank(_:)`` event at vblank `msc`, or at once with the
    /// current vblank if `msc` has passed (0: the next one). Does nothing without Present.
    public func requestVblank(atOrAfter msc: UInt64) {
        guard let scheduler, !watch.isLost, !isClosed, !isDestroyed else { return }
        scheduler.requestVblank(atOrAfter: msc)
    }

    /// The selection of Present's events, a resource of the connection they arrive on: another
    /// client can close that connection with `XKillClient` on it. Nil without Present.
    @_spi(Testing) public var presentEventsResource: UInt? { presentEvents.map { UInt($0.selection) } }

    /// How many generic events (Present's are) reached the window's own connection: none should,
    /// as Present's events are selected only on theirs (see PresentScheduler.readEvents(into:)).
    @_spi(Testing) public private(set) var genericEventsOnWindowConnection = 0

    /// How many blits' `ShmCompletion` events arrived (on the window's own connection).
    @_spi(Testing) public private(set) var shmCompletionsOnWindowConnection = 0

    /// How many Present events arrived on their own connection.
    @_spi(Testing) public var presentEventsRead: Int { scheduler?.eventsRead ?? 0 }

    /// How many of the vblanks asked for with ``requestVblank(atOrAfter:)`` went to the server as
    /// `NotifyMSC`; the others were answered by the completion of a frame queued for them.
    @_spi(Testing) public var vblankNotifiesSent: Int { scheduler?.notifiesSent ?? 0 }

    /// Shows the damaged rectangles of the frame buffer in the window at once.
    ///
    /// Rectangles are clipped to the window. With Present (see ``presentation``) the frame is
    /// presented to be copied as soon as the server reads the request, no vblank waited for (as
    /// a blit, it can tear on a real scanout), after any present still queued for a vblank; its
    /// completion frees the pixmap. Otherwise the rectangles are blitted; with MIT-SHM, the last
    /// one asks for a completion event, which ``acquireFrameBuffer()`` waits for so no frame is
    /// overwritten while read.
    public func present(damage: [IntRect]) {
        guard !watch.isLost, !isClosed, !isDestroyed else { return }
        if let scheduler {
            keepPresentsInOrder(scheduler, atMSC: nil)
            if self.scheduler === scheduler { _ = scheduler.presentAtOnce(damage: damage) }
            return
        }
        let bounds = image.bitmap.bounds
        var last = -1
        for (i, rect) in damage.enumerated() where !rect.intersection(bounds).isEmpty { last = i }
        guard last >= 0 else { return }
        for i in 0...last where !watch.isLost {
            let rect = damage[i].intersection(bounds)
            guard !rect.isEmpty else { continue }
            if image.put(rect, display: display, drawable: window, gc: gc, notify: i == last) {
                awaitingCompletion = true
            }
        }
        if !watch.isLost { XFlush(display) }
    }

    /// Waits until the server has handled every request sent so far (`XSync`); events that
    /// arrive meanwhile are kept for ``processEvents(into:)``.
    public func synchronize() {
        guard !watch.isLost, !isClosed else { return }
        XSync(display, 0)
    }

    /// Sends the whole frame buffer.
    public func presentAll() { present(damage: [image.bitmap.bounds]) }

    // MARK: Events

    /// Whether events have already been read from the connection and wait in memory (read while
    /// waiting for a completion, or by Xlib). The connection's descriptor does not show them:
    /// check this before blocking on it, or they would wait for the next unrelated event.
    public var hasQueuedEvents: Bool {
        guard !isClosed else { return false }
        if watch.isLost { return !reportedLoss || !pending.isEmpty }
        return !pending.isEmpty || XEventsQueued(display, QueuedAlready) > 0
    }

    /// Appends every event that has arrived, without blocking, to `events`, in the order the
    /// server sent them.
    ///
    /// Re-blits exposed areas itself. A size change is reported at once, and the frame buffer
    /// follows at the next ``acquireFrameBuffer()``, so events before the resize still see the
    /// frame buffer they were meant for.
    public func processEvents(into events: inout [WindowEvent]) {
        var exposed: IntRect?
        // Kept while waiting for the server, exposures included: they are re-blitted here too.
        for event in pending {
            if case let .expose(rect) = event { exposed = exposed.map { $0.union(rect) } ?? rect }
            events.append(event)
        }
        pending.removeAll(keepingCapacity: true)
        guard !isClosed else { return }
        while !watch.isLost, XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            guard let translated = translate(&event) else { continue }
            if case let .expose(rect) = translated { exposed = exposed.map { $0.union(rect) } ?? rect }
            events.append(translated)
        }
        // Present's events come on a connection of their own.
        readPresentEvents(into: &events)
        if watch.isLost {
            if !reportedLoss { events.append(.connectionLost) }
            reportedLoss = true
            return
        }
        // After a resize the frame buffer is stale: the owner redraws everything anyway.
        if let exposed, let scheduler {
            if scheduler.size == Self.frameSize(forWindowWidth: width, height: height) {
                scheduler.reblit(exposed, gc: gc)
                XFlush(display)
            }
        } else if let exposed, imageSize == (width, height) {
            present(damage: [exposed])
        }
    }

    /// Decodes one event; `nil` for events that mean nothing to the frame loop.
    private func translate(_ event: inout XEvent) -> WindowEvent? {
        switch event.type {
        case KeyPress:
            let keycode = event.xkey.keycode
            let isRepeat = repeatingKeycode == keycode
            repeatingKeycode = nil
            return .keyDown(keyEvent(&event, isRepeat: isRepeat))
        case KeyRelease:
            // Auto-repeat sends a release and a press with the same time: one held key, not two presses.
            if let next = nextQueuedEvent(), next.type == KeyPress, next.xkey.keycode == event.xkey.keycode, next.xkey.time == event.xkey.time {
                repeatingKeycode = event.xkey.keycode
                return nil
            }
            return .keyUp(keyEvent(&event, isRepeat: false))
        case ButtonPress, ButtonRelease:
            let e = event.xbutton
            let location = Point(x: Double(e.x), y: Double(e.y))
            let modifiers = KeyModifiers(xState: e.state)
            switch e.button {
            case 4...7:
                // Wheel clicks are buttons 4 to 7, pressed and released at once: the press is the scroll.
                guard event.type == ButtonPress else { return nil }
                let dx: Double = e.button == 6 ? 1 : e.button == 7 ? -1 : 0
                let dy: Double = e.button == 4 ? 1 : e.button == 5 ? -1 : 0
                return .scroll(ScrollEvent(location: location, deltaX: dx, deltaY: dy, modifiers: modifiers))
            default:
                let pointer = PointerEvent(location: location, button: PointerButton(xButton: e.button), modifiers: modifiers)
                return event.type == ButtonPress ? .pointerDown(pointer) : .pointerUp(pointer)
            }
        case MotionNotify:
            let e = event.xmotion
            return .pointerMoved(PointerEvent(location: Point(x: Double(e.x), y: Double(e.y)), modifiers: KeyModifiers(xState: e.state)))
        case EnterNotify, LeaveNotify:
            let e = event.xcrossing
            // Crossings caused by grabs (a button held across the border) are not the pointer's moves.
            guard e.mode == NotifyNormal else { return nil }
            let location = Point(x: Double(e.x), y: Double(e.y))
            return event.type == EnterNotify ? .pointerEntered(location) : .pointerExited(location)
        case FocusIn, FocusOut:
            let e = event.xfocus
            guard e.mode == NotifyNormal || e.mode == NotifyWhileGrabbed, e.detail != NotifyPointer else { return nil }
            return event.type == FocusIn ? .focusGained : .focusLost
        case ClientMessage:
            let message = event.xclient
            if message.message_type == protocolsAtom, Atom(message.data.l.0) == deleteWindowAtom { return .close }
            return nil
        case ConfigureNotify:
            // Dragging a border sends a stream of sizes: of those already queued, the last counts.
            guard event.xconfigure.window == window, !nextQueuedEventIsConfigure() else { return nil }
            let w = Int(event.xconfigure.width), h = Int(event.xconfigure.height)
            guard w != width || h != height else { return nil }  // moved or restacked
            width = w
            height = h
            return .resize(width: w, height: h)
        case DestroyNotify:
            guard event.xdestroywindow.window == window else { return nil }
            isDestroyed = true
            awaitingCompletion = false  // a copy into a destroyed window completes never
            return .destroyed
        case UnmapNotify:
            return event.xunmap.window == window ? .hidden : nil
        case MapNotify:
            return event.xmap.window == window ? .shown : nil
        case Expose:
            let e = event.xexpose
            return .expose(IntRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)))
        case completionEventType:
            awaitingCompletion = false
            shmCompletionsOnWindowConnection += 1
            return nil
        case GenericEvent:
            genericEventsOnWindowConnection += 1
            return nil
        default:
            return nil
        }
    }

    /// A key event's keysym (unmodified), text (modified, Latin-1 as `XLookupString` gives it,
    /// control characters left out) and modifiers.
    private func keyEvent(_ event: inout XEvent, isRepeat: Bool) -> KeyEvent {
        let keysym = withUnsafeMutablePointer(to: &event.xkey) { XLookupKeysym($0, 0) }
        var text = ""
        if event.type == KeyPress {
            var bytes: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar) = (0, 0, 0, 0, 0, 0, 0, 0)
            let count = withUnsafeMutablePointer(to: &bytes) { buffer in
                buffer.withMemoryRebound(to: CChar.self, capacity: 8) { chars in
                    withUnsafeMutablePointer(to: &event.xkey) { XLookupString($0, chars, 8, nil, nil) }
                }
            }
            withUnsafeBytes(of: bytes) { raw in
                for byte in raw.prefix(Int(max(0, count))) where byte >= 0x20 && byte != 0x7F {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                }
            }
        }
        return KeyEvent(keysym: UInt(keysym), text: text, modifiers: KeyModifiers(xState: event.xkey.state), isRepeat: isRepeat)
    }

    /// The next event already read or readable without blocking, left in the queue.
    private func nextQueuedEvent() -> XEvent? {
        guard XEventsQueued(display, QueuedAfterReading) > 0 else { return nil }
        var next = XEvent()
        XPeekEvent(display, &next)
        return next
    }

    /// Whether the next event already read is a ConfigureNotify of this window (no waiting).
    private func nextQueuedEventIsConfigure() -> Bool {
        guard XEventsQueued(display, QueuedAlready) > 0 else { return false }
        var next = XEvent()
        XPeekEvent(display, &next)
        return next.type == ConfigureNotify && next.xconfigure.window == window
    }

    /// Blocks until the server has read the last shared-memory frame, or the timeout passes.
    /// Other events that arrive meanwhile are kept for ``processEvents(into:)``.
    private func waitForCompletion() {
        guard awaitingCompletion else { return }
        let deadline = monotonicNow() + completionTimeout
        while awaitingCompletion, !watch.isLost, !isDestroyed {
            if XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if let translated = translate(&event) { pending.append(translated) }
                continue
            }
            let remaining = deadline - monotonicNow()
            if remaining <= 0 {
                if !noticedLateCompletion {
                    noticedLateCompletion = true
                    onNotice("no ShmCompletion from the server within \(Int(completionTimeout * 1000)) ms; not waiting for it")
                }
                awaitingCompletion = false
                break
            }
            var fd = pollfd(fd: connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
        }
        if watch.isLost { awaitingCompletion = false }
    }

    /// Reads events (keeping them for ``processEvents(into:)``) until `condition` holds or the
    /// completion timeout passes; then `onTimeout` says what was given up, once per window.
    private func waitForServer(until condition: () -> Bool, onTimeout: () -> String) {
        let deadline = monotonicNow() + completionTimeout
        while true {
            readPresentEvents(into: &pending)
            // Present may have stopped meanwhile (its events' connection lost): nothing to wait for.
            guard scheduler != nil, !condition(), !watch.isLost, !isDestroyed else { return }
            if XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if let translated = translate(&event) { pending.append(translated) }
                continue
            }
            let remaining = deadline - monotonicNow()
            if remaining <= 0 {
                let message = onTimeout()
                if !noticedLateCompletion {
                    noticedLateCompletion = true
                    onNotice(message)
                }
                return
            }
            var fd = pollfd(fd: connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
        }
    }

    /// Replaces the pixmap ring with one of the window's current size; without memory for it,
    /// Present stops and frames are blitted at once.
    private func resizeRing(_ scheduler: PresentScheduler) {
        do {
            let frame = Self.frameSize(forWindowWidth: width, height: height)
            try scheduler.resize(visual: visual, width: frame.width, height: frame.height)
        } catch {
            stopPresent(reason: "no pixmaps for Present at \(width)x\(height): \(error)")
            onNotice("Present stopped (\(error)); frames are blitted at once")
        }
    }

    /// Replaces the frame buffer with one of the window's current size.
    private func reallocate() {
        // Release the old image before the new one exists: at most one segment per window.
        image = PlaceholderImage.shared
        imageSize = (width, height)
        let sharedMemory: String? = if case let .putImage(reason) = transport { reason } else { nil }
        do {
            let frame = Self.frameSize(forWindowWidth: width, height: height)
            let made = try Self.makeImage(display, watch: watch, visual: visual, depth: depth, width: frame.width, height: frame.height, sharedMemory: sharedMemory)
            image = made.0
            if made.1 != transport, case let .putImage(reason) = made.1 {
                onNotice("not using MIT-SHM (\(reason)); frames go through XPutImage")
            }
            transport = made.1
        } catch {
            onNotice("\(error); keeping a 1x1 frame buffer")
            image = PlaceholderImage.shared
        }
    }

    /// The most pixels a frame buffer holds: 64 megapixels (8192x8192). A window another client
    /// resizes to what the server allows (32767x32767, a gigapixel) would otherwise cost its
    /// program gigabytes and seconds a frame.
    public static let maximumFramePixels = 8192 * 8192

    /// The frame buffer's size for a window of `width`×`height`: each side clamped to
    /// ``Bitmap/maximumSide``, as the server accepts windows up to 32767 pixels a side, then
    /// both shrunk in proportion to at most ``maximumFramePixels``. The frame shows in the
    /// window's top-left part.
    public static func frameSize(forWindowWidth width: Int, height: Int) -> (width: Int, height: Int) {
        var w = min(max(width, 1), Bitmap.maximumSide), h = min(max(height, 1), Bitmap.maximumSide)
        if w * h > maximumFramePixels {
            let shrink = (Double(maximumFramePixels) / Double(w * h)).squareRoot()
            w = max(1, Int(Double(w) * shrink))
            h = max(1, Int(Double(h) * shrink))
            while w * h > maximumFramePixels { if w >= h { w -= 1 } else { h -= 1 } }
        }
        return (w, h)
    }

    // MARK: Set-up helpers

    /// Names the window for window managers, taskbars and tools: `WM_NAME` and `_NET_WM_NAME`
    /// (UTF-8) from the title, `WM_CLASS`, and `_NET_WM_PID` with `WM_CLIENT_MACHINE` (EWMH
    /// asks for both, so that a hung client can be killed by its window).
    private static func setIdentity(_ display: OpaquePointer, window: Window, title: String, className: String?) {
        XStoreName(display, window, title)
        let utf8String = XInternAtom(display, "UTF8_STRING", 0)
        var titleBytes = Array(title.utf8)
        XChangeProperty(display, window, XInternAtom(display, "_NET_WM_NAME", 0), utf8String, 8, PropModeReplace,
                        &titleBytes, Int32(titleBytes.count))
        if let className {
            // WM_CLASS is the instance name then the class, each NUL-terminated.
            var bytes = Array(className.utf8) + [0] + Array(className.utf8) + [0]
            XChangeProperty(display, window, predefinedAtomWMClass, predefinedAtomString, 8, PropModeReplace, &bytes, Int32(bytes.count))
        }
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count - 1) == 0 {
            var bytes = host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            XChangeProperty(display, window, predefinedAtomWMClientMachine, predefinedAtomString, 8, PropModeReplace, &bytes, Int32(bytes.count))
        }
        var pid = Int(getpid())  // format 32 properties are passed as C longs
        withUnsafeBytes(of: &pid) { raw in
            _ = XChangeProperty(display, window, XInternAtom(display, "_NET_WM_PID", 0), predefinedAtomCardinal, 32, PropModeReplace,
                                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
    }

    private static func trueColorVisual(_ display: OpaquePointer, screen: Int32) -> (UnsafeMutablePointer<Visual>, Int32)? {
        for depth: Int32 in [24, 32] {
            var info = XVisualInfo()
            guard XMatchVisualInfo(display, screen, depth, TrueColor, &info) != 0, let visual = info.visual else { continue }
            if info.red_mask == 0xFF0000, info.green_mask == 0xFF00, info.blue_mask == 0xFF {
                return (visual, depth)
            }
        }
        return nil
    }

    /// A shared-memory image unless `sharedMemory` already names a reason not to, else a client image.
    private static func makeImage(_ display: OpaquePointer, watch: ConnectionWatch, visual: UnsafeMutablePointer<Visual>, depth: Int32,
                                  width: Int, height: Int, sharedMemory reasonNot: String?) throws(X11Error) -> (any ServerImage, Transport) {
        var reason = reasonNot
        if reason == nil {
            if XShmQueryExtension(display) == 0 {
                reason = "the server has no MIT-SHM extension"
            } else {
                do {
                    return (try SharedMemoryImage(display: display, watch: watch, visual: visual, depth: depth, width: width, height: height), .sharedMemory)
                } catch {
                    switch error {
                    case let .unavailable(why): reason = why
                    case let .layout(layoutError): throw layoutError
                    }
                }
            }
        }
        let image = try ClientImage(display: display, visual: visual, depth: depth, width: width, height: height)
        return (image, .putImage(reason: reason ?? "unknown"))
    }
}

/// Stands in while a frame buffer is being replaced, or when none could be made.
private final class PlaceholderImage: ServerImage {
    nonisolated(unsafe) static let shared = PlaceholderImage()
    let bitmap: Bitmap = try! Bitmap(width: 1, height: 1)
    func put(_ rect: IntRect, display: OpaquePointer, drawable: Drawable, gc: GC, notify: Bool) -> Bool { false }
}

// Predefined atoms (X11/Xatom.h), whose C macros Swift does not import.
private let predefinedAtomCardinal: Atom = 6
private let predefinedAtomString: Atom = 31
private let predefinedAtomWMClientMachine: Atom = 36
private let predefinedAtomWMClass: Atom = 67

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

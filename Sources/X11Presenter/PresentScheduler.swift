// PresentScheduler: frames shown at a chosen vblank, or at once, through the Present extension, from a ring of
// pixmaps (MIT-SHM, or filled with XPutImage on a remote display), and vblank notifications for
// the display link (a frame's own completion when one is queued for that vblank, else NotifyMSC).

internal import CX11
import Raster

/// Presents frames with `PresentPixmap` and reports vblanks and completions.
///
/// Frames are shown from a small ring of pixmaps. A pixmap is written again only after the
/// server has copied it: presents ask for a copy (`PresentOptionCopy`; MIT-SHM pixmaps cannot be
/// flipped to the screen anyway), and the server lets go of a copied (or skipped) pixmap before it
/// sends the present's `CompleteNotify`, so that event frees the pixmap and no `IdleNotify` is
/// asked for. Each present names the damage as its update region, so the server
/// copies only what changed; to keep that true for every pixmap of the ring, a pixmap brought back
/// into use first receives, from the newest frame, the areas that changed while it was away (the
/// "buffer age" of EGL and Vulkan swapchains).
///
/// With MIT-SHM the pixmaps are shared memory: the renderer draws into the pixmap itself and the
/// server copies from it at the vblank (no upload, no tearing). Without it (a remote display, a
/// server that refuses the segment) the renderer draws into one client-side bitmap, which always
/// holds the newest frame, and each present first sends the pixmap what it lacks with `XPutImage`:
/// the damage, and what changed while it was away.
///
/// A frame's loop reads one Present event: a vblank asked for while a frame is queued for that
/// very vblank is answered by that frame's `CompleteNotify` (no `NotifyMSC` is sent). The events
/// come on a connection of their own (``PresentEventConnection``), read into memory allocated
/// once: through libxcb (or Xlib's generic-event cookies, which add a node in libX11 and a decoded
/// copy in libXpresent) each would cost allocations.
final class PresentScheduler {
    /// How frames reach the ring's pixmaps.
    enum Upload: Equatable {
        /// The pixmaps are MIT-SHM segments the renderer draws into.
        case sharedMemory
        /// Server-side pixmaps, filled from one client bitmap with `XPutImage`.
        case putImage
    }

    private static let ringSize = 3
    /// Bounding the stale list keeps the catch-up copy allocation-free.
    private static let staleLimit = 16

    let upload: Upload
    private let display: OpaquePointer
    private let window: Window
    private let depth: Int32
    private let watch: ConnectionWatch
    let opcode: Int32
    /// Where this window's completions arrive (its owner opens and closes it).
    private let events: PresentEventConnection
    /// Whether the event connection was lost: no completion or vblank will come any more.
    private(set) var eventsLost = false
    /// How many Present events were read.
    private(set) var eventsRead = 0
    /// The presents whose completions answer vblank requests, oldest first: each was queued for
    /// the vblank asked for, so no `NotifyMSC` was sent. Every request is answered, as a
    /// `NotifyMSC` would be, not only the last: while the timer stands in for vblanks that
    /// stopped, the link asks at each of its ticks, and when the timer's grid runs ahead of the
    /// server's vblanks every answer arrives after the next tick's request. Answering only the
    /// last then never answered at all, and the link stayed on its timer for good.
    private var vblankStandIns: [UInt32] = []
    /// Enough for every present the ring can have queued, and for requests that outlive their
    /// pixmaps (abandoned to a server that stopped answering); the oldest are forgotten first.
    private static let standInLimit = 8
    /// How many vblanks were asked for with `NotifyMSC` (not answered by a frame's completion).
    private(set) var notifiesSent = 0
    private let region: XserverRegion
    private var ring: [Buffer] = []
    /// With ``Upload/putImage``: the bitmap every frame is drawn into (it keeps the newest frame).
    private var clientImage: ClientImage?
    /// With ``Upload/putImage``: the context `XPutImage` writes the pixmaps with.
    private var uploadGC: GC?
    private var acquired: Int?
    private var newest: Int?
    private var serial: UInt32 = 0
    /// The newest pixmap present whose `CompleteNotify` has not arrived (the server may still
    /// hold it for its vblank), and the vblank it was sent for (0: the next one); `atOnce` when
    /// it was shown as the server read it (``presentAtOnce(damage:)``), so that nothing sent
    /// after it can be shown before it.
    private var unfinished: (serial: UInt32, msc: UInt64, atOnce: Bool)?
    private var rectangles: [XRectangle] = []

    final class Buffer {
        let pixmap: Pixmap
        /// The shared memory the pixmap is made of; nil with ``Upload/putImage``.
        let image: SharedMemoryImage?
        var isIdle = true
        var serial: UInt32 = 0
        /// Areas newer frames changed since this buffer's frame: copied in before it is drawn
        /// again (MIT-SHM), or sent with the next frame shown from it (`XPutImage`).
        var stale: [IntRect] = []

        init(pixmap: Pixmap, image: SharedMemoryImage?) {
            self.pixmap = pixmap
            self.image = image
            stale.reserveCapacity(PresentScheduler.staleLimit + 1)
        }
    }

    /// Why Present cannot be used on `display`, or nil when it can (see ``offersSharedPixmaps(_:)``
    /// for how frames reach its pixmaps).
    static func unavailability(_ display: OpaquePointer) -> String? {
        var opcode: Int32 = 0, eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XPresentQueryExtension(display, &opcode, &eventBase, &errorBase) != 0 else {
            return "the server has no Present extension"
        }
        var major: Int32 = 0, minor: Int32 = 0
        guard XFixesQueryExtension(display, &eventBase, &errorBase) != 0, XFixesQueryVersion(display, &major, &minor) != 0, major >= 2 else {
            return "the server has no XFixes 2 (update regions)"
        }
        // Present's events are generic events: without that extension (Xvfb can turn it off,
        // though not Present itself) no completion or vblank would ever arrive.
        var geOpcode: Int32 = 0
        guard XQueryExtension(display, "Generic Event Extension", &geOpcode, &eventBase, &errorBase) != 0 else {
            return "the server has no Generic Event Extension to deliver Present's events"
        }
        return nil
    }

    /// Whether `display` makes pixmaps of MIT-SHM segments in the frame buffer's layout.
    static func offersSharedPixmaps(_ display: OpaquePointer) -> Bool {
        var major: Int32 = 0, minor: Int32 = 0, sharedPixmaps: Int32 = 0
        return XShmQueryVersion(display, &major, &minor, &sharedPixmaps) != 0 && sharedPixmaps != 0 && XShmPixmapFormat(display) == ZPixmap
    }

    /// Sets up Present on `window`, its frames reaching the pixmaps by `upload`. The caller
    /// checked ``unavailability(_:)``.
    init(display: OpaquePointer, watch: ConnectionWatch, window: Window, events: PresentEventConnection,
         visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int, upload: Upload) throws(SharedMemoryImage.Failure) {
        var opcode: Int32 = 0, eventBase: Int32 = 0, errorBase: Int32 = 0
        _ = XPresentQueryExtension(display, &opcode, &eventBase, &errorBase)
        var major: Int32 = 0, minor: Int32 = 0
        _ = XPresentQueryVersion(display, &major, &minor)
        self.display = display
        self.window = window
        self.depth = depth
        self.watch = watch
        self.opcode = opcode
        self.upload = upload
        self.events = events
        if upload == .putImage { uploadGC = XCreateGC(display, window, 0, nil) }
        region = XFixesCreateRegion(display, nil, 0)
        rectangles.reserveCapacity(64)
        vblankStandIns.reserveCapacity(Self.standInLimit)
        try makeRing(visual: visual, width: width, height: height)
    }

    /// Frees the pixmaps and the region; the window is still there.
    func close() {
        releaseRing()
        // On a lost connection Xlib must not be called; the server freed everything anyway.
        if !watch.isLost {
            XFixesDestroyRegion(display, region)
            if let uploadGC { XFreeGC(display, uploadGC) }
        }
        uploadGC = nil
        isClosed = true
    }

    private var isClosed = false

    deinit { releaseRing() }

    /// Replaces the ring with one of the new size (the old pixmaps must be idle or abandoned).
    func resize(visual: UnsafeMutablePointer<Visual>, width: Int, height: Int) throws(SharedMemoryImage.Failure) {
        releaseRing()
        try makeRing(visual: visual, width: width, height: height)
    }

    /// The size of the ring's pixmaps.
    private(set) var size = (width: 0, height: 0)

    private func makeRing(visual: UnsafeMutablePointer<Visual>, width: Int, height: Int) throws(SharedMemoryImage.Failure) {
        size = (width, height)
        var made: [Buffer] = []
        switch upload {
        case .sharedMemory:
            for _ in 0..<Self.ringSize {
                let image = try SharedMemoryImage(display: display, watch: watch, visual: visual, depth: depth, width: width, height: height)
                let pixmap = XShmCreatePixmap(display, window, image.info.pointee.shmaddr, image.info, UInt32(width), UInt32(height), UInt32(depth))
                made.append(Buffer(pixmap: pixmap, image: image))
            }
        case .putImage:
            do {
                clientImage = try ClientImage(display: display, visual: visual, depth: depth, width: width, height: height)
            } catch {
                throw .layout(error)
            }
            for _ in 0..<Self.ringSize {
                let buffer = Buffer(pixmap: XCreatePixmap(display, window, UInt32(width), UInt32(height), UInt32(depth)), image: nil)
                // A new pixmap's contents are undefined: its first frame sends all of it.
                buffer.stale.append(IntRect(x: 0, y: 0, width: width, height: height))
                made.append(buffer)
            }
        }
        ring = made
        acquired = nil
        newest = nil
    }

    private func releaseRing() {
        if !watch.isLost { for buffer in ring { XFreePixmap(display, buffer.pixmap) } }
        ring.removeAll()
        clientImage = nil
        acquired = nil
        newest = nil
    }

    /// Whether a buffer can be drawn into now.
    var hasIdleBuffer: Bool {
        acquired != nil || ring.contains { $0.isIdle }
    }

    /// The bitmap to draw the next frame into: an idle buffer, brought up to the newest frame.
    /// Call when ``hasIdleBuffer`` (else the oldest busy buffer is taken anyway).
    ///
    /// The newest frame's own buffer is taken when the server has let go of it (frames shown at
    /// once complete as soon as the server reads them): it needs no catch-up copy. Otherwise the
    /// idle buffer presented longest ago.
    func acquire() -> Bitmap {
        if let acquired { return bitmap(of: ring[acquired]) }
        var pick: Int?
        if let newest, ring[newest].isIdle {
            pick = newest
        } else {
            for (i, buffer) in ring.enumerated() where buffer.isIdle {
                if pick == nil || buffer.serial < ring[pick!].serial { pick = i }
            }
        }
        let index = pick ?? ring.indices.min { ring[$0].serial < ring[$1].serial }!
        let buffer = ring[index]
        // With XPutImage the stale areas go with the present; the client bitmap is up to date.
        if let image = buffer.image {
            if let newest, newest != index, let source = ring[newest].image?.bitmap {
                for rect in buffer.stale { image.bitmap.copy(rect, from: source) }
            }
            buffer.stale.removeAll(keepingCapacity: true)
        }
        acquired = index
        return bitmap(of: buffer)
    }

    /// What the renderer draws into for `buffer`.
    private func bitmap(of buffer: Buffer) -> Bitmap {
        buffer.image?.bitmap ?? clientImage!.bitmap
    }

    /// Whether a pixmap present sent earlier may still be waiting in the server for its vblank.
    var hasUnfinishedPresent: Bool { unfinished != nil }

    /// The newest vblank counter a completion has reported: a vblank known to have passed.
    private var latestMSC: UInt64 = 0

    /// Whether a present for vblank `msc` sent now could be shown at the same vblank as the
    /// unfinished one, and so before it: the server runs each present queued for a vblank on its
    /// own timer (Xvfb), in no set order, and skips none that has an update region. The older
    /// frame, shown last, then puts back its pixels where the newer one changed them. That is
    /// the case when the older one's target is the next vblank, whichever it is (0), or has
    /// passed (so it runs at the next one), and this one's target is no later than the next.
    /// A burst of frames (steps while paused, keys pressed together) left pieces of older frames
    /// on screen that way. The caller waits for the older present's completion first. An older
    /// present shown at once was shown when the server read it: no later one can overtake it.
    func mayOvertakeUnfinishedPresent(atMSC msc: UInt64) -> Bool {
        guard let older = unfinished, !older.atOnce else { return false }
        return older.msc == 0 || max(msc, older.msc + 1) <= latestMSC + 1
    }

    /// Whether a present shown at once, sent now, could be shown before the unfinished one: when
    /// that one waits in the server for a vblank. The caller waits for its completion first.
    var mayOvertakeUnfinishedPresentAtOnce: Bool {
        guard let older = unfinished else { return false }
        return !older.atOnce
    }

    /// Lets the next present go without the completion of the unfinished one: the server never
    /// sent it in time (it is not answering).
    func forgetUnfinishedPresent() { unfinished = nil }

    /// Presents the acquired buffer at vblank `msc` (0: the next one) with `damage` as the update
    /// region; returns the present's serial, or nil when nothing was acquired or nothing changed.
    /// `lateAtOnce`: a present that reaches the server when `msc` is already its current vblank is
    /// shown at once rather than at the vblank after (`PresentOptionAsync`; it could tear on a
    /// real scanout).
    ///
    /// While an earlier present may still wait for its vblank, this one is shown after it: not at
    /// once (the older frame would cover it when its vblank came) and not at the same vblank
    /// (Xvfb runs each present's vblank on its own millisecond timer, and a later one can fire
    /// first), but at `msc` or the vblank after the older one's, whichever is later. Otherwise
    /// a step drawn just after pausing could stay hidden behind the paused picture.
    func present(damage: [IntRect], atMSC msc: UInt64, lateAtOnce: Bool = false) -> UInt32? {
        var target = msc
        var async = lateAtOnce
        if let older = unfinished, !older.atOnce {
            async = false
            if older.msc > 0 { target = max(msc, older.msc + 1) }
        }
        return send(damage: damage, target: target, async: async, atOnce: false)
    }

    /// Presents the acquired buffer at once, as a blit would show it: `PresentOptionAsync` for the
    /// vblank current when the server reads the request, which it then copies at once (it can tear
    /// on a real scanout, as a blit can). Its `CompleteNotify` follows at once on the event
    /// connection and frees the pixmap: a frame shown at once costs no event on the window's own
    /// connection, whose events libxcb allocates (a blit's `ShmCompletion` is one). Returns the
    /// present's serial, or nil when nothing was acquired or nothing changed. The caller first
    /// waits for an unfinished present queued for a vblank
    /// (``mayOvertakeUnfinishedPresentAtOnce``), which would otherwise cover this frame.
    func presentAtOnce(damage: [IntRect]) -> UInt32? {
        send(damage: damage, target: 0, async: true, atOnce: true)
    }

    private func send(damage: [IntRect], target: UInt64, async: Bool, atOnce: Bool) -> UInt32? {
        guard let index = acquired else { return nil }
        let buffer = ring[index]
        let bounds = bitmap(of: buffer).bounds
        rectangles.removeAll(keepingCapacity: true)
        for rect in damage {
            let r = rect.intersection(bounds)
            guard !r.isEmpty else { continue }
            rectangles.append(XRectangle(x: Int16(r.x), y: Int16(r.y), width: UInt16(r.width), height: UInt16(r.height)))
            for other in ring.indices where other != index { markStale(ring[other], r) }
        }
        guard !rectangles.isEmpty else { return nil }
        if let clientImage, let uploadGC {
            for rect in buffer.stale where !rect.intersection(bounds).isEmpty {
                _ = clientImage.put(rect.intersection(bounds), display: display, drawable: buffer.pixmap, gc: uploadGC, notify: false)
            }
            buffer.stale.removeAll(keepingCapacity: true)
            for r in rectangles {
                let rect = IntRect(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height))
                _ = clientImage.put(rect, display: display, drawable: buffer.pixmap, gc: uploadGC, notify: false)
            }
        }
        acquired = nil
        newest = index
        serial &+= 1
        buffer.serial = serial
        buffer.isIdle = false
        rectangles.withUnsafeMutableBufferPointer { XFixesSetRegion(display, region, $0.baseAddress, Int32($0.count)) }
        XPresentPixmap(display, window, buffer.pixmap, serial, 0, region, 0, 0, 0, 0, 0,
                       UInt32(PresentOptionCopy | (async ? PresentOptionAsync : PresentOptionNone)), target, 0, 0, nil, 0)
        XFlush(display)
        unfinished = (serial, target, atOnce)
        return serial
    }

    private func markStale(_ buffer: Buffer, _ rect: IntRect) {
        if buffer.stale.count >= Self.staleLimit {
            let all = buffer.stale.reduce(rect) { $0.union($1) }
            buffer.stale.removeAll(keepingCapacity: true)
            buffer.stale.append(all)
        } else {
            buffer.stale.append(rect)
        }
    }

    /// Asks to be told of vblank `msc` (0: the next one), or at once with the current one if past.
    ///
    /// When the newest present waits for that very vblank, its completion will tell: it comes at
    /// that vblank with its time and counter, as a `NotifyMSC` would (on a server that rounds its
    /// counter, a present that finds its vblank current is shown at once and stamped then, just
    /// as a `NotifyMSC` with no divisor is), so nothing is sent and one event a frame is saved.
    /// Earlier requests are still answered, whichever way they were asked.
    func requestVblank(atOrAfter msc: UInt64) {
        if msc > 0, let unfinished, unfinished.msc == msc {
            guard vblankStandIns.last != unfinished.serial else { return }
            if vblankStandIns.count == Self.standInLimit { vblankStandIns.removeFirst() }
            vblankStandIns.append(unfinished.serial)
            return
        }
        notifiesSent += 1
        serial &+= 1
        XPresentNotifyMSC(display, window, serial, msc, 0, 0)
        XFlush(display)
    }

    /// Copies the newest frame into `bitmap` when it is of the ring's size (frames blitted
    /// after Present stops go on from it); false when there is none to copy.
    func copyNewestFrame(into bitmap: Bitmap) -> Bool {
        guard let newest, bitmap.width == size.width, bitmap.height == size.height else { return false }
        bitmap.copy(bitmap.bounds, from: self.bitmap(of: ring[newest]))
        return true
    }

    /// Copies `rect` of the newest frame to the window again (after an Expose).
    func reblit(_ rect: IntRect, gc: GC) {
        guard let newest else { return }
        let r = rect.intersection(bitmap(of: ring[newest]).bounds)
        guard !r.isEmpty else { return }
        XCopyArea(display, ring[newest].pixmap, window, gc, Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height), Int32(r.x), Int32(r.y))
    }

    /// Appends the window's Present events that have arrived (reading the event connection's
    /// socket until it has no more, without blocking) to `events`: ``WindowEvent/vblank(_:)``
    /// for a `NotifyMSC`, ``WindowEvent/presented(serial:timing:skipped:)`` for a present, followed
    /// by ``WindowEvent/vblank(_:)`` when that present answers a vblank asked for. A present's
    /// completion also frees its pixmap. When the event connection is lost, ``eventsLost`` turns
    /// true and every pixmap is taken back, as nothing will free them any more.
    func readEvents(into events: inout [WindowEvent]) {
        guard !isClosed, !eventsLost, !watch.isLost else { return }
        var event = CX11_PresentEvent()
        while true {
            switch self.events.next(&event) {
            case .event: eventsRead += 1
            case .none: return
            case .lost:
                eventsLost = true
                abandonBusyBuffers()
                unfinished = nil
                vblankStandIns.removeAll(keepingCapacity: true)
                return
            }
            guard event.evtype == XCB_PRESENT_COMPLETE_NOTIFY, event.window == UInt32(truncatingIfNeeded: window) else { continue }
            let timing = PresentTiming(ust: event.ust, msc: event.msc)
            latestMSC = max(latestMSC, event.msc)
            if event.kind == UInt8(PresentCompleteKindNotifyMSC) {
                events.append(.vblank(timing))
                continue
            }
            // Presents complete in the order they were sent, unless one overtook another.
            if event.serial == unfinished?.serial { unfinished = nil }
            // Copied or skipped, the pixmap is the server's no more (unless presented again since).
            for buffer in ring where buffer.serial == event.serial { buffer.isIdle = true }
            events.append(.presented(serial: event.serial, timing: timing, skipped: event.mode == UInt8(PresentCompleteModeSkip)))
            if let answer = vblankStandIns.firstIndex(of: event.serial) {
                vblankStandIns.remove(at: answer)
                events.append(.vblank(timing))
            }
        }
    }

    /// Marks every buffer idle: the server never said so in time (it is not answering).
    func abandonBusyBuffers() {
        for buffer in ring { buffer.isIdle = true }
    }
}

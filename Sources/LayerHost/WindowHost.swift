// WindowHost: the one frame loop with a window: events, the next deadline, draw, present.

import DisplayClock
import LiveLayers
import Raster
import X11Presenter

/// Shows a layer tree (or any ``FrameSource``) in an X11 window, driven by a display link.
///
/// One thread does everything (Xlib, layers, rendering): the host blocks in a single wait on
/// the X connection, any descriptors given to ``watch(_:)``, and the next deadline. While
/// nothing animates, or the window is unmapped, the link is paused and the wait is on the
/// descriptors alone (or until a delayed animation begins), so an idle host uses no CPU.
///
/// With ``tickOnVblanks()``, the link ticks on the X server's vblanks through the Present
/// extension: the frame drawn at a tick is presented at the next tick's vblank, and its
/// completion, which arrives on the X connection at that vblank, both tells the link which vblank
/// showed it and runs the next tick (a NotifyMSC asks for vblanks no frame waits for). The link's deadline is then only its watchdog, which hands over to the
/// timer if vblanks stop.
///
/// ```swift
/// let root = Layer()
/// let host = try WindowHost(title: "Hello", width: 640, height: 480, rootLayer: root)
/// try host.run()
/// ```
@MainActor
public final class WindowHost {
    /// What ended a run, or failed to start one.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The window could not be opened.
        case window(X11Error)
        /// The wait for events and deadlines failed.
        case wait(FrameWaiter.Error)

        public var description: String {
            switch self {
            case let .window(error): "\(error)"
            case let .wait(error): "\(error)"
            }
        }
    }

    /// The window frames are shown in.
    public let window: X11Window
    /// The display link whose ticks draw frames.
    public let link: DisplayLink
    /// What the frames show.
    public let source: any FrameSource
    /// Called at each tick of the link, before the frame is drawn (as a `CADisplayLink` target).
    /// While it is set, the link ticks at every refresh, as a `CADisplayLink` added to a run
    /// loop does; without it, only when the source has a frame due.
    public var onFrame: ((DisplayLink.Frame) -> Void)?
    /// Called for each window event, in the server's order, after the host has handled it.
    public var onEvent: ((WindowEvent) -> Void)?
    /// Called after each wake-up of the loop, before the link is serviced (for descriptors
    /// given to ``watch(_:)``).
    public var onWake: (() -> Void)?
    /// Called when the display reports the vblank a frame (by its link frame index) was shown at.
    public var onFrameShown: ((_ frameIndex: Int, _ msc: Int64) -> Void)?
    /// Whether the window is unmapped or iconified (nothing drawn would be seen).
    public private(set) var isHidden = false
    /// Whether ``run()`` is looping.
    public private(set) var isRunning = false
    /// While a tick that a vblank report ran is being handled, that vblank (when the display
    /// refreshed, and its counter); nil for ticks of the timer. For measuring how long after the
    /// vblank a frame began.
    public private(set) var tickingVblank: Vblank?
    private var watched: [Int32] = []
    private var events: [WindowEvent] = []
    private var stopRequested = false
    private var vblanks: WindowVblanks?
    private var presented = PresentedFrames()
    private var lastTargetMSC: UInt64 = 0

    /// A host for `source` in `window`, ticking on `link`.
    public init(window: X11Window, link: DisplayLink, source: any FrameSource) {
        self.window = window
        self.link = link
        self.source = source
        events.reserveCapacity(32)
    }

    /// Opens a window titled `title` of `width` × `height` pixels showing `rootLayer`, on a
    /// 60 Hz display link.
    /// - Throws: ``Error/window(_:)`` when the display cannot be opened or used.
    public convenience init(title: String, width: Int, height: Int, rootLayer: Layer,
                            displayName: String? = nil, clearColor: Color = .black) throws(Error) {
        let window: X11Window
        do {
            window = try X11Window(.init(displayName: displayName, title: title, width: width, height: height))
        } catch {
            throw .window(error)
        }
        self.init(window: window, link: DisplayLink(refreshRate: 60), source: LayerTreeSource(rootLayer: rootLayer, clearColor: clearColor))
    }

    /// Ticks the link on the window's Present vblanks, if the window presents through Present
    /// (see ``X11Window/presentation``). Returns whether it does.
    @discardableResult
    public func tickOnVblanks() -> Bool {
        guard window.presentation == .present, !link.isUnthrottled else { return false }
        let vblanks = WindowVblanks(window: window)
        self.vblanks = vblanks
        link.tickOnVblanks(from: vblanks)
        return true
    }

    /// Also wakes the loop when `descriptor` is readable; ``onWake`` then looks at it.
    public func watch(_ descriptor: Int32) { watched.append(descriptor) }

    /// Ends ``run()`` after the current step. Closing the window, its destruction and the
    /// loss of the X connection stop the run too.
    public func stop() { stopRequested = true }

    /// Runs the frame loop until ``stop()``, the window is closed or destroyed, or the
    /// connection to the X server is lost (each also delivered to ``onEvent``).
    /// - Throws: ``Error/wait(_:)`` when waiting fails.
    public func run() throws(Error) {
        let waiter: FrameWaiter
        do { waiter = try FrameWaiter() } catch { throw .wait(error) }
        waiter.watch(window.connectionFileDescriptor)
        for descriptor in watched { waiter.watch(descriptor) }
        link.handler = { [unowned self] frame in self.tick(frame) }
        defer { link.handler = nil }
        isRunning = true
        defer { isRunning = false }
        while !stopRequested {
            window.processEvents(into: &events)
            for event in events { handle(event) }
            events.removeAll(keepingCapacity: true)
            guard !stopRequested else { break }
            let now = link.clock.now()
            let due = isHidden ? .infinity : onFrame != nil ? now : source.nextFrameTime(now: now)
            link.isPaused = due > now
            // Events read from the socket while handling the last batch are not on the descriptor.
            if window.hasQueuedEvents { continue }
            let deadline = link.isPaused ? (due.isFinite ? due : nil) : link.nextDeadline
            do { try waiter.wait(until: deadline) } catch { throw .wait(error) }
            onWake?()
            guard !stopRequested else { break }
            // Events first: a vblank waiting on the socket must reach the link before its
            // watchdog, due at about the same time, takes it for a missing one.
            if vblanks != nil, waiter.isReadable(window.connectionFileDescriptor) { continue }
            if !link.isPaused { _ = link.service() }
        }
        stopRequested = false
    }

    /// Draws a frame at `mediaTime` now, outside the link's ticks (a step while paused, a
    /// redraw before a screenshot), and presents it.
    public func drawFrame(at mediaTime: Double) {
        draw(mediaTime: mediaTime, frame: nil)
    }

    private func tick(_ frame: DisplayLink.Frame) {
        onFrame?(frame)
        draw(mediaTime: source.mediaTime(for: frame), frame: frame)
    }

    /// Draws and shows a frame: with vblanks, at the vblank of the link's next tick (the next
    /// vblank for frames no tick asked for), else at once.
    private func draw(mediaTime: Double, frame: DisplayLink.Frame?) {
        let target = window.acquireFrameBuffer()
        let damage = source.drawFrame(at: mediaTime, into: target)
        let start = link.clock.now()
        if vblanks != nil {
            // Targets never go back: Present shows queued frames in vblank order, so a frame
            // aimed before one already queued (ticks re-anchored when vblanks came back after
            // the timer stood in) would be overtaken by the older frame.
            let msc = max(frame?.targetMSC.map { UInt64(max(0, $0)) } ?? 0, lastTargetMSC)
            lastTargetMSC = msc
            if let serial = window.present(damage: damage, atMSC: msc), let frame {
                presented.record(serial: serial, frameIndex: frame.frameIndex)
            }
        } else {
            window.present(damage: damage)
        }
        source.framePresented(blitDuration: link.clock.now() - start)
    }

    private func handle(_ event: WindowEvent) {
        switch event {
        case .close, .destroyed, .connectionLost: stopRequested = true
        case let .resize(width, height):
            // The frame buffer is clamped to the largest bitmap; the source draws at its size.
            let frame = X11Window.frameSize(forWindowWidth: width, height: height)
            source.frameBufferResized(width: frame.width, height: frame.height)
        case .expose, .shown: isHidden = false  // the window re-blitted exposed areas from the last frame
        case .hidden: isHidden = true
        case let .vblank(timing):
            tickingVblank = Vblank(ustMicroseconds: timing.ust, msc: timing.msc)
            link.receiveVblank(tickingVblank!)
            tickingVblank = nil
        case let .presented(serial, timing, skipped):
            guard let frameIndex = presented.take(serial: serial) else { break }
            link.presentationCompleted(frameIndex: frameIndex, msc: skipped ? nil : Int64(timing.msc))
            if !skipped { onFrameShown?(frameIndex, Int64(timing.msc)) }
        default: break  // input: for onEvent
        }
        onEvent?(event)
    }
}

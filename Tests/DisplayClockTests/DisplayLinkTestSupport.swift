import DisplayClock

/// A link on a virtual clock that records every frame it delivers.
final class LinkHarness {
    let clock: VirtualClock
    let link: DisplayLink
    private(set) var frames: [DisplayLink.Frame] = []
    /// Runs inside the handler, after the frame is recorded (to simulate work, pause, ...).
    var onFrame: (DisplayLink.Frame) -> Void = { _ in }

    init(refreshRate: Double = 60, start: Double = 0) {
        let clock = VirtualClock(now: start)
        self.clock = clock
        link = DisplayLink(refreshRate: refreshRate, clock: clock)
        link.handler = { [unowned self] frame in
            frames.append(frame)
            onFrame(frame)
        }
    }

    /// Waits for the next deadline (jumping to it) and services the link; returns the frame delivered.
    @discardableResult
    func step(lateBy lateness: Double = 0) -> DisplayLink.Frame? {
        guard let deadline = link.nextDeadline else { return nil }
        clock.wait(until: deadline)
        clock.advance(by: lateness)
        return link.service() ? frames.last : nil
    }
}

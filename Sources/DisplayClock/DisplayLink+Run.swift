// DisplayLink.run(until:): the simplest frame loop, for users with nothing else to wait on.

extension DisplayLink {
    /// Delivers frames until the clock reaches `endTime`, sleeping on ``clock`` between them (an
    /// absolute wait for each deadline, never a spin). Returns early, at once, when the link is
    /// paused or invalidated, since nothing would then wake it: a player with other event
    /// sources uses ``nextDeadline``, a ``FrameWaiter`` and ``service()`` instead.
    public func run(until endTime: Double) {
        while let deadline = nextDeadline {
            if deadline > endTime {
                clock.wait(until: endTime)
                return
            }
            clock.wait(until: deadline)
            service()
        }
    }
}

import DisplayClock
import Glibc
import Testing

/// The shared wait uses the real clock; it asserts only on order, never on durations.
@Suite struct FrameWaiterTests {
    private func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func readableDescriptorEndsTheWaitBeforeTheDeadline() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        let waiter = try FrameWaiter()
        waiter.watch(readEnd)
        var byte: UInt8 = 1
        #expect(write(writeEnd, &byte, 1) == 1)
        let deadline = CACurrentMediaTime() + 60
        let wake = try waiter.wait(until: deadline)
        #expect(wake == .readable)
        #expect(waiter.isReadable(readEnd))
        #expect(CACurrentMediaTime() < deadline)
    }

    @Test func deadlineEndsTheWaitWhenNothingIsReadable() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        let waiter = try FrameWaiter()
        waiter.watch(readEnd)
        let deadline = CACurrentMediaTime() + 0.005
        let wake = try waiter.wait(until: deadline)
        #expect(wake == .deadline)
        #expect(!waiter.isReadable(readEnd))
        #expect(CACurrentMediaTime() >= deadline)

        // A deadline already past returns at once, again and again.
        #expect(try waiter.wait(until: deadline) == .deadline)
        #expect(try waiter.wait(until: 0) == .deadline)
    }

    @Test func noDeadlineWaitsOnDescriptorsOnly() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        let waiter = try FrameWaiter()
        waiter.watch(readEnd)
        waiter.watch(readEnd)
        #expect(waiter.watchedDescriptors == [readEnd])
        close(writeEnd)  // hang-up counts as readable, so the read reports it
        #expect(try waiter.wait(until: nil) == .readable)
        waiter.unwatch(readEnd)
        #expect(waiter.watchedDescriptors.isEmpty)
    }

    @Test func nothingToWaitForIsAnError() throws {
        let waiter = try FrameWaiter()
        #expect(throws: FrameWaiter.Error.nothingToWaitFor) { try waiter.wait(until: nil) }
        #expect(throws: FrameWaiter.Error.nothingToWaitFor) { try waiter.wait(until: .nan) }
        #expect(throws: FrameWaiter.Error.nothingToWaitFor) { try waiter.wait(until: .infinity) }
        #expect(try waiter.wait(until: -.infinity) == .deadline)
    }

    @Test func drivesADisplayLinkOnTheMonotonicClock() throws {
        let waiter = try FrameWaiter()
        let link = DisplayLink(refreshRate: 1000)
        var frames = 0
        link.handler = { _ in frames += 1 }
        while frames < 5 {
            try waiter.wait(until: link.nextDeadline)
            link.service()
        }
        #expect(link.statistics.framesDelivered == 5)
        #expect(link.lastFrame!.wakeTime >= link.lastFrame!.timestamp)
    }
}

@Suite struct MonotonicClockTests {
    @Test func waitReturnsAtOrAfterTheDeadline() {
        let clock = MonotonicClock()
        let deadline = clock.now() + 0.002
        clock.wait(until: deadline)
        #expect(clock.now() >= deadline)
        clock.wait(until: .infinity)  // returns: an endless sleep is never meant
    }

    @Test func timerSlackCanBeLowered() throws {
        let before = try #require(TimerSlack.current)
        defer { TimerSlack.set(nanoseconds: before) }
        #expect(TimerSlack.set(nanoseconds: 1))
        #expect(TimerSlack.current == 1)
        #expect(!TimerSlack.set(nanoseconds: 0))

        TimerSlack.set(nanoseconds: 50_000)
        MonotonicClock(timerSlack: nil).wait(until: 0)
        #expect(TimerSlack.current == 50_000)
        MonotonicClock().wait(until: 0)
        #expect(TimerSlack.current == 1)
    }

    /// Granted only with the privilege (root or CAP_SYS_NICE); either way the thread ends normal.
    @Test func realtimeSchedulingIsRestored() {
        if RealtimeScheduling.request(priority: 1) {
            #expect(RealtimeScheduling.isActive)
        }
        RealtimeScheduling.restoreNormal()
        #expect(!RealtimeScheduling.isActive)
        #expect(!RealtimeScheduling.request(priority: 0))
    }
}

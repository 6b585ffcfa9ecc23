// FrameWaiter: one blocking wait on file descriptors and the next frame deadline together.

#if canImport(Glibc)
import Glibc
#endif

/// Waits for any of a set of file descriptors to become readable or for an absolute deadline,
/// whichever comes first, in one `poll` call: the way a player shares its thread between X events
/// and a ``DisplayLink``.
///
/// ```swift
/// let waiter = try FrameWaiter()
/// waiter.watch(connectionDescriptor)
/// while running {
///     let wake = try waiter.wait(until: link.nextDeadline)   // nil when paused: fds only, no CPU
///     if waiter.isReadable(connectionDescriptor) { handleEvents() }
///     link.service()
/// }
/// ```
///
/// The deadline is a timerfd armed for the absolute instant on `CLOCK_MONOTONIC` (the time base of
/// ``CACurrentMediaTime()`` and ``MonotonicClock``) and polled beside the watched descriptors, so an
/// interrupted wait resumes against the same instant and timer slack does not delay it.
///
/// A waiter belongs to one thread. Waiting allocates nothing once the watched set is built.
public final class FrameWaiter {
    /// Why a wait could not happen.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing is watched and there is no deadline: the wait would never return.
        case nothingToWaitFor
        /// A system call failed with `errno`.
        case system(call: String, errno: Int32)

        public var description: String {
            switch self {
            case .nothingToWaitFor: "FrameWaiter: no descriptors and no deadline, the wait would never end"
            case let .system(call, code): "FrameWaiter: \(call) failed: \(String(cString: strerror(code))) (errno \(code))"
            }
        }
    }

    /// What ended a wait. Both can be true when the deadline and an event arrive together.
    public struct Wake: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The deadline has been reached.
        public static let deadline = Wake(rawValue: 1)
        /// At least one watched descriptor is readable (or hung up / in error, so that a read
        /// reports it).
        public static let readable = Wake(rawValue: 2)
    }

    private let timer: AbsoluteTimer
    /// Slot 0 is the timer; the watched descriptors follow.
    private var pollSet: [pollfd]

    public init() throws(Error) {
        timer = try AbsoluteTimer()
        pollSet = [pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0)]
    }

    /// The descriptors being watched, in the order they were added.
    public var watchedDescriptors: [Int32] {
        pollSet.dropFirst().map(\.fd)
    }

    /// Adds `descriptor` to the set waited on (once; watching it again changes nothing).
    public func watch(_ descriptor: Int32) {
        guard descriptor >= 0, !pollSet.dropFirst().contains(where: { $0.fd == descriptor }) else { return }
        pollSet.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
    }

    /// Removes `descriptor` from the set waited on.
    public func unwatch(_ descriptor: Int32) {
        if let index = pollSet.indices.dropFirst().first(where: { pollSet[$0].fd == descriptor }) {
            pollSet.remove(at: index)
        }
    }

    /// Whether `descriptor` was readable when the last wait returned.
    public func isReadable(_ descriptor: Int32) -> Bool {
        pollSet.dropFirst().contains { $0.fd == descriptor && $0.revents & readyEvents != 0 }
    }

    /// Blocks until a watched descriptor is readable or `CLOCK_MONOTONIC` reaches `deadline`.
    ///
    /// - Parameter deadline: an absolute time in seconds of ``CACurrentMediaTime()``, or `nil` to
    ///   wait for descriptors only (a paused display link then costs no CPU). A deadline already
    ///   past returns at once; NaN and +∞ count as no deadline.
    /// - Returns: what ended the wait; query ``isReadable(_:)`` for which descriptors.
    /// - Throws: ``Error/nothingToWaitFor`` when there is neither a descriptor nor a deadline.
    @discardableResult
    public func wait(until deadline: Double?) throws(Error) -> Wake {
        // NaN and +∞ are no deadline at all; -∞ is long past.
        let deadline = deadline.flatMap { $0.isNaN || $0 == .infinity ? nil : $0 }
        guard deadline != nil || pollSet.count > 1 else { throw .nothingToWaitFor }
        if let deadline {
            try timer.arm(at: deadline)
            pollSet[0].fd = timer.descriptor
        } else {
            timer.disarm()
            pollSet[0].fd = -1  // poll ignores negative descriptors
        }
        for index in pollSet.indices { pollSet[index].revents = 0 }

        while true {
            let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
            if ready >= 0 { break }
            guard errno == EINTR else { throw .system(call: "poll", errno: errno) }
        }

        var wake: Wake = []
        if pollSet[0].revents & readyEvents != 0 {
            timer.acknowledge()
            wake.insert(.deadline)
        } else if let deadline, CACurrentMediaTime() >= deadline {
            wake.insert(.deadline)
        }
        if pollSet.dropFirst().contains(where: { $0.revents & readyEvents != 0 }) {
            wake.insert(.readable)
        }
        return wake
    }

    private var readyEvents: Int16 { Int16(POLLIN | POLLHUP | POLLERR) }
}

import Testing
import Foundation
import LiveLayers

/// The layer runtime belongs to the main thread; an update from another thread stops the
/// process with a message instead of racing with the main thread.
@Suite struct RuntimeThreadTests {
    @Test func advancingTheClockOffTheMainThreadStops() async {
        await #expect(processExitsWith: .failure) {
            let advance: @MainActor () -> Void = { LayerClock.advance(to: 1) }
            // Around the compiler's checks, as a C library's callback thread would be.
            let unchecked = unsafeBitCast(advance, to: (@Sendable () -> Void).self)
            let done = DispatchSemaphore(value: 0)
            Thread { unchecked(); done.signal() }.start()
            done.wait()
        }
    }
}

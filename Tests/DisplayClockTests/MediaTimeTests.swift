import DisplayClock
import Testing

@Suite struct MediaTimeTests {
    @Test func mediaTimeIsMonotonic() {
        var last = CACurrentMediaTime()
        for _ in 0..<1000 {
            let now = CACurrentMediaTime()
            #expect(now >= last)
            last = now
        }
    }
}

@testable import DisplayClock
import Testing

@Suite struct FrameStatisticsTests {
    /// Nearest rank: p = value at rank ⌈p·n⌉.
    @Test func percentilesOfHandComputedSamples() {
        var scratch: [Double] = []
        var ring = SampleRing(capacity: 200, filler: 0.0)
        for value in [3.0, 1, 4, 2] { ring.append(value) }
        #expect(Percentiles.of(ring, scratch: &scratch) == Percentiles(count: 4, p50: 2, p95: 4, p99: 4, max: 4))

        // 1 … 100 in a scrambled order (37 is coprime with 100).
        ring.removeAll()
        for i in 0..<100 { ring.append(Double((i * 37) % 100 + 1)) }
        #expect(Percentiles.of(ring, scratch: &scratch) == Percentiles(count: 100, p50: 50, p95: 95, p99: 99, max: 100))

        // 1 … 20: p95 is rank 19 exactly (0.95 × 20), p99 rank 20.
        ring.removeAll()
        for i in (1...20).reversed() { ring.append(Double(i)) }
        #expect(Percentiles.of(ring, scratch: &scratch) == Percentiles(count: 20, p50: 10, p95: 19, p99: 20, max: 20))

        ring.removeAll()
        for _ in 0..<7 { ring.append(5) }
        #expect(Percentiles.of(ring, scratch: &scratch) == Percentiles(count: 7, p50: 5, p95: 5, p99: 5, max: 5))
        ring.removeAll()
        #expect(Percentiles.of(ring, scratch: &scratch) == .empty)
    }

    @Test func ringKeepsOnlyTheNewestValues() {
        var scratch: [Double] = []
        var ring = SampleRing(capacity: 120, filler: 0.0)
        for i in 1...150 { ring.append(Double(i)) }  // keeps 31 … 150
        #expect(ring.count == 120)
        #expect(ring[newestMinus: 0] == 150)
        #expect(ring[newestMinus: 119] == 31)
        #expect(Percentiles.of(ring, scratch: &scratch) == Percentiles(count: 120, p50: 90, p95: 144, p99: 149, max: 150))
    }

    /// 8 Hz (period 0.125, exact). Lateness 0, 25, 0, 50, 0 ms gives wake-ups at 0, 0.15, 0.25,
    /// 0.425, 0.5 and intervals 150, 100, 175, 75 ms; sorted 75, 100, 150, 175.
    @Test func intervalAndLatenessPercentilesThroughALink() {
        let harness = LinkHarness(refreshRate: 8)
        for late in [0, 0.025, 0, 0.05, 0] { harness.step(lateBy: late) }
        let statistics = harness.link.statistics
        let interval = statistics.intervalPercentiles()
        #expect(interval.count == 4)
        #expect(abs(interval.p50 - 0.100) < 1e-12)
        #expect(abs(interval.p95 - 0.175) < 1e-12)
        #expect(abs(interval.max - 0.175) < 1e-12)
        let lateness = statistics.latenessPercentiles()
        #expect(lateness.count == 5 && lateness.p50 == 0)
        #expect(abs(lateness.p95 - 0.05) < 1e-12 && abs(lateness.max - 0.05) < 1e-12)
        #expect(abs(statistics.framesPerSecondOverall - 4 / 0.5) < 1e-9)
    }

    /// 8 Hz, frames at 0 … 2.375 s with the one due at 2.125 dropped (the frame at 2.0 runs a full
    /// period). The last second [1.375, 2.375] holds 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.25,
    /// 2.375: 8 frames, 7 intervals in 1 s.
    @Test func framesPerSecondWindow() {
        let harness = LinkHarness(refreshRate: 8)
        harness.onFrame = { frame in
            if frame.timestamp == 2.0 { harness.clock.advance(by: 0.125) }
        }
        let statistics = harness.link.statistics
        for _ in 0..<4 { harness.step() }
        // Less than a second of history: 3 intervals over 0.375 s.
        #expect(statistics.framesPerSecondLastSecond == 8)
        harness.link.run(until: 2.375)
        #expect(harness.frames.last!.timestamp == 2.375)
        #expect(statistics.framesDelivered == 19)
        #expect(statistics.framesDropped == 1)
        #expect(statistics.framesPerSecondLastSecond == 7)
        #expect(abs(statistics.framesPerSecondOverall - 18 / 2.375) < 1e-9)
    }

    @Test func histogramBinsIntervalsByMillisecond() {
        let harness = LinkHarness(refreshRate: 60)
        harness.onFrame = { frame in
            if frame.frameIndex == 5 { harness.clock.advance(by: 1.2 / 60) }
        }
        for _ in 0..<10 { harness.step() }
        let histogram = harness.link.statistics.histogram
        #expect(histogram.total == 9)
        #expect(histogram.counts[16] == 8)  // 16.67 ms
        #expect(histogram.counts[33] == 1)  // 33.33 ms, across the drop
        #expect(FrameIntervalHistogram.bin(for: 1) == FrameIntervalHistogram.binCount - 1)
        #expect(FrameIntervalHistogram.bin(for: -1) == 0)
    }

    /// 64 Hz, budget 15.6 ms. Frame 1 records animate 2 ms and draw 30 ms (32 ms in all, over
    /// budget) and runs that long: it returns at 15.6 + 32 = 47.6 ms, past the deadlines at 31.25
    /// and 46.875 ms, so the next frame reports 2 drops, and draw, the longest stage, gets them.
    @Test func dropsAreBlamedOnTheLongestStageOfAnOverBudgetFrame() {
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { frame in
            if frame.frameIndex == 1 {
                harness.link.recordStage(.animate, duration: 0.002)
                harness.link.recordStage(.draw, duration: 0.030)
                harness.clock.advance(by: 0.032)
            } else {
                harness.link.recordStage(.animate, duration: 0.001)
                harness.link.recordStage(.draw, duration: 0.004)
            }
        }
        for _ in 0..<4 { harness.step() }
        let statistics = harness.link.statistics
        #expect(harness.frames[2].droppedFrames == 2)
        #expect(statistics.drops(blamedOn: .draw) == 2)
        #expect(statistics.drops(blamedOn: .animate) == 0)
        #expect(statistics.drops(blamedOn: .unattributed) == 0)
        #expect(statistics.dropsInLastSecond(blamedOn: .draw) == 2)
        #expect(statistics.durationPercentiles(of: .draw).max == 0.030)
        #expect(statistics.durationPercentiles(of: .draw).count == 3)  // frame 3 is still open

        var blamed: [FrameStage?] = []
        statistics.forEachRecentFrame { blamed.append($0.blamedStage) }
        #expect(blamed == [nil, nil, .draw, nil])

        let snapshot = statistics.snapshot()
        #expect(snapshot.summary.contains("2 dropped [draw 2]"))
        #expect(snapshot.stages.map(\.stage) == [.animate, .draw])
        #expect(snapshot.recentFrames.filter(\.isAfterDrop).count == 1)
    }

    /// The stages add up to 10 ms of a 15.6 ms budget, but the wake-up came 1.5 periods late: no
    /// stage explains the drop.
    @Test func dropsWithinBudgetAreUnattributed() {
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { _ in harness.link.recordStage(.composite, duration: 0.010) }
        harness.step()
        harness.step(lateBy: 1.5 / 64)
        #expect(harness.link.statistics.drops(blamedOn: .unattributed) == 1)
        #expect(harness.link.statistics.drops(blamedOn: .composite) == 0)
    }

    @Test func customStagesAreBlamedByName() {
        let layout = FrameStage.custom(0, named: "layout")
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { frame in
            guard frame.frameIndex == 0 else { return }
            harness.link.measure(layout) { harness.clock.advance(by: 0.020) }
            harness.link.recordStage(.present, duration: 0.001)
        }
        harness.step()
        harness.step()
        let snapshot = harness.link.statistics.snapshot()
        #expect(snapshot.stages.first { $0.stage == layout }?.drops == 1)
        #expect(snapshot.summary.contains("[layout 1]"))
    }

    @Test func equalStagesBlameTheEarlierOne() {
        let harness = LinkHarness(refreshRate: 64)
        harness.onFrame = { frame in
            guard frame.frameIndex == 0 else { return }
            harness.link.recordStage(.present, duration: 0.010)
            harness.link.recordStage(.draw, duration: 0.010)
            harness.clock.advance(by: 0.020)
        }
        harness.step()
        harness.step()
        #expect(harness.link.statistics.drops(blamedOn: .draw) == 1)
    }

    @Test func summaryIsOneLine() {
        let harness = LinkHarness(refreshRate: 60)
        for _ in 0..<61 { harness.step() }
        let summary = harness.link.statistics.summary
        #expect(!summary.contains("\n"))
        #expect(summary.hasPrefix("60.0 fps (overall 60.0) | 61 frames, 0 dropped | interval p50 16.67"))
    }

    @Test func fixedFormatsDecimals() {
        #expect(fixed(16.666, 2) == "16.67")
        #expect(fixed(0.05, 2) == "0.05")
        #expect(fixed(-1.5, 1) == "-1.5")
        #expect(fixed(59.96, 1) == "60.0")
        #expect(fixed(3, 0) == "3")
    }
}

@Suite struct FrameStatisticsHistoryTests {
    @Test func stageDurationPercentiles() {
        let harness = LinkHarness(refreshRate: 64)
        let draws = [0.004, 0.002, 0.008, 0.001, 0.003]
        harness.onFrame = { frame in harness.link.recordStage(.draw, duration: draws[frame.frameIndex]) }
        for _ in 0..<5 { harness.step() }
        // The fifth frame is still open; closed: 4, 2, 8, 1 ms → sorted 1, 2, 4, 8.
        let draw = harness.link.statistics.durationPercentiles(of: .draw)
        #expect(draw == Percentiles(count: 4, p50: 0.002, p95: 0.008, p99: 0.008, max: 0.008))
        #expect(harness.link.statistics.durationPercentiles(of: .present) == .empty)
    }

    @Test func recentFramesMarkPausesAndDrops() {
        let harness = LinkHarness(refreshRate: 64)
        harness.step()
        harness.step()
        harness.link.isPaused = true
        harness.clock.advance(by: 1)
        harness.link.isPaused = false
        harness.step()
        harness.step(lateBy: 2.5 / 64)
        var samples: [FrameSample] = []
        harness.link.statistics.forEachRecentFrame { samples.append($0) }
        #expect(samples.map(\.interval) == [nil, 1.0 / 64, nil, 3.5 / 64])
        #expect(samples.map(\.droppedFrames) == [0, 0, 0, 2])
        #expect(samples.map(\.blamedStage) == [nil, nil, nil, .unattributed])
    }

    @Test func dropsOlderThanASecondLeaveTheWindow() {
        let harness = LinkHarness(refreshRate: 64)
        harness.step()
        harness.step(lateBy: 1.5 / 64)
        let statistics = harness.link.statistics
        #expect(statistics.dropsInLastSecond(blamedOn: .unattributed) == 1)
        // The drop came with the frame that woke at 2.5/64 s; the window is [newest - 1, newest].
        for _ in 0..<64 { harness.step() }
        #expect(statistics.dropsInLastSecond(blamedOn: .unattributed) == 1)  // newest 66/64
        harness.step()
        #expect(statistics.dropsInLastSecond(blamedOn: .unattributed) == 0)  // newest 67/64
        #expect(statistics.drops(blamedOn: .unattributed) == 1)
    }

    @Test func historyKeepsTheLastFrames() {
        let harness = LinkHarness(refreshRate: 64)
        #expect(harness.link.statistics.historyCapacity == FrameStatistics.defaultHistoryCapacity)
        for _ in 0..<300 { harness.step() }
        var count = 0
        harness.link.statistics.forEachRecentFrame { _ in count += 1 }
        #expect(count == FrameStatistics.defaultHistoryCapacity)
        #expect(DisplayLink(clock: VirtualClock(), historyCapacity: 10).statistics.historyCapacity == 120)
    }

    @Test func resetForgetsEverything() {
        let harness = LinkHarness(refreshRate: 64)
        for _ in 0..<10 { harness.step() }
        harness.step(lateBy: 1.5 / 64)
        let statistics = harness.link.statistics
        statistics.reset()
        #expect(statistics.framesDelivered == 0 && statistics.framesDropped == 0)
        #expect(statistics.histogram.total == 0)
        #expect(statistics.intervalPercentiles() == .empty)
        #expect(statistics.framesPerSecondOverall == 0)
        #expect(statistics.drops(blamedOn: .unattributed) == 0)
        harness.step()
        harness.step()
        #expect(statistics.framesDelivered == 2)
        #expect(statistics.intervalPercentiles().count == 1)
    }

    @Test func snapshotIsSendable() async {
        let harness = LinkHarness(refreshRate: 64)
        for _ in 0..<3 { harness.step() }
        let snapshot = harness.link.statistics.snapshot()
        let delivered = await Task.detached { snapshot.framesDelivered }.value
        #expect(delivered == 3)
        #expect(snapshot.recentFrames.count == 3)
        #expect(snapshot.histogram.total == 2)
    }
}

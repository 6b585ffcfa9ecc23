// FrameIntervalHistogram: how frame intervals are distributed, in fixed 1 ms bins.

/// Counts of frame intervals in fixed bins one millisecond wide: bin `i` holds intervals in
/// `[i, i + 1)` ms, and the last bin everything from `binCount - 1` ms up. At 60 Hz steady frames
/// land in bin 16 and a dropped frame in bin 33.
public struct FrameIntervalHistogram: Sendable, Hashable {
    /// The width of a bin in seconds.
    public static let binWidth = 0.001
    /// The number of bins.
    public static let binCount = 64

    /// The count in each bin.
    public private(set) var counts: [Int]

    public init() {
        counts = Array(repeating: 0, count: Self.binCount)
    }

    /// The bin an interval of `seconds` falls in.
    public static func bin(for seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        let bin = (seconds / binWidth).rounded(.down)
        return bin >= Double(binCount - 1) ? binCount - 1 : Int(bin)
    }

    /// The total number of intervals counted.
    public var total: Int { counts.reduce(0, +) }

    mutating func add(_ seconds: Double) {
        counts[Self.bin(for: seconds)] += 1
    }

    mutating func removeAll() {
        for index in counts.indices { counts[index] = 0 }
    }
}

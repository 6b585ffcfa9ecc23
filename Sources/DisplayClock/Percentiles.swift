// Percentiles: p50/p95/p99/max of a sample, by nearest rank, without sorting or allocating.

/// The 50th, 95th and 99th percentiles and the maximum of a set of samples.
///
/// Percentiles use the nearest-rank definition: the p-th percentile of n samples is the value at
/// rank ⌈p·n/100⌉ (1-based) in ascending order, so it is always one of the samples. Of
/// `[1, 2, 3, 4]`, p50 is 2 and p95, p99 and max are 4. With no samples every field is 0.
public struct Percentiles: Sendable, Hashable {
    /// How many samples the percentiles describe.
    public var count: Int
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double

    public init(count: Int, p50: Double, p95: Double, p99: Double, max: Double) {
        self.count = count
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
    }

    /// No samples.
    public static let empty = Percentiles(count: 0, p50: 0, p95: 0, p99: 0, max: 0)

    /// The percentiles of `samples` (NaNs ignored), computed in place in `scratch`, which must be able
    /// to hold them all; `scratch`'s prior contents are overwritten. Allocation-free when `scratch`
    /// already has the capacity.
    static func of(_ samples: SampleRing<Double>, scratch: inout [Double]) -> Percentiles {
        scratch.removeAll(keepingCapacity: true)
        samples.forEach { if !$0.isNaN { scratch.append($0) } }
        let n = scratch.count
        guard n > 0 else { return .empty }
        return scratch.withUnsafeMutableBufferPointer { values in
            // Ranks ascend, so each selection only searches above the previous one.
            let r50 = rank(permille: 500, of: n), r95 = rank(permille: 950, of: n), r99 = rank(permille: 990, of: n)
            select(r50, in: values, from: 0)
            select(r95, in: values, from: r50)
            select(r99, in: values, from: r95)
            select(n - 1, in: values, from: r99)
            return Percentiles(count: n, p50: values[r50], p95: values[r95], p99: values[r99], max: values[n - 1])
        }
    }

    /// The 0-based index of the nearest rank ⌈permille·n/1000⌉, in integers so that 0.95 × 20 is
    /// exactly 19.
    static func rank(permille: Int, of n: Int) -> Int {
        Swift.max(1, (permille * n + 999) / 1000) - 1
    }

    /// Quickselect: rearranges `values[lower...]` so that `values[k]` holds the value of rank k,
    /// smaller or equal ones before it and larger or equal ones after.
    package static func select(_ k: Int, in values: UnsafeMutableBufferPointer<Double>, from lower: Int) {
        var low = lower, high = values.count - 1
        while low < high {
            // Median of three as pivot keeps sorted and constant inputs linear.
            let middle = low + (high - low) / 2
            let pivot = Swift.max(Swift.min(values[low], values[middle]), Swift.min(Swift.max(values[low], values[middle]), values[high]))
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return }
        }
    }
}

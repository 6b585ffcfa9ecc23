// Array+Interpolatable: lists of values (gradient colours and locations) animate element by element.

import Raster

/// Arrays of the same length interpolate, add and subtract element by element, which is what
/// `GradientLayer.colors` and `locations` animations need. Between arrays of different lengths
/// the value switches half-way, as Core Animation's does.
extension Array: Interpolatable where Element: Interpolatable {
    public func interpolated(to other: [Element], at fraction: Double) -> [Element] {
        guard count == other.count else { return fraction < 0.5 ? self : other }
        var out: [Element] = []
        out.reserveCapacity(count)
        for i in indices { out.append(self[i].interpolated(to: other[i], at: fraction)) }
        return out
    }

    /// Writes the elements into `result`'s storage (no allocation when it is not shared and
    /// large enough); between arrays of different lengths the nearer one is copied into it.
    public func interpolate(to other: [Element], at fraction: Double, into result: inout [Element]) {
        guard count == other.count else {
            result.removeAll(keepingCapacity: true)
            result.append(contentsOf: fraction < 0.5 ? self : other)
            return
        }
        if result.count != count {
            result.removeAll(keepingCapacity: true)
            result.append(contentsOf: self)
        }
        for i in indices { result[i] = self[i].interpolated(to: other[i], at: fraction) }
    }

    public func adding(_ other: [Element]) -> [Element] {
        guard count == other.count else { return self }
        return indices.map { self[$0].adding(other[$0]) }
    }

    public func subtracting(_ other: [Element]) -> [Element] {
        guard count == other.count else { return self }
        return indices.map { self[$0].subtracting(other[$0]) }
    }

    public func distance(to other: [Element]) -> Double {
        guard count == other.count else { return 1 }
        var sum = 0.0
        for i in indices { sum += self[i].distance(to: other[i]) }
        return sum
    }
}

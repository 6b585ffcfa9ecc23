// KeyframeValue: the value types a Bodymovin property holds, decoded from one JSON value.

/// A value that a Lottie property can hold, decoded from the JSON of one keyframe's `s`.
protocol KeyframeValue: Sendable {
    init(lottie decoder: any Decoder) throws
    /// The value at `fraction` between `self` and `other`, dimension `index` eased by `ease(index)`.
    func lerp(to other: Self, ease: (Int) -> Double) -> Self
    /// How many independently eased dimensions the value has.
    var dimensions: Int { get }
}

/// A number; `[n]` in the JSON is accepted as `n`, as exporters write both.
struct Scalar: KeyframeValue, Equatable {
    var value: Double
    init(_ value: Double) { self.value = value }
    init(lottie decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let v = try? container.decode(Double.self) { value = v; return }
        let array = try container.decode([Double].self)
        guard let first = array.first else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a number, found an empty array")
        }
        value = first
    }
    func lerp(to other: Scalar, ease: (Int) -> Double) -> Scalar { Scalar(value + (other.value - value) * ease(0)) }
    var dimensions: Int { 1 }
}

/// A list of numbers: a point, a scale, a colour, gradient stops.
struct Vector: KeyframeValue, Equatable {
    var values: [Double]
    init(_ values: [Double]) { self.values = values }
    init(lottie decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let v = try? container.decode(Double.self) { values = [v]; return }
        values = try container.decode([Double].self)
    }
    subscript(i: Int) -> Double { i < values.count ? values[i] : 0 }
    func lerp(to other: Vector, ease: (Int) -> Double) -> Vector {
        let n = max(values.count, other.values.count)
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let a = i < values.count ? values[i] : other[i], b = i < other.values.count ? other.values[i] : a
            out[i] = a + (b - a) * ease(i)
        }
        return Vector(out)
    }
    var dimensions: Int { values.count }
}

/// A Bézier path as Bodymovin writes it: vertices with in and out tangents relative to them.
struct BezierShape: KeyframeValue, Equatable {
    var closed: Bool
    var vertices: [[Double]]
    var inTangents: [[Double]]
    var outTangents: [[Double]]

    private enum Keys: String, CodingKey { case c, v, i, o }

    init(lottie decoder: any Decoder) throws {
        // Keyframes wrap the shape in a one-element array.
        if var array = try? decoder.unkeyedContainer() {
            guard !array.isAtEnd else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a path, found an empty array"))
            }
            self = try array.decode(ShapeBox.self).shape
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        closed = try c.decodeIfPresent(Bool.self, forKey: .c) ?? false
        vertices = try c.decode([[Double]].self, forKey: .v)
        inTangents = try c.decodeIfPresent([[Double]].self, forKey: .i) ?? []
        outTangents = try c.decodeIfPresent([[Double]].self, forKey: .o) ?? []
    }

    init(closed: Bool, vertices: [[Double]], inTangents: [[Double]], outTangents: [[Double]]) {
        self.closed = closed
        self.vertices = vertices
        self.inTangents = inTangents
        self.outTangents = outTangents
    }

    private struct ShapeBox: Decodable {
        var shape: BezierShape
        init(from decoder: any Decoder) throws { shape = try BezierShape(lottie: decoder) }
    }

    func lerp(to other: BezierShape, ease: (Int) -> Double) -> BezierShape {
        let t = ease(0)
        func mix(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
            a.indices.map { i in
                let p = a[i], q = i < b.count ? b[i] : p
                return [p.at(0) + (q.at(0) - p.at(0)) * t, p.at(1) + (q.at(1) - p.at(1)) * t]
            }
        }
        return BezierShape(closed: closed, vertices: mix(vertices, other.vertices),
                           inTangents: mix(inTangents, other.inTangents), outTangents: mix(outTangents, other.outTangents))
    }
    var dimensions: Int { 1 }
}

extension Array where Element == Double {
    /// The element at `i`, or 0 when the array is too short (exporters omit trailing zeros).
    func at(_ i: Int) -> Double { i < count ? self[i] : 0 }
}

// Animatable: a Bodymovin property, static or keyframed, with its easing and spatial tangents.

/// One keyframe of a property: its start frame, value, easing to the next keyframe and, for
/// positions, the tangents of the motion path to the next keyframe.
struct Keyframe<Value: KeyframeValue>: Sendable {
    var time: Double
    var value: Value
    /// The value reached at the next keyframe (old exports write it here instead of in the next `s`).
    var endValue: Value?
    var hold: Bool
    /// Easing control points per dimension: out tangent of this keyframe, in tangent of the next.
    var easeOut: [(x: Double, y: Double)]
    var easeIn: [(x: Double, y: Double)]
    /// Motion-path tangents, relative to this value and the next.
    var spatialOut: [Double]?
    var spatialIn: [Double]?
}

/// A property: a constant, or keyframes (in frames of its composition).
struct Animatable<Value: KeyframeValue>: Decodable, Sendable {
    var keyframes: [Keyframe<Value>]
    /// An expression, which is not evaluated; its presence is reported.
    var expression: String?

    var isAnimated: Bool { keyframes.count > 1 }
    var initial: Value { keyframes[0].value }

    init(keyframes: [Keyframe<Value>], expression: String?) {
        self.keyframes = keyframes
        self.expression = expression
    }

    init(constant: Value) {
        keyframes = [Keyframe(time: 0, value: constant, endValue: nil, hold: false, easeOut: [], easeIn: [])]
    }

    private enum Keys: String, CodingKey { case a, k, x }
    private enum KeyframeKeys: String, CodingKey { case t, s, e, i, o, h, to, ti }
    private enum EaseKeys: String, CodingKey { case x, y }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        expression = try? c.decodeIfPresent(String.self, forKey: .x)
        // Keyframes are an array of objects with a time; anything else is a constant.
        if var list = try? c.nestedUnkeyedContainer(forKey: .k), let count = list.count, count > 0,
           (try? list.nestedContainer(keyedBy: KeyframeKeys.self)) != nil {
            var frames: [Keyframe<Value>] = []
            frames.reserveCapacity(count)
            var items = try c.nestedUnkeyedContainer(forKey: .k)
            while !items.isAtEnd {
                let k = try items.nestedContainer(keyedBy: KeyframeKeys.self)
                let time = try k.decode(Double.self, forKey: .t)
                guard time.isFinite else {
                    throw DecodingError.dataCorruptedError(forKey: .t, in: k, debugDescription: "keyframe time is not finite")
                }
                let start: Value? = k.contains(.s) ? try Value(lottie: k.superDecoder(forKey: .s)) : nil
                let end: Value? = k.contains(.e) ? try Value(lottie: k.superDecoder(forKey: .e)) : nil
                // The last keyframe of old exports has only a time: it ends the previous one.
                guard let value = start ?? frames.last?.endValue ?? frames.last?.value else {
                    throw DecodingError.keyNotFound(KeyframeKeys.s, .init(codingPath: k.codingPath, debugDescription: "a keyframe has no value"))
                }
                let hold = (try? k.decodeIfPresent(Int.self, forKey: .h)) ?? 0
                frames.append(Keyframe(time: time, value: value, endValue: end, hold: hold == 1,
                                       easeOut: try Self.ease(k, .o), easeIn: try Self.ease(k, .i),
                                       spatialOut: try k.decodeIfPresent([Double].self, forKey: .to),
                                       spatialIn: try k.decodeIfPresent([Double].self, forKey: .ti)))
            }
            // Old exports: the segment ends at `e`, which becomes the next keyframe's value
            // when that keyframe has none of its own.
            keyframes = frames
            return
        }
        let value = try Value(lottie: c.superDecoder(forKey: .k))
        keyframes = [Keyframe(time: 0, value: value, endValue: nil, hold: false, easeOut: [], easeIn: [])]
    }

    private static func ease(_ k: KeyedDecodingContainer<KeyframeKeys>, _ key: KeyframeKeys) throws -> [(x: Double, y: Double)] {
        guard k.contains(key) else { return [] }
        let e = try k.nestedContainer(keyedBy: EaseKeys.self, forKey: key)
        let xs = try Vector(lottie: e.superDecoder(forKey: .x)).values
        let ys = try Vector(lottie: e.superDecoder(forKey: .y)).values
        return (0..<min(xs.count, ys.count)).map { (xs[$0], ys[$0]) }
    }
}

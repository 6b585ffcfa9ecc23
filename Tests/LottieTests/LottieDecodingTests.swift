// LottieDecodingTests: values, easing, holds and errors with their JSON paths; hostile files stay bounded.

import Foundation
@testable import Lottie
import Testing

/// A one-layer composition around `shapes` (JSON text), 100x100 at 10 fps, frames 0..<20.
func composition(layers: String, width: Int = 100, height: Int = 100, extra: String = "") -> Data {
    Data("""
    {"v":"5.7.0","fr":10,"ip":0,"op":20,"w":\(width),"h":\(height),"layers":[\(layers)]\(extra)}
    """.utf8)
}

func shapeLayer(_ shapes: String, transform: String = #"{"p":{"a":0,"k":[0,0]}}"#, name: String = "shape") -> String {
    #"{"ty":4,"nm":"\#(name)","ind":1,"ip":0,"op":20,"st":0,"ks":\#(transform),"shapes":[\#(shapes)]}"#
}

private func decode<V: KeyframeValue>(_ json: String, as _: V.Type) throws -> Animatable<V> {
    try JSONDecoder().decode(Animatable<V>.self, from: Data(json.utf8))
}

@Suite("Lottie decoding")
@MainActor
struct LottieDecodingTests {
    @Test func staticValuesAcceptNumbersAndArrays() throws {
        #expect(try decode(#"{"a":0,"k":42}"#, as: Scalar.self).value(at: 7).value == 42)
        #expect(try decode(#"{"a":0,"k":[42]}"#, as: Scalar.self).value(at: 7).value == 42)
        #expect(try decode(#"{"a":0,"k":[1,2,3]}"#, as: Vector.self).value(at: 0).values == [1, 2, 3])
    }

    @Test func keyframesInterpolateWithTheirBezierEasing() throws {
        // ease: out (0.42, 0), in (0.58, 1): Core Animation's ease-in-ease-out.
        let value = try decode(#"""
        {"a":1,"k":[{"t":0,"s":[0],"o":{"x":[0.42],"y":[0]},"i":{"x":[0.58],"y":[1]}},{"t":10,"s":[100]}]}
        """#, as: Scalar.self)
        #expect(value.value(at: -5).value == 0)
        #expect(abs(value.value(at: 5).value - 50) < 1e-6)
        #expect(value.value(at: 2).value < 20 * 0.5)   // slow start
        #expect(value.value(at: 30).value == 100)
    }

    @Test func holdKeyframesJump() throws {
        let value = try decode(#"{"a":1,"k":[{"t":0,"s":[1],"h":1},{"t":10,"s":[2],"h":1},{"t":20,"s":[3]}]}"#, as: Scalar.self)
        #expect(value.value(at: 9.99).value == 1)
        #expect(value.value(at: 10).value == 2)
        #expect(value.value(at: 19.9).value == 2)
    }

    @Test func oldExportsEndSegmentsAtE() throws {
        let value = try decode(#"{"a":1,"k":[{"t":0,"s":[0],"e":[10],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":10}]}"#, as: Scalar.self)
        #expect(abs(value.value(at: 5).value - 5) < 1e-9)
        #expect(value.value(at: 10).value == 10)
    }

    @Test func perDimensionEasingEasesEachDimension() throws {
        let value = try decode(#"""
        {"a":1,"k":[{"t":0,"s":[0,0],"o":{"x":[0,0.9],"y":[0,0]},"i":{"x":[1,1],"y":[1,0.1]}},{"t":10,"s":[100,100]}]}
        """#, as: Vector.self)
        let mid = value.value(at: 5)
        #expect(abs(mid[0] - 50) < 1e-6)
        #expect(mid[1] < 20)
    }

    @Test func spatialTangentsBendTheMotionPath() throws {
        let value = try decode(#"""
        {"a":1,"k":[{"t":0,"s":[0,0],"to":[0,-40],"ti":[0,-40],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[100,0]}]}
        """#, as: Vector.self)
        let mid = value.value(at: 5)
        #expect(abs(mid[0] - 50) < 0.5)
        #expect(mid[1] < -25)  // the curve bulges upward
    }

    /// The JSON path and reason of the error decoding `data`, or `nil` when it decodes.
    private func malformed(_ data: Data) -> (path: String, reason: String)? {
        let error: LottieError
        do {
            _ = try LottieAnimation(json: data)
            return nil
        } catch let e {
            error = e
        }
        guard case let .malformed(path, reason) = error else { return nil }
        return (path, reason)
    }

    @Test func wrongTypesNameTheirJSONPath() throws {
        let wrongType = malformed(composition(layers: shapeLayer("", transform: #"{"o":{"a":0,"k":"opaque"}}"#)))
        #expect(wrongType?.path == "$.layers[0].ks.o.k")
        let missing = malformed(Data(#"{"fr":30,"ip":0,"w":10,"h":10,"layers":[]}"#.utf8))
        #expect(missing?.path == "$.op")
        #expect(missing?.reason.contains("missing") == true)
        #expect(malformed(Data("{\"fr\":30,".utf8))?.path == "$")
    }

    @Test func hostileFilesEndInErrorsOrBoundedWork() throws {
        // Deep nesting: the decoder refuses it rather than overflowing the stack.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: LottieError.self) { try LottieAnimation(json: composition(layers: "", extra: #","x":"# + deep)) }
        // A giant canvas.
        #expect(throws: LottieError.tooLarge("size 1000000000.0x10.0; each side must be at most 16384")) {
            try LottieAnimation(json: composition(layers: "", width: 1_000_000_000, height: 10))
        }
        // An empty canvas is malformed, not too large.
        #expect(throws: LottieError.malformed(path: "$.w", reason: "size 0.0x0.0; each side must be more than 0")) {
            try LottieAnimation(json: composition(layers: "", width: 0, height: 0))
        }
        // Many keyframes decode and build in bounded work (exact keyframes, no per-frame sampling).
        var frames = ""
        for i in 0..<50_000 { frames += (i > 0 ? "," : "") + #"{"t":\#(i),"s":[\#(i % 100)],"o":{"x":[0.3],"y":[0]},"i":{"x":[0.7],"y":[1]}}"# }
        let data = composition(layers: shapeLayer(#"{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[10,10]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":1,"k":[\#(frames)]}}"#))
        let animation = try LottieAnimation(json: data)
        _ = try animation.makeLayer()
    }

    @Test func unsupportedFeaturesAreListedOnceWithTheLayerName() throws {
        let layer = #"{"ty":5,"nm":"Title","ind":1,"ip":0,"op":20,"ks":{}}"#
        let other = #"{"ty":5,"nm":"Subtitle","ind":2,"ip":0,"op":20,"ks":{}}"#
        let animation = try LottieAnimation(json: composition(layers: layer + "," + other))
        let features = try animation.makeLayer().unsupportedFeatures
        #expect(features.count == 1 && features[0].hasPrefix("text layers without a document (layer '"), "\(features)")
    }
}

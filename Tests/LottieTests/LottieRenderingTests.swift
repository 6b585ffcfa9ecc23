// LottieRenderingTests: built layer trees draw shapes, transforms and keyframes where Lottie puts them.

import Foundation
import LiveLayers
import Lottie
import Raster
import Testing

@MainActor
private func render(_ data: Data, frame: Double) throws -> Bitmap {
    let root = try LottieAnimation(json: data).makeLayer()
    root.currentFrame = frame
    let bitmap = try Bitmap(width: Int(root.bounds.width), height: Int(root.bounds.height))
    _ = LayerRenderer().render(root, at: LayerClock.currentTime, into: bitmap)
    return bitmap
}

private func isRed(_ p: UInt32) -> Bool { p == 0xFFFF_0000 }

@Suite("Lottie rendering")
@MainActor
struct LottieRenderingTests {
    /// A 20x20 red square whose layer moves from x 20 to x 80 over frames 0...10, linearly.
    private var movingSquare: Data {
        composition(layers: shapeLayer(
            #"{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}},{"ty":"tr","p":{"a":0,"k":[0,0]}}]}"#,
            transform: #"{"p":{"a":1,"k":[{"t":0,"s":[20,50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[80,50]}]}}"#))
    }

    @Test func aKeyframedPositionMovesTheLayer() throws {
        let start = try render(movingSquare, frame: 0)
        #expect(isRed(start[20, 50]) && start[40, 50] == 0)
        let middle = try render(movingSquare, frame: 5)
        #expect(isRed(middle[50, 50]) && middle[20, 50] == 0)
        let late = try render(movingSquare, frame: 15)  // held after the last keyframe
        #expect(isRed(late[80, 50]))
        #expect(late[5, 5] == 0)  // transparent where nothing is drawn
    }

    @Test func anchorScaleAndRotationFollowLottiesOrder() throws {
        // Anchor (10,0), scale 200 %, 90° clockwise, at (50,50): the rect around the origin of
        // the layer (x -20...-10? no: rect centred at (10,0), size 10x4) lands below the centre.
        let data = composition(layers: shapeLayer(
            #"{"ty":"rc","p":{"a":0,"k":[20,0]},"s":{"a":0,"k":[10,4]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#,
            transform: #"{"a":{"a":0,"k":[10,0]},"p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[200,200]},"r":{"a":0,"k":90}}"#))
        let image = try render(data, frame: 0)
        // (20,0) − anchor = (10,0) → ×2 = (20,0) → 90° clockwise = (0,20) → + (50,50) = (50,70).
        #expect(isRed(image[50, 70]))
        #expect(image[70, 50] == 0)
    }

    @Test func holdOpacityAndInOutPoints() throws {
        let data = composition(layers: ##"{"ty":1,"nm":"solid","ind":1,"ip":5,"op":10,"st":0,"sc":"#ff0000","sw":100,"sh":100,"ks":{}}"##)
        #expect(try render(data, frame: 4)[50, 50] == 0)
        #expect(isRed(try render(data, frame: 5)[50, 50]))
        #expect(try render(data, frame: 10)[50, 50] == 0)
    }

    /// A hold steps: a frame at its key time, early by float noise (as a tick's time is), shows
    /// the new value exactly, never one a billionth short of it (which made an in point's
    /// layer a group for that frame), and a frame before it the old one.
    @Test func aHoldStepsAtItsKeyTimeWithoutFloatNoise() throws {
        let data = composition(layers: ##"{"ty":1,"nm":"solid","ind":1,"ip":5,"op":10,"st":0,"sc":"#ff0000","sw":100,"sh":100,"ks":{}}"##)
        let root = try LottieAnimation(json: data).makeLayer()
        Transaction.flush()
        func layers(_ layer: Layer) -> [Layer] { [layer] + layer.sublayers.flatMap(layers) }
        let visibility = try #require(layers(root).first { $0.animation(forKey: "opacity") != nil })
        func opacity(at frame: Double) -> Double? {
            root.currentFrame = frame
            return visibility.presentation()?.opacity
        }
        for early in [0, 1e-12, 1e-9, 1e-7, 1e-6] {
            #expect(opacity(at: 5 - early) == 1, "in point, \(early) early")
            #expect(opacity(at: 10 - early) == 0, "out point, \(early) early")
        }
        #expect(opacity(at: 4.999) == 0)
        #expect(opacity(at: 9.999) == 1)
    }

    @Test func parentsMoveButDoNotFadeTheirChildren() throws {
        let parent = #"{"ty":3,"nm":"null","ind":1,"ip":0,"op":20,"ks":{"p":{"a":0,"k":[30,0]},"o":{"a":0,"k":0}}}"#
        let child = #"{"ty":4,"nm":"child","ind":2,"parent":1,"ip":0,"op":20,"ks":{"p":{"a":0,"k":[20,50]}},"shapes":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[10,10]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
        let image = try render(composition(layers: parent + "," + child), frame: 0)
        #expect(isRed(image[50, 50]))
        #expect(image[20, 50] == 0)
    }

    @Test func precompositionsRunInTheirOwnTime() throws {
        // The precomp's content is a solid shown from its frame 0 to 5; the precomp layer starts at 10.
        let inner = ##"{"ty":1,"nm":"s","ind":1,"ip":0,"op":5,"st":0,"sc":"#ff0000","sw":100,"sh":100,"ks":{}}"##
        let outer = #"{"ty":0,"nm":"pre","ind":1,"refId":"c","ip":0,"op":20,"st":10,"w":100,"h":100,"ks":{}}"#
        let data = composition(layers: outer, extra: #","assets":[{"id":"c","layers":[\#(inner)]}]"#)
        #expect(try render(data, frame: 9)[50, 50] == 0)
        #expect(isRed(try render(data, frame: 12)[50, 50]))
        #expect(try render(data, frame: 16)[50, 50] == 0)
    }

    @Test func trimPathsKeepPartOfAStroke() throws {
        let data = composition(layers: shapeLayer(
            #"{"ty":"sh","ks":{"a":0,"k":{"c":false,"v":[[0,50],[100,50]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}},{"ty":"tm","s":{"a":0,"k":0},"e":{"a":0,"k":50},"o":{"a":0,"k":0},"m":1},{"ty":"st","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":10},"lc":1,"lj":1}"#))
        let image = try render(data, frame: 0)
        #expect(isRed(image[25, 50]))
        #expect(image[75, 50] == 0)
    }
    /// Frames played in order through one damage-tracking renderer, and scrubbed back, show what
    /// each frame drawn alone shows (the root is paused; its time offset is the frame).
    @Test func framesPlayedInOrderMatchFramesDrawnAlone() throws {
        let morph = #"{"ty":"sh","ks":{"a":1,"k":[{"t":0,"s":[{"c":true,"v":[[10,10],[40,10],[40,40]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}],"o":{"x":0.3,"y":0},"i":{"x":0.7,"y":1}},{"t":10,"s":[{"c":true,"v":[[10,60],[90,20],[70,90]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}]}]}}"#
        let fill = #"{"ty":"fl","c":{"a":1,"k":[{"t":0,"s":[1,0,0,1],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[0,0,1,1]}]},"o":{"a":0,"k":100}}"#
        let gradient = #"{"ty":"gf","t":1,"s":{"a":0,"k":[0,0]},"e":{"a":1,"k":[{"t":0,"s":[20,0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[100,100]}]},"g":{"p":2,"k":{"a":0,"k":[0,1,1,0,1,0,1,1]}},"o":{"a":0,"k":100}}"#
        let circle = #"{"ty":"el","p":{"a":0,"k":[70,70]},"s":{"a":1,"k":[{"t":0,"s":[10,10],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[50,40]}]}}"#
        let data = composition(layers: shapeLayer(circle + "," + gradient, name: "gradient") + ","
            + shapeLayer(morph + "," + fill, name: "morph").replacingOccurrences(of: #""ind":1"#, with: #""ind":2"#))
        let played = try LottieAnimation(json: data).makeLayer()
        let bitmap = try Bitmap(width: 100, height: 100)
        let renderer = LayerRenderer()
        var time = LayerClock.currentTime
        for frame in [0.0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 4, 4, 2.5, 12] {
            played.currentFrame = frame
            time += 0.1
            renderer.render(played, at: time, into: bitmap)
            let alone = try render(data, frame: frame)
            var differing = 0
            for y in 0..<100 { for x in 0..<100 where bitmap[x, y] != alone[x, y] { differing += 1 } }
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ")
        }
    }
}

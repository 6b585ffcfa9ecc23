// LayerTreeSourceTests: a layer tree drawn into the frame buffers a Present window takes turns with.

import LayerHost
@testable import LiveLayers
import Raster
import Testing

@MainActor
@Suite(.serialized) struct LayerTreeSourceTests {
    /// A 200×100 grey root with a white 10×10 square sliding from x 20 to 180 over a second.
    private func slidingSquare() -> LayerTreeSource {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Color(white: 0.5)
        let square = Layer()
        square.frame = Rect(x: 0, y: 40, width: 10, height: 10)
        square.backgroundColor = .white
        root.addSublayer(square)
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 20.0
        slide.toValue = 180.0
        slide.duration = 1
        square.add(slide, forKey: "slide")
        return LayerTreeSource(rootLayer: root)
    }

    /// A window presenting through Present hands out a ring of three frame buffers in turn, each
    /// brought up to the newest frame before it is drawn again. Each frame redraws only what
    /// changed (it was the whole buffer, with a new drawing context, every frame), with the same
    /// pixels as a tree drawn into one bitmap.
    @Test func framesIntoARingOfBuffersRedrawOnlyTheDamage() throws {
        LayerRuntime.shared.reset()
        let source = slidingSquare(), reference = slidingSquare()
        let ring = try (0..<3).map { _ in try Bitmap(width: 200, height: 100) }
        let single = try Bitmap(width: 200, height: 100)
        var newest: Bitmap?
        var wholeFrames = 0
        for frame in 1...30 {
            let time = Double(frame) / 60
            let target = ring[frame % ring.count]
            // What the presenter does on acquire: the buffer catches up with the newest frame.
            if let newest {
                newest.withUnsafeMutablePixels { pixels in target.withUnsafeMutablePixels { _ = $0.update(fromContentsOf: pixels) } }
            }
            let damage = source.drawFrame(at: time, into: target)
            _ = reference.drawFrame(at: time, into: single)
            if frame > 3, damage.contains(target.bounds) { wholeFrames += 1 }
            newest = target
            #expect(target.withUnsafeMutablePixels { Array($0) } == single.withUnsafeMutablePixels { Array($0) },
                    "frame \(frame) differs from the tree drawn into one bitmap")
        }
        #expect(wholeFrames == 0, "\(wholeFrames) of 27 warm frames redrew the whole buffer")
    }
}

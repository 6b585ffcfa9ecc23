import Testing
@testable import LiveLayers
import Raster

/// A frame drawn as two bands on two threads (LayerRenderer+Bands) is the frame drawn on one.
extension RuntimeSuites {
@MainActor
@Suite struct BandedRenderingTests {
    init() { freshRuntime() }

    /// Rounded, bordered, clipped, shaped and image layers moving across the band boundary,
    /// drawn by two renderers of one tree, one of them splitting every frame: equal pixels and
    /// damage each frame (tolerance 0).
    @Test func bandedFramesEqualSingleThreadedFrames() throws {
        freshRuntime()
        let single = LayerRenderer(), banded = LayerRenderer()
        single.drawsInParallel = false
        banded.bands.isForced = true
        let treeA = try Self.movingTree(), treeB = try Self.movingTree()
        let a = try Bitmap(width: 200, height: 160), b = try Bitmap(width: 200, height: 160)
        for frame in 0..<60 {
            let t = Double(frame) / 60
            #expect(single.render(treeA, at: t, into: a) == banded.render(treeB, at: t, into: b))
            #expect(banded.bands.isFrameSafe)
            #expect(a.hasSamePixels(as: b), "frame \(frame)")
        }
        #expect(banded.bands.worker != nil)
    }

    /// Two dozen layers of every plain kind, each moving back and forth.
    static func movingTree() throws -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 160)
        root.backgroundColor = Color(white: 0.2)
        let image = try Bitmap(width: 40, height: 40)
        for y in 0..<40 { for x in 0..<40 { image[x, y] = 0xFF00_0000 | UInt32(x * 6) << 16 | UInt32(y * 6) << 8 } }
        for i in 0..<24 {
            let layer = i % 3 == 0 ? ShapeLayer() : Layer()
            layer.frame = Rect(x: Double(i * 7 % 170), y: Double(i * 13 % 130), width: 24, height: 20)
            layer.backgroundColor = Color(red: Double(i % 5) / 5, green: 0.6, blue: 0.3, alpha: 0.8)
            layer.cornerRadius = Double(i % 4) * 3
            layer.borderWidth = i % 2 == 0 ? 1.5 : 0
            layer.borderColor = .white
            layer.masksToBounds = i % 5 == 0
            if i % 4 == 1 { layer.contents = image }
            if let shape = layer as? ShapeLayer {
                var path = Path()
                path.addEllipse(in: Rect(x: 2, y: 2, width: 30, height: 16))
                shape.path = path
                shape.fillColor = .red
                shape.strokeColor = .blue
                shape.lineWidth = 2.5
            }
            let move = BasicAnimation(keyPath: "position")
            move.byValue = Point(x: 13.3, y: 41.7)
            move.duration = 0.5 + Double(i % 3) / 4
            move.autoreverses = true
            move.repeatCount = .infinity
            layer.add(move, forKey: "move")
            root.addSublayer(layer)
        }
        return root
    }

    /// Small damage is drawn on one thread unless forced: no second thread is started for it.
    @Test func smallDamageStaysOnOneThread() throws {
        freshRuntime()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = .white
        let renderer = LayerRenderer()
        let bitmap = try Bitmap(width: 100, height: 100)
        renderer.render(root, at: 0, into: bitmap)
        #expect(renderer.bands.worker == nil)
        #expect(bitmap[50, 50] == Color.white.premultipliedPixel)
    }
}
}

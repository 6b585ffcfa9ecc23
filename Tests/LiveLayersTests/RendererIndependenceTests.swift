import Testing
@testable import LiveLayers
import Raster

/// Renderers keep their own per-layer records: several can draw one tree.
extension RuntimeSuites {
@MainActor
@Suite struct RendererIndependenceTests {
    init() { freshRuntime() }

    @Test func twoRenderersOfOneTreeEachDamageTheirOwnBitmap() throws {
        freshRuntime()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        root.backgroundColor = .white
        let box = Layer()
        box.frame = Rect(x: 4, y: 4, width: 8, height: 8)
        box.backgroundColor = .red
        root.addSublayer(box)
        let first = LayerRenderer(), second = LayerRenderer()
        let a = try Bitmap(width: 40, height: 40), b = try Bitmap(width: 40, height: 40)
        first.render(root, at: 0, into: a)
        second.render(root, at: 0, into: b)

        Transaction.begin()
        Transaction.disableActions = true
        box.position = Point(x: 30, y: 30)
        Transaction.commit()
        #expect(!first.render(root, at: 0.1, into: a).isEmpty)
        // The first renderer has seen the move; the second has not, and must redraw it too.
        #expect(!second.render(root, at: 0.1, into: b).isEmpty)
        for bitmap in [a, b] {
            #expect(bitmap[6, 6] == Color.white.premultipliedPixel)
            #expect(bitmap[30, 30] == Color.red.premultipliedPixel)
        }
        #expect(a.hasSamePixels(as: b))
        #expect(first.render(root, at: 0.2, into: a).isEmpty)
        #expect(second.render(root, at: 0.2, into: b).isEmpty)
    }

    @Test func aRendererThatIsGoneLeavesTheOthersRecordsWorking() throws {
        freshRuntime()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        root.backgroundColor = .white
        let bitmap = try Bitmap(width: 20, height: 20)
        do {
            let early = LayerRenderer()
            early.render(root, at: 0, into: try Bitmap(width: 20, height: 20))
        }
        let kept = LayerRenderer(), late = LayerRenderer()
        #expect(kept.render(root, at: 0, into: bitmap) == [bitmap.bounds])
        #expect(late.render(root, at: 0, into: try Bitmap(width: 20, height: 20)) == [bitmap.bounds])
        #expect(kept.render(root, at: 0.1, into: bitmap).isEmpty)
        Transaction.begin()
        Transaction.disableActions = true
        root.backgroundColor = .red
        Transaction.commit()
        #expect(kept.render(root, at: 0.2, into: bitmap) == [bitmap.bounds])
        #expect(bitmap[10, 10] == Color.red.premultipliedPixel)
    }
}
}

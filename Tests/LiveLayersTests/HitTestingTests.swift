import Testing
@testable import LiveLayers
import Raster

/// `hitTest(_:)`, `contains(_:)` and point conversion against truths worked out by hand.
extension RuntimeSuites {
@MainActor
@Suite struct HitTestingTests {
    init() { freshRuntime() }

    /// A 200 × 200 root at the origin of its (window) space.
    func root() -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        return root
    }

    @Test func pointIsInTheSuperlayersSpaceAndContainsInTheLayersOwn() {
        let layer = Layer()
        layer.frame = Rect(x: 10, y: 10, width: 100, height: 100)
        #expect(layer.hitTest(Point(x: 5, y: 5)) == nil)
        #expect(layer.hitTest(Point(x: 15, y: 15)) === layer)
        #expect(layer.contains(Point(x: 5, y: 5)))             // its own space: bounds (0, 0, 100, 100)
        #expect(!layer.contains(Point(x: 105, y: 50)))
        #expect(layer.contains(Point(x: 0, y: 0)) && !layer.contains(Point(x: 100, y: 50)))  // min edge in, max out
        layer.bounds.origin = Point(x: -50, y: -50)
        #expect(layer.contains(Point(x: -40, y: -40)) && !layer.contains(Point(x: 60, y: 60)))
    }

    @Test func rotatedLayerIsHitWhereItIsDrawn() {
        let root = root()
        let bar = Layer()
        bar.bounds = Rect(x: 0, y: 0, width: 100, height: 20)
        bar.position = Point(x: 100, y: 100)
        bar.transform = Transform(rotationAngle: .pi / 2)  // now upright: x 90...110, y 50...150
        root.addSublayer(bar)
        #expect(root.hitTest(Point(x: 100, y: 140)) === bar)
        #expect(root.hitTest(Point(x: 105, y: 55)) === bar)
        #expect(root.hitTest(Point(x: 140, y: 100)) === root)   // where the unrotated bar would be
        #expect(root.hitTest(Point(x: 115, y: 100)) === root)
        // Bounds (0, 0) lies 50 before the anchor along x and 10 before it along y; turned a
        // quarter clockwise (y down), that is (+10, -50) from the position.
        #expect(close(bar.convert(Point(x: 0, y: 0), to: root), Point(x: 110, y: 50)))
        #expect(close(bar.convert(Point(x: 110, y: 50), from: root), Point(x: 0, y: 0)))
    }

    @Test func scaledLayerIsHitOverItsScaledExtent() {
        let root = root()
        let dot = Layer()
        dot.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        dot.position = Point(x: 50, y: 50)
        dot.transform = Transform(scaleX: 3, y: 3)         // 35...65 on both axes
        root.addSublayer(dot)
        #expect(root.hitTest(Point(x: 36, y: 64)) === dot)
        #expect(root.hitTest(Point(x: 66, y: 50)) === root)
        #expect(close(dot.convert(Point(x: 10, y: 10), to: root), Point(x: 65, y: 65)))
    }

    @Test func anchorPointMovesTheLayerAroundItsPosition() {
        let root = root()
        let layer = Layer()
        layer.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        layer.anchorPoint = Point(x: 0, y: 0)
        layer.position = Point(x: 100, y: 100)             // 100...140
        layer.transform = Transform(rotationAngle: .pi)   // about the top-left corner: 60...100
        root.addSublayer(layer)
        #expect(root.hitTest(Point(x: 70, y: 70)) === layer)
        #expect(root.hitTest(Point(x: 120, y: 120)) === root)
    }

    @Test func nestedLayersAndBoundsOriginCompose() {
        let root = root()
        let scroller = Layer()
        scroller.frame = Rect(x: 20, y: 20, width: 100, height: 100)
        scroller.bounds.origin = Point(x: 100, y: 100)     // scrolled: its (100, 100) shows at (20, 20)
        let item = Layer()
        item.frame = Rect(x: 110, y: 110, width: 20, height: 20)   // shows at 30...50
        let dot = Layer()
        dot.frame = Rect(x: 5, y: 5, width: 5, height: 5)           // inside item: 35...40
        root.addSublayer(scroller)
        scroller.addSublayer(item)
        item.addSublayer(dot)
        #expect(root.hitTest(Point(x: 37, y: 37)) === dot)
        #expect(root.hitTest(Point(x: 45, y: 45)) === item)
        #expect(root.hitTest(Point(x: 25, y: 25)) === scroller)
        #expect(scroller.hitTest(Point(x: 37, y: 37)) === dot)      // the receiver's superlayer space is root's
        #expect(close(dot.convert(Point(x: 0, y: 0), to: nil), Point(x: 35, y: 35)))
        #expect(close(dot.convert(Point(x: 0, y: 0), to: scroller), Point(x: 115, y: 115)))
        #expect(close(item.convert(Point(x: 115, y: 115), from: scroller), Point(x: 5, y: 5)))
    }

    @Test func sublayerTransformScalesTheSublayersAboutTheAnchor() {
        let root = root()
        let stage = Layer()
        stage.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        stage.sublayerTransform = Transform(scaleX: 2, y: 2)   // about (50, 50)
        let tile = Layer()
        tile.frame = Rect(x: 50, y: 50, width: 10, height: 10)  // shows at 50...70
        stage.addSublayer(tile)
        root.addSublayer(stage)
        #expect(root.hitTest(Point(x: 65, y: 65)) === tile)
        #expect(root.hitTest(Point(x: 55, y: 55)) === tile)
        #expect(root.hitTest(Point(x: 75, y: 65)) === stage)
        #expect(close(tile.convert(Point(x: 10, y: 10), to: root), Point(x: 70, y: 70)))
        #expect(close(tile.convert(Point(x: 70, y: 70), from: nil), Point(x: 10, y: 10)))
    }

    @Test func masksToBoundsClipsTheSublayersHits() {
        let root = root()
        let clip = Layer()
        clip.frame = Rect(x: 0, y: 0, width: 50, height: 50)
        let child = Layer()
        child.frame = Rect(x: 40, y: 40, width: 30, height: 30)   // sticks out to 70
        clip.addSublayer(child)
        root.addSublayer(clip)
        #expect(root.hitTest(Point(x: 60, y: 60)) === child)      // unclipped: the part outside is hit
        clip.masksToBounds = true
        #expect(root.hitTest(Point(x: 60, y: 60)) === root)
        #expect(root.hitTest(Point(x: 45, y: 45)) === child)
        #expect(clip.hitTest(Point(x: 60, y: 60)) == nil)
    }

    @Test func hiddenLayersAndTheirSublayersAreSkipped() {
        let root = root()
        let panel = Layer()
        panel.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let button = Layer()
        button.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        panel.addSublayer(button)
        root.addSublayer(panel)
        button.isHidden = true
        #expect(root.hitTest(Point(x: 15, y: 15)) === panel)
        button.isHidden = false
        panel.isHidden = true
        #expect(root.hitTest(Point(x: 15, y: 15)) === root)
    }

    @Test func frontMostSiblingWinsByOrderThenZPosition() {
        let root = root()
        let back = Layer(), front = Layer()
        back.frame = Rect(x: 0, y: 0, width: 60, height: 60)
        front.frame = Rect(x: 40, y: 40, width: 60, height: 60)
        root.addSublayer(back)
        root.addSublayer(front)
        #expect(root.hitTest(Point(x: 50, y: 50)) === front)     // added last, drawn last
        back.zPosition = 1
        #expect(root.hitTest(Point(x: 50, y: 50)) === back)
        front.zPosition = 1                                        // equal: order decides again
        #expect(root.hitTest(Point(x: 50, y: 50)) === front)
        #expect(root.hitTest(Point(x: 20, y: 20)) === back)
    }

    @Test func collapsedLayerIsNeverHit() {
        let root = root()
        let flat = Layer()
        flat.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        flat.transform = Transform(scaleX: 0, y: 1)
        root.addSublayer(flat)
        #expect(root.hitTest(Point(x: 50, y: 50)) === root)
    }

    @Test func overriddenContainsShapesTheHit() {
        final class Disc: Layer {
            override func contains(_ point: Point) -> Bool {
                let dx = point.x - bounds.midX, dy = point.y - bounds.midY
                return dx * dx + dy * dy <= (bounds.width / 2) * (bounds.width / 2)
            }
        }
        let root = root()
        let disc = Disc()
        disc.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(disc)
        #expect(root.hitTest(Point(x: 50, y: 50)) === disc)
        #expect(root.hitTest(Point(x: 5, y: 5)) === root)       // a corner of the bounds, outside the disc
    }

    @Test func modelLayersHitWithModelValuesAndPresentationCopiesWhereTheyAreShown() throws {
        let (root, child) = committedPair()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        child.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        LayerClock.advance(to: 0.016)
        let move = BasicAnimation(keyPath: "position")
        move.fromValue = Point(x: 110, y: 110)
        move.toValue = Point(x: 110, y: 110)
        move.duration = 10
        child.add(move, forKey: "move")
        LayerClock.advance(to: 1)
        #expect(root.hitTest(Point(x: 10, y: 10)) === child)      // the model is still at the origin
        #expect(root.hitTest(Point(x: 110, y: 110)) === root)
        let shown = try #require(child.presentation())
        #expect(shown.hitTest(Point(x: 110, y: 110)) === shown)
        #expect(shown.hitTest(Point(x: 110, y: 110))?.model() === child)
        #expect(shown.hitTest(Point(x: 10, y: 10)) == nil)
    }
}
}

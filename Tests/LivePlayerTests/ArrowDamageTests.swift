import Foundation
import Testing
@testable import live_player
@testable import LiveLayers
import Raster

/// The arrow scene's sweep redraws the pixels around the arrow's head, wherever the head is, and
/// those frames are the frames a whole redraw gives.
@MainActor
@Suite(.serialized) struct ArrowDamageTests {
    /// A whole go cycle (grow, then shrink back) at 60 Hz. Each frame's damage fits in the square
    /// bounding the annular sector the head can touch in one frame: the head's angle, the
    /// frame's step, and one of the arcs' fixed pieces (the piece the head is in is rebuilt),
    /// through the band's thickness; on a diagonal the sector's box is widest. Before the arcs
    /// were cut at fixed angles and grown spans damaged only their new columns, a frame damaged
    /// the band back to the last quarter turn (a quarter of the square's area).
    @Test func everyFrameDamagesOnlyAroundTheHead() throws {
        LayerRuntime.shared.reset()
        let side = 480
        let setup = SceneSetup(size: Size(width: Double(side), height: Double(side)), image: nil)
        let scene = makeScene(.arrow, setup: setup), twin = makeScene(.arrow, setup: setup)
        Transaction.flush()
        let damaged = LayerRenderer(), whole = LayerRenderer()
        whole.isDamageTrackingEnabled = false
        damaged.clearColor = scene.clearColor
        whole.clearColor = twin.clearColor
        let a = try Bitmap(width: side, height: side), b = try Bitmap(width: side, height: side)
        LayerClock.advance(to: 0)
        damaged.render(scene.root, at: 0, into: a)
        whole.render(twin.root, at: 0, into: b)
        scene.go()
        twin.go()

        let radius = Double(side) / 2, thickness = 60 * Double(side) / 600
        let sector = .pi / 16 + 2 * .pi / 120 + ArrowLayer.arcPieceRadians
        let reach = Int((radius * sector + thickness).rounded(.up))
        let bound = reach * reach
        var largest = (frame: 0, area: 0), frames = 0
        for frame in 1...240 {
            let t = Double(frame) / 60
            scene.frameDelivered(at: t)
            twin.frameDelivered(at: t)
            let area = damaged.render(scene.root, at: t, into: a).reduce(0) { $0 + $1.area }
            whole.render(twin.root, at: t, into: b)
            if area > 0 { frames += 1 }
            if area > largest.area { largest = (frame, area) }
            if frame % 12 == 0 {
                let same = a.hasSamePixels(as: b)
                #expect(same, "frame \(frame): damage-only pixels differ from a whole redraw")
                if !same { break }
            }
        }
        #expect(frames >= 230, "only \(frames) frames damaged anything")
        #expect(largest.area <= bound, "frame \(largest.frame) damaged \(largest.area) pixels, more than \(bound)")
    }

    /// A go cycle ends where it began: the frames after it show no arrow, as before go. Its last
    /// animated frame drew a sliver of the arrow (1/60 of a turn), and the model's empty arrow was
    /// never drawn after the sweep was removed, so the sliver stayed for good.
    @Test func afterAGoCycleNoSliverOfTheArrowStays() throws {
        LayerRuntime.shared.reset()
        let side = 240
        let scene = makeScene(.arrow, setup: SceneSetup(size: Size(width: Double(side), height: Double(side)), image: nil))
        Transaction.flush()
        let renderer = LayerRenderer()
        renderer.clearColor = scene.clearColor
        let frame = try Bitmap(width: side, height: side)
        LayerClock.advance(to: 0)
        renderer.render(scene.root, at: 0, into: frame)
        let before = try #require(frame.cropped(to: frame.bounds))
        scene.go()
        for index in 1...250 {
            let t = Double(index) / 60
            scene.frameDelivered(at: t)
            LayerClock.advance(to: t)
            renderer.render(scene.root, at: t, into: frame)
        }
        #expect(frame.hasSamePixels(as: before), "the frame after the cycle is not the frame before go")
    }
}

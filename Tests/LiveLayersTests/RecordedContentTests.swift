import Foundation
import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport

/// A ring sector growing clockwise from 12 o'clock, drawn with solid fills only (recordable).
/// With `spoilsRecording`, it also clears an empty rectangle, which a fill recording cannot
/// hold: the renderer then keeps a backing store, the route before recorded content.
final class WedgeLayer: Layer {
    @LayerProperty var sweep = 0.0
    @LayerProperty var color: Color = .white
    var spoilsRecording = false
    private var outline = Path()

    required init() { super.init() }

    override class func needsDisplay(forKey key: String) -> Bool { key == "sweep" || key == "color" }

    override func draw(in context: GraphicsContext) {
        if model().spoilsRecording { context.clear(Rect(x: 0, y: 0, width: 0, height: 0)) }
        guard sweep > 0 else { return }
        let c = bounds.center, outer = bounds.width / 2, inner = outer * 0.6
        outline.removeAll()
        outline.addArc(center: c, radius: outer, startAngle: -.pi / 2, endAngle: -.pi / 2 + sweep, clockwise: false)
        outline.addArc(center: c, radius: inner, startAngle: -.pi / 2 + sweep, endAngle: -.pi / 2, clockwise: true)
        outline.closeSubpath()
        context.setFillColor(color)
        context.fill(outline)
        // A second, overlapping fill: a dot at the tip.
        let tip = Point(x: c.x + outer * 0.8 * cos(-.pi / 2 + sweep), y: c.y + outer * 0.8 * sin(-.pi / 2 + sweep))
        context.setFillColor(color.withAlpha(color.alpha * 0.5))
        context.fill(Rect(x: tip.x - 6, y: tip.y - 6, width: 12, height: 12))
    }
}

extension RuntimeSuites {
@MainActor
@Suite struct RecordedContentTests {
    /// A picture with no constant runs, so misplaced pixels show.
    static func picture(_ side: Int) throws -> Bitmap {
        let b = try Bitmap(width: side, height: side)
        for y in 0..<side { for x in 0..<side { b[x, y] = 0xFF00_0000 | UInt32(x * 255 / side) << 16 | UInt32(y * 255 / side) << 8 | 0x80 } }
        return b
    }

    /// The arrow scene's shape: an opaque root, an image masked by a growing wedge.
    func maskedScene(spoiled: Bool = false, maskColor: Color = .white, maskOpacity: Double = 1) throws -> (root: Layer, wedge: WedgeLayer) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 120, height: 100)
        root.backgroundColor = Color(rgb: 0x202020)
        let image = Layer()
        image.frame = Rect(x: 15, y: 5, width: 90, height: 90)
        image.contents = try Self.picture(90)
        let wedge = WedgeLayer()
        wedge.spoilsRecording = spoiled
        wedge.frame = image.bounds
        wedge.color = maskColor
        wedge.opacity = maskOpacity
        wedge.setNeedsDisplay()
        image.mask = wedge
        root.addSublayer(image)
        keptRoots.append(root)
        return (root, wedge)
    }

    func grow(_ wedge: WedgeLayer) {
        let animation = BasicAnimation(keyPath: "sweep")
        animation.fromValue = 0.0
        animation.toValue = 2 * Double.pi
        animation.duration = 1
        wedge.add(animation, forKey: "grow")
    }

    /// Two copies of the masked scene, each drawn once at time 0: one by a renderer that redraws
    /// only damage, one by a renderer that redraws everything.
    func twinScenes() throws -> (trackedRoot: Layer, trackedWedge: WedgeLayer, tracked: Bitmap, damaged: LayerRenderer,
                                 fullRoot: Layer, fullWedge: WedgeLayer, full: Bitmap, everything: LayerRenderer) {
        freshRuntime()
        let (trackedRoot, trackedWedge) = try maskedScene()
        let (fullRoot, fullWedge) = try maskedScene()
        let tracked = try Bitmap(width: 120, height: 100), full = try Bitmap(width: 120, height: 100)
        let damaged = LayerRenderer(), everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        damaged.render(trackedRoot, at: 0, into: tracked)
        everything.render(fullRoot, at: 0, into: full)
        return (trackedRoot, trackedWedge, tracked, damaged, fullRoot, fullWedge, full, everything)
    }

    @Test func damageOnlyFramesOfAGrowingMaskEqualFullRedraws() throws {
        let (trackedRoot, trackedWedge, tracked, damaged, fullRoot, fullWedge, full, everything) = try twinScenes()
        grow(trackedWedge)
        grow(fullWedge)
        var damagedArea = 0
        for i in 1...40 {
            let t = Double(i) / 36
            for rect in damaged.render(trackedRoot, at: t, into: tracked) { damagedArea += rect.area }
            everything.render(fullRoot, at: t, into: full)
            let diff = difference(tracked, full, tolerance: 0)
            #expect(diff?.differingPixels == 0, "frame \(i)")
        }
        // Only the changing head is redrawn: far less than the masked layer's 92×92 pixels a frame.
        #expect(damagedArea < 40 * 92 * 92 / 4, "damaged \(damagedArea) pixels in 40 frames")
    }

    /// When a redrawing animation goes away (ended and removed, or removed early), the layer is
    /// drawn again from its model: the arrow's autoreversing sweep ended on a sliver from its last
    /// animated frame, which stayed on screen, and a removed sweep kept its last picture.
    @Test func aRedrawingAnimationThatGoesAwayLeavesTheModelsDrawing() throws {
        for removesEarly in [false, true] {
            let (trackedRoot, trackedWedge, tracked, damaged, fullRoot, fullWedge, full, everything) = try twinScenes()
            let before = try #require(tracked.cropped(to: tracked.bounds))
            for wedge in [trackedWedge, fullWedge] {
                let animation = BasicAnimation(keyPath: "sweep")
                animation.fromValue = 0.0
                animation.toValue = 2 * Double.pi
                animation.duration = 2
                animation.autoreverses = true
                wedge.add(animation, forKey: "grow")
            }
            for i in 1...260 {
                let t = Double(i) / 60
                if removesEarly, i == 30 { trackedWedge.removeAnimation(forKey: "grow"); fullWedge.removeAnimation(forKey: "grow") }
                damaged.render(trackedRoot, at: t, into: tracked)
                everything.render(fullRoot, at: t, into: full)
            }
            #expect(difference(tracked, before, tolerance: 0)?.differingPixels == 0, "damage-only, removed early: \(removesEarly)")
            #expect(difference(full, before, tolerance: 0)?.differingPixels == 0, "whole redraws, removed early: \(removesEarly)")
        }
    }

    @Test func recordedFillsDrawTheSamePixelsAsABackingStore() throws {
        freshRuntime()
        for (color, opacity) in [(Color.white, 1.0), (Color(red: 1, green: 1, blue: 1, alpha: 0.6), 1.0), (Color.white, 0.5)] {
            // As a mask (tracked 8-bit coverage against the mask drawn into pixels)…
            let (a, wa) = try maskedScene(maskColor: color, maskOpacity: opacity)
            let (b, wb) = try maskedScene(spoiled: true, maskColor: color, maskOpacity: opacity)
            // …and as content (replayed fills against a backing store).
            let (c, wc) = try maskedScene(maskColor: color, maskOpacity: opacity)
            let (d, wd) = try maskedScene(spoiled: true, maskColor: color, maskOpacity: opacity)
            for (root, wedge) in [(c, wc), (d, wd)] {
                let image = root.sublayers[0]
                image.mask = nil
                image.contents = nil
                image.addSublayer(wedge)
            }
            for wedge in [wa, wb, wc, wd] { wedge.sweep = 4 }
            var bitmaps: [Bitmap] = []
            let renderer = LayerRenderer()
            for root in [a, b, c, d] {
                let bitmap = try Bitmap(width: 120, height: 100)
                renderer.render(root, at: 0, into: bitmap)
                bitmaps.append(bitmap)
            }
            #expect(wa.record(in: renderer).tracksCoverage && !wb.record(in: renderer).tracksCoverage)
            #expect(wc.record(in: renderer).hasFills && !wd.record(in: renderer).hasFills && wd.record(in: renderer).backingStore != nil)
            #expect(difference(bitmaps[0], bitmaps[1], tolerance: 1)?.differingPixels == 0, "mask \(color) \(opacity)")
            #expect(difference(bitmaps[2], bitmaps[3], tolerance: 1)?.differingPixels == 0, "content \(color) \(opacity)")
        }
    }
}
}

extension RuntimeSuites.RecordedContentTests {
    /// Every drawing call a fill recording cannot replay keeps the layer on a backing store.
    @Test func drawingOtherThanSolidFillsIsNotRecorded() throws {
        let picture = try Self.picture(4)
        let calls: [(String, (GraphicsContext) -> Void)] = [
            ("image", { $0.draw(picture, in: Rect(x: 0, y: 0, width: 4, height: 4)) }),
            ("clear", { $0.clear(Rect(x: 0, y: 0, width: 2, height: 2)) }),
            ("clip", { $0.clip(to: Rect(x: 0, y: 0, width: 2, height: 2)) }),
            ("gradient", { $0.setFillPaint(.image(picture, transform: .identity)); $0.fill(Rect(x: 0, y: 0, width: 4, height: 4)) }),
            ("blend mode", { $0.setBlendMode(.copy); $0.fill(Rect(x: 0, y: 0, width: 4, height: 4)) }),
            ("composite", { $0.composite(picture, region: IntRect(x: 0, y: 0, width: 4, height: 4), alpha: 1) }),
        ]
        for (name, call) in calls {
            let recording = FillRecording()
            let context = GraphicsContext(recordingInto: recording, clip: IntRect(x: 0, y: 0, width: 8, height: 8))
            context.fill(Rect(x: 0, y: 0, width: 8, height: 8))
            call(context)
            #expect(!recording.isComplete, "\(name)")
        }
        let recording = FillRecording()
        let context = GraphicsContext(recordingInto: recording, clip: IntRect(x: 0, y: 0, width: 8, height: 8))
        context.fill(Rect(x: 0, y: 0, width: 8, height: 8))
        context.stroke(Rect(x: 1, y: 1, width: 4, height: 4))
        #expect(recording.isComplete && recording.fills.count == 2)
    }
}

extension RuntimeSuites.RecordedContentTests {
    /// Drawn content and a shape whose redrawing keys animate under a paused ancestor (Lottie's
    /// root, whose time offset is the frame): scrubbing the ancestor redraws them under damage
    /// tracking, at the same media time and at later ones, as a fresh tree drawn whole shows them.
    @Test func scrubbingAPausedAncestorRedrawsAnimatedDrawnContent() throws {
        freshRuntime()
        func scene() throws -> (root: Layer, paused: Layer) {
            let (root, wedge) = try maskedScene()
            let image = root.sublayers[0]
            image.mask = nil
            image.contents = nil
            let paused = Layer()
            paused.frame = image.frame
            paused.speed = 0
            root.addSublayer(paused)
            wedge.frame = paused.bounds
            paused.addSublayer(wedge)
            let animation = BasicAnimation(keyPath: "sweep")
            animation.fromValue = 0.0
            animation.toValue = 2 * Double.pi
            animation.duration = 1
            animation.beginTime = 1e-100
            animation.fillMode = .both
            animation.isRemovedOnCompletion = false
            wedge.add(animation, forKey: "grow")
            // A shape whose path animates (as Lottie's shapes do), drawn straight into the frame.
            let shape = ShapeLayer()
            shape.frame = paused.bounds
            shape.fillColor = Color(rgb: 0x3080F0)
            func ellipse(_ rect: Rect) -> Path {
                var path = Path()
                path.addEllipse(in: rect)
                return path
            }
            let move = BasicAnimation(keyPath: "path")
            move.fromValue = ellipse(Rect(x: 0, y: 0, width: 20, height: 20))
            move.toValue = ellipse(Rect(x: 60, y: 50, width: 30, height: 40))
            move.duration = 1
            move.beginTime = 1e-100
            move.fillMode = .both
            move.isRemovedOnCompletion = false
            shape.add(move, forKey: "move")
            paused.addSublayer(shape)
            return (root, paused)
        }
        let (trackedRoot, trackedPaused) = try scene()
        let tracked = try Bitmap(width: 120, height: 100)
        let damaged = LayerRenderer()
        var time = 0.0
        for (i, offset) in [0.1, 0.3, 0.3, 0.6, 0.2, 0.9, 0.5].enumerated() {
            trackedPaused.timeOffset = offset
            if i % 2 == 0 { time += 1.0 / 60 }   // scrubbed while media time advances, and while it stands still
            damaged.render(trackedRoot, at: time, into: tracked)
            // The same frame from a fresh tree, drawn whole by a fresh renderer.
            let (fullRoot, fullPaused) = try scene()
            fullPaused.timeOffset = offset
            let full = try Bitmap(width: 120, height: 100)
            LayerRenderer().render(fullRoot, at: time, into: full)
            #expect(difference(tracked, full, tolerance: 0)?.differingPixels == 0, "offset \(offset) at \(time)")
        }
    }
}

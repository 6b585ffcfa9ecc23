import Foundation
import Testing
@testable import live_player
@testable import LiveLayers
import Raster
import RasterTestSupport

/// The seed's ArrowLayer as a user wrote it: custom properties, presentation copies, animation
/// in a transaction, and the arrow masking an image.
@MainActor
@Suite(.serialized) struct ArrowLayerTests {
    /// A colourful test image: horizontal and vertical gradients with a checker.
    static func photo(width: Int, height: Int) throws -> Bitmap {
        let image = try Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let checker = ((x / 16) + (y / 16)) % 2 == 0 ? 0.15 : 0
                let color = Color(red: Double(x) / Double(width), green: 0.4 + checker, blue: Double(y) / Double(height))
                image[x, y] = color.premultipliedPixel
            }
        }
        return image
    }

    @Test func customPropertiesAreCopiedIntoThePresentation() throws {
        LayerRuntime.shared.reset()
        let arrow = ArrowLayer()
        arrow.thickness = 33
        arrow.lineJoin = .bevel
        arrow.strokeColor = .red
        LayerClock.advance(to: 0.1)
        #expect(arrow.presentation() == nil)                       // nothing animating yet
        let grow = BasicAnimation(keyPath: "lengthRadians")
        grow.toValue = 2.0
        grow.duration = 1
        arrow.add(grow, forKey: "grow")
        LayerClock.advance(to: 0.6)
        let shown = try #require(arrow.presentation())
        #expect(abs(shown.lengthRadians - 1) < 1e-9)
        #expect(shown !== arrow)
        #expect(shown.thickness == 33)
        #expect(shown.lineJoin == .bevel)
        #expect(shown.strokeColor == .red)
        #expect(ArrowLayer.needsDisplay(forKey: "lengthRadians"))
        #expect(!ArrowLayer.needsDisplay(forKey: "position"))
    }

    @Test func lengthAnimatesInATransactionWithACompletionBlock() throws {
        LayerRuntime.shared.reset()
        let root = Layer()
        let arrow = ArrowLayer()
        root.addSublayer(arrow)
        LayerClock.advance(to: 0)
        var goButtonShown = false
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.completionBlock = { goButtonShown = true }
        let grow = BasicAnimation(keyPath: "lengthRadians")
        grow.fromValue = 0.0
        grow.toValue = 1.5 * Double.pi
        arrow.lengthRadians = 1.5 * .pi
        arrow.add(grow, forKey: "grow")
        Transaction.commit()
        LayerClock.advance(to: 1)
        #expect(arrow.lengthRadians == 1.5 * .pi)
        #expect(abs(try #require(arrow.presentation()).lengthRadians - 0.75 * .pi) < 1e-9)
        #expect(!goButtonShown)
        LayerClock.advance(to: 2)
        #expect(goButtonShown)
        withExtendedLifetime(root) {}
    }

    @Test func redrawsEveryFrameWhileTheLengthAnimates() throws {
        LayerRuntime.shared.reset()
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        root.position = Point(x: 50, y: 50)
        let arrow = ArrowLayer()
        arrow.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        arrow.lengthRadians = 0.5
        root.addSublayer(arrow)
        let renderer = LayerRenderer()
        let bitmap = try Bitmap(width: 100, height: 100)
        renderer.render(root, at: 0, into: bitmap)
        let grow = BasicAnimation(keyPath: "lengthRadians")
        grow.toValue = 3.0
        grow.duration = 1
        arrow.add(grow, forKey: "grow")
        var frames: [Bitmap] = []
        for i in 1...4 {
            let damage = renderer.render(root, at: Double(i) * 0.2, into: bitmap)
            #expect(!damage.isEmpty, "frame \(i)")
            frames.append(bitmap.cropped(to: bitmap.bounds)!)
        }
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(!a.hasSamePixels(as: b)) }
        renderer.render(root, at: 1.5, into: bitmap)
        #expect(renderer.render(root, at: 1.6, into: bitmap).isEmpty)   // idle: nothing redrawn
    }

    /// The seed: an image view masked by the arrow, at several lengths.
    static func maskedImage(length: Double) throws -> Bitmap {
        LayerRuntime.shared.reset()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 160, height: 160)
        root.backgroundColor = Color(white: 0.95)
        let imageView = Layer()
        imageView.frame = Rect(x: 10, y: 10, width: 140, height: 140)
        imageView.contents = try photo(width: 140, height: 140)
        let arrow = ArrowLayer()
        arrow.frame = imageView.bounds
        arrow.thickness = 28
        arrow.headLengthRadians = 0.5
        arrow.lengthRadians = length
        imageView.mask = arrow
        root.addSublayer(imageView)
        let bitmap = try Bitmap(width: 160, height: 160)
        LayerRenderer().render(root, at: 0, into: bitmap)
        return bitmap
    }

    @Test(arguments: [("arrow-mask-quarter", 0.5 * Double.pi), ("arrow-mask-half", Double.pi),
                      ("arrow-mask-most", 1.75 * Double.pi), ("arrow-mask-reverse", -1.25 * Double.pi)])
    func arrowMasksAnImage(name: String, length: Double) throws {
        let bitmap = try Self.maskedImage(length: length)
        assertMatchesGolden(bitmap, named: name, in: Bundle.module, tolerance: 2)
        // Analytic checks: the centre is outside the band (background), a point on the band at
        // the tail's angle is the image, a point past the tip is background.
        #expect(bitmap[80, 80] == Color(white: 0.95).premultipliedPixel)
        let onBand = bitmap[length > 0 ? 86 : 74, 10 + 14]         // just past the tail at −π/2, mid radius 56
        #expect(onBand != Color(white: 0.95).premultipliedPixel)
    }
}

import Foundation
import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport

extension RuntimeSuites {
@MainActor
@Suite struct LayerEffectsTests {
    init() { freshRuntime() }

    func host(_ width: Double, _ height: Double, _ color: Color = .white) -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = color
        keptRoots.append(root)
        return root
    }

    func square(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    @Test func groupOpacityDiffersFromPerChildOpacityExactlyWhereChildrenOverlap() throws {
        freshRuntime()
        func render(group: Bool) throws -> Bitmap {
            let r = host(64, 64)
            let parent = Layer()
            parent.frame = Rect(x: 0, y: 0, width: 64, height: 64)
            parent.opacity = 0.5
            parent.allowsGroupOpacity = group
            parent.addSublayer(square(Rect(x: 8, y: 8, width: 30, height: 30), .red))
            parent.addSublayer(square(Rect(x: 24, y: 24, width: 30, height: 30), .blue))
            r.addSublayer(parent)
            let bitmap = try Bitmap(width: 64, height: 64)
            LayerRenderer().render(r, at: 0, into: bitmap)
            return bitmap
        }
        let grouped = try render(group: true), separate = try render(group: false)
        let overlap = IntRect(x: 24, y: 24, width: 14, height: 14)
        for y in 0..<64 {
            for x in 0..<64 {
                let inside = x >= overlap.x && x < overlap.maxX && y >= overlap.y && y < overlap.maxY
                #expect((grouped[x, y] != separate[x, y]) == inside, "(\(x), \(y))")
            }
        }
        // In the group the blue square hides the red one: half blue over white.
        #expect(grouped[30, 30] == BlendFunction.normal.composite(Color.blue.withAlpha(0.5).premultipliedPixel, over: Color.white.premultipliedPixel))
    }

    @Test func compositingFilterBlendsTheLayerWithTheBackdropBySpec() throws {
        freshRuntime()
        let r = host(32, 16, Color(rgb: 0x80C040))
        for (i, mode) in [BlendFunction.multiply, .screen, .difference, .luminosity].enumerated() {
            let s = square(Rect(x: Double(i) * 8, y: 0, width: 8, height: 16), Color(red: 0.9, green: 0.3, blue: 0.6, alpha: 0.8))
            s.compositingFilter = mode
            r.addSublayer(s)
        }
        let bitmap = try Bitmap(width: 32, height: 16)
        LayerRenderer().render(r, at: 0, into: bitmap)
        let source = Color(red: 0.9, green: 0.3, blue: 0.6, alpha: 0.8).premultipliedPixel
        for (i, mode) in [BlendFunction.multiply, .screen, .difference, .luminosity].enumerated() {
            #expect(bitmap[i * 8 + 4, 8] == mode.composite(source, over: Color(rgb: 0x80C040).premultipliedPixel))
        }
    }

    @Test func shadowFallsAtItsOffsetIsCachedAndDamagedFramesMatchFullRedraws() throws {
        freshRuntime()
        let r = host(96, 96)
        let card = square(Rect(x: 24, y: 24, width: 32, height: 32), .white)
        card.shadowOpacity = 1
        card.shadowRadius = 4
        card.shadowOffset = Size(width: 10, height: 10)
        let other = square(Rect(x: 70, y: 4, width: 10, height: 10), .red)
        r.addSublayer(card)
        r.addSublayer(other)
        let tracked = try Bitmap(width: 96, height: 96), full = try Bitmap(width: 96, height: 96)
        let damaged = LayerRenderer(), everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        damaged.render(r, at: 0, into: tracked)
        // Below and right of the card, deep inside the offset square (34...66), the shadow is dark.
        #expect(tracked[58, 58] & 0xFF <= 3)
        #expect(tracked[40, 40] == Color.white.premultipliedPixel)       // the card covers its shadow
        #expect(tracked[20, 20] == Color.white.premultipliedPixel)       // nothing up and left
        // Across the shadow's edge (x = 66) the blur gives half: the two pixels beside it average 1/2.
        let edge = (Int(tracked[65, 50] & 0xFF) + Int(tracked[66, 50] & 0xFF)) / 2
        #expect(abs(edge - 128) <= 8, "\(edge)")
        #expect(tracked[76, 50] == Color.white.premultipliedPixel)       // beyond the blur's reach
        let blur = try #require(card.record(in: damaged).shadowBlur)
        // Moving another layer leaves the shadow's blur alone.
        other.position = Point(x: 80, y: 12)
        damaged.render(r, at: 0.1, into: tracked)
        #expect(card.record(in: damaged).shadowBlur === blur && !card.record(in: damaged).shadowIsStale)
        let move = BasicAnimation(keyPath: "shadowOffset")
        move.toValue = Size(width: -6, height: 4)
        move.duration = 1
        card.add(move, forKey: "move")
        for frame in 0...12 {
            let t = 0.2 + Double(frame) * 0.1
            damaged.render(r, at: t, into: tracked)
            everything.render(r, at: t, into: full)
            #expect(tracked.hasSamePixels(as: full), "frame \(frame)")
        }
    }

    @Test func shadowPathCastsThePathsShadow() throws {
        freshRuntime()
        let r = host(64, 64)
        let layer = Layer()
        layer.frame = Rect(x: 16, y: 16, width: 32, height: 32)
        layer.shadowOpacity = 0.5
        layer.shadowRadius = 0
        layer.shadowOffset = Size(width: 0, height: 0)
        var circle = Path()
        circle.addEllipse(in: Rect(x: 0, y: 0, width: 32, height: 32))
        layer.shadowPath = circle
        r.addSublayer(layer)
        let bitmap = try Bitmap(width: 64, height: 64)
        LayerRenderer().render(r, at: 0, into: bitmap)
        #expect(bitmap[32, 32] == BlendFunction.normal.composite(Color(white: 0, alpha: 0.5).premultipliedPixel, over: Color.white.premultipliedPixel))
        #expect(bitmap[17, 17] == Color.white.premultipliedPixel)        // outside the circle
    }

    @Test func effectsMatchGolden() throws {
        freshRuntime()
        let r = host(200, 100, Color(white: 0.92))
        let card = square(Rect(x: 16, y: 16, width: 70, height: 50), .white)
        card.cornerRadius = 10
        card.shadowOpacity = 0.45
        card.shadowRadius = 8
        card.shadowOffset = Size(width: 0, height: 6)
        let badge = square(Rect(x: 50, y: -8, width: 28, height: 28), Color(rgb: 0xE04040))
        badge.cornerRadius = 14
        card.addSublayer(badge)
        let group = Layer()
        group.frame = Rect(x: 110, y: 16, width: 80, height: 70)
        group.opacity = 0.6
        group.addSublayer(square(Rect(x: 0, y: 0, width: 50, height: 40), Color(rgb: 0x3366CC)))
        group.addSublayer(square(Rect(x: 25, y: 25, width: 50, height: 40), Color(rgb: 0xFFAA00)))
        let overlay = square(Rect(x: 100, y: 40, width: 90, height: 20), Color(rgb: 0xFF3366))
        overlay.compositingFilter = .multiply
        r.addSublayer(card)
        r.addSublayer(group)
        r.addSublayer(overlay)
        let bitmap = try Bitmap(width: 200, height: 100)
        LayerRenderer().render(r, at: 0, into: bitmap)
        assertMatchesGolden(bitmap, named: "layer-effects", in: Bundle.module, tolerance: GoldenTolerance.default)
    }
}
}

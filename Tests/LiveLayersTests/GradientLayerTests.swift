import Foundation
import Testing
@testable import LiveLayers
@testable import Raster
import RasterTestSupport

extension RuntimeSuites {
@MainActor
@Suite struct GradientLayerTests {
    init() { freshRuntime() }

    func host(_ width: Double, _ height: Double) -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = .white
        keptRoots.append(root)
        return root
    }

    @Test func axialEndsLandExactlyOnTheirPixels() throws {
        freshRuntime()
        let r = host(64, 16)
        let g = GradientLayer()
        g.frame = Rect(x: 0, y: 0, width: 64, height: 16)
        g.colors = [Color(rgb: 0xCC3311), Color(rgb: 0x1133CC)]
        // Start and end at the centres of the first and last columns.
        g.startPoint = Point(x: 0.5 / 64, y: 0.5)
        g.endPoint = Point(x: 63.5 / 64, y: 0.5)
        r.addSublayer(g)
        let bitmap = try Bitmap(width: 64, height: 16)
        LayerRenderer().render(r, at: 0, into: bitmap)
        for y in 0..<16 {
            #expect(bitmap[0, y] == Color(rgb: 0xCC3311).premultipliedPixel)
            #expect(bitmap[63, y] == Color(rgb: 0x1133CC).premultipliedPixel)
        }
    }

    @Test func unchangedGradientIsNotRedrawn() throws {
        freshRuntime()
        let r = host(32, 32)
        let g = GradientLayer()
        g.frame = Rect(x: 0, y: 0, width: 32, height: 32)
        g.colors = [.red, .blue]
        r.addSublayer(g)
        let bitmap = try Bitmap(width: 32, height: 32)
        let renderer = LayerRenderer()
        renderer.render(r, at: 0, into: bitmap)
        let version = g.record(in: renderer).contentVersion
        #expect(renderer.render(r, at: 1, into: bitmap).isEmpty)
        #expect(g.record(in: renderer).contentVersion == version)
        g.colors = [.green, .blue]          // a root-less change: no action, redrawn next frame
        LayerClock.advance(to: 1)
        #expect(!renderer.render(r, at: 1.5, into: bitmap).isEmpty)
        #expect(g.record(in: renderer).contentVersion == version + 1)
        #expect(bitmap[16, 0] != Color.red.premultipliedPixel)
    }

    @Test func colorsLocationsAndPointsAnimate() throws {
        freshRuntime()
        let root = Layer()
        keptRoots.append(root)
        let g = GradientLayer()
        root.addSublayer(g)
        g.colors = [.red, .blue]
        g.locations = [0, 1]
        LayerClock.advance(to: 0)
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        g.colors = [.blue, .red]
        g.locations = [0.2, 0.6]
        g.endPoint = Point(x: 1, y: 1)
        Transaction.commit()
        LayerClock.advance(to: 0.5)
        let shown = try #require(g.presentation())
        #expect(shown.colors.count == 2)
        #expect(close(shown.colors[0].red, 0.5) && close(shown.colors[0].blue, 0.5))
        #expect(close(shown.locations?[1] ?? 0, 0.8))
        #expect(close(shown.endPoint, Point(x: 0.75, y: 1)))
        #expect(GradientLayer.needsDisplay(forKey: "colors"))
    }

    @Test func animatedLocationsReuseTheirStorageAndRampAndDrawAsAFreshGradient() throws {
        freshRuntime()
        let r = host(64, 16)
        let g = GradientLayer()
        g.frame = Rect(x: 0, y: 0, width: 64, height: 16)
        g.colors = [Color(rgb: 0x5B6B7C), Color(rgb: 0xF4F7FA), Color(rgb: 0x5B6B7C)]
        g.locations = [0, 0.1, 0.2]
        g.startPoint = Point(x: 0, y: 0.5)
        g.endPoint = Point(x: 1, y: 0.5)
        r.addSublayer(g)
        let sweep = BasicAnimation(keyPath: "locations")
        sweep.fromValue = [-0.2, -0.1, 0.0]
        sweep.toValue = [1.0, 1.1, 1.2]
        sweep.duration = 1
        sweep.repeatCount = .infinity
        g.add(sweep, forKey: "sweep")
        let bitmap = try Bitmap(width: 64, height: 16)
        let renderer = LayerRenderer()
        var storage: Set<UnsafeRawPointer> = [], ramps: Set<ObjectIdentifier> = []
        for frame in 0..<6 {
            let t = Double(frame) * 0.13
            LayerClock.advance(to: t)
            renderer.render(r, at: t, into: bitmap)
            let shown = try #require(g.presentation())
            let locations = try #require(shown.locations)
            if frame > 0 {
                storage.insert(try #require(locations.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }))
                ramps.insert(ObjectIdentifier(try #require(shown.cachedShading).ramp))
            }
            // The same pixels as a gradient layer made with these locations from scratch.
            let fresh = GradientLayer()
            fresh.frame = g.frame
            fresh.colors = g.colors
            fresh.locations = locations.map { $0 }     // its own storage, not the animation's
            fresh.startPoint = g.startPoint
            fresh.endPoint = g.endPoint
            let freshRoot = host(64, 16)
            freshRoot.addSublayer(fresh)
            let expected = try Bitmap(width: 64, height: 16)
            LayerRenderer().render(freshRoot, at: t, into: expected)
            #expect(bitmap.hasSamePixels(as: expected), "frame \(frame)")
        }
        #expect(storage.count == 1)
        #expect(ramps.count == 1)
    }

    @Test func axialRadialAndConicMatchGolden() throws {
        freshRuntime()
        let r = host(192, 64)
        let stops = [Color(rgb: 0xFF5E62), Color(rgb: 0xFF9966), Color(rgb: 0x2B5876)]
        for (i, type) in [GradientType.axial, .radial, .conic].enumerated() {
            let g = GradientLayer()
            g.frame = Rect(x: Double(i) * 64 + 4, y: 4, width: 56, height: 56)
            g.type = type
            g.colors = stops
            g.locations = [0, 0.3, 1]
            switch type {
            case .axial: g.startPoint = Point(x: 0, y: 0); g.endPoint = Point(x: 1, y: 1)
            case .radial: g.startPoint = Point(x: 0.5, y: 0.5); g.endPoint = Point(x: 1, y: 0.8)
            case .conic: g.startPoint = Point(x: 0.5, y: 0.5); g.endPoint = Point(x: 0.5, y: 0)
            }
            r.addSublayer(g)
        }
        let bitmap = try Bitmap(width: 192, height: 64)
        LayerRenderer().render(r, at: 0, into: bitmap)
        assertMatchesGolden(bitmap, named: "gradient-layers", in: Bundle.module, tolerance: GoldenTolerance.default)
    }

    /// An axial gradient whose locations or colours animate damages only where its ramp changed
    /// (slabs of the band it moves), and every damage-only frame is the frame drawn whole: a
    /// slanted and a vertical axis, in a turned and an unturned rounded tile.
    @Test(arguments: [(0.0, false), (0.2, false), (0.0, true), (0.2, true)])
    func aChangedRampDamagesWhereItChangedAndEveryFrameIsTheWholeFrame(turn: Double, vertical: Bool) throws {
        freshRuntime()
        let r = host(160, 120)
        let tile = Layer()
        tile.frame = Rect(x: 14, y: 10, width: 130, height: 100)
        tile.transform = Transform(rotationAngle: turn)
        tile.cornerRadius = 9
        tile.masksToBounds = true
        tile.backgroundColor = .white
        let g = GradientLayer()
        g.frame = tile.bounds
        g.colors = [Color(rgb: 0x5B6B7C), Color(rgb: 0xF4F7FA), Color(rgb: 0x5B6B7C)]
        g.locations = [0, 0.1, 0.2]
        g.startPoint = vertical ? Point(x: 0.5, y: 0) : Point(x: 0, y: 0.3)
        g.endPoint = vertical ? Point(x: 0.5, y: 1) : Point(x: 1, y: 0.7)
        tile.addSublayer(g)
        r.addSublayer(tile)
        let sweep = BasicAnimation(keyPath: "locations")
        sweep.fromValue = [-0.2, -0.1, 0.0]
        sweep.toValue = [1.0, 1.1, 1.2]
        sweep.duration = 0.5
        sweep.repeatCount = .infinity
        g.add(sweep, forKey: "sweep")
        let pulse = BasicAnimation(keyPath: "colors")
        pulse.fromValue = g.colors
        pulse.toValue = [Color(rgb: 0x5B6B7C), Color(rgb: 0xFF5E62), Color(rgb: 0x5B6B7C)]
        pulse.beginTime = 0.4
        pulse.duration = 0.2
        g.add(pulse, forKey: "pulse")
        let bitmap = try Bitmap(width: 160, height: 120), whole = try Bitmap(width: 160, height: 120)
        let renderer = LayerRenderer(), everything = LayerRenderer()
        everything.isDamageTrackingEnabled = false
        var partial = 0
        for frame in 0..<45 {
            let t = Double(frame) / 60
            LayerClock.advance(to: t)
            let rects = renderer.render(r, at: t, into: bitmap)
            everything.render(r, at: t, into: whole)
            #expect(bitmap.hasSamePixels(as: whole), "frame \(frame)")
            if frame > 0, rects.reduce(0, { $0 + $1.area }) < 130 * 100 * 7 / 10 { partial += 1 }
        }
        #expect(partial >= 20, "\(partial) frames damaged less than 70 % of the tile")
    }
}
}

import Testing
@testable import LiveLayers
import Raster

/// A user type made animatable.
struct Gauge: Interpolatable {
    var level: Double
    func interpolated(to other: Gauge, at fraction: Double) -> Gauge { Gauge(level: level + (other.level - level) * fraction) }
    func adding(_ other: Gauge) -> Gauge { Gauge(level: level + other.level) }
    func subtracting(_ other: Gauge) -> Gauge { Gauge(level: level - other.level) }
    func distance(to other: Gauge) -> Double { abs(other.level - level) }
}

/// A layer subclass with its own designated initializer: the compiler requires `init()` too,
/// which is how presentation copies are made.
final class DialLayer: Layer {
    @LayerProperty var gauge = Gauge(level: 0)
    @LayerProperty var label = "dial"
    @LayerProperty var tint: Color? = nil
    var drawCount = 0

    init(label: String) {
        super.init()
        self.label = label
    }

    required init() {
        super.init()
    }

    override class func needsDisplay(forKey key: String) -> Bool { key == "gauge" }

    override func draw(in context: GraphicsContext) {
        model().drawCount += 1
    }
}

extension RuntimeSuites {
@MainActor
@Suite struct LayerPropertyTests {
    @Test func presentationCopiesCarryEveryCustomProperty() throws {
        freshRuntime()
        let dial = DialLayer(label: "speed")
        dial.gauge = Gauge(level: 3)
        dial.tint = .green
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.toValue = 1.0
        turn.duration = 10
        dial.add(turn, forKey: "turn")
        LayerClock.advance(to: 0)
        let shown = try #require(dial.presentation())
        #expect(type(of: shown) == DialLayer.self)
        #expect(shown.label == "speed" && shown.gauge.level == 3 && shown.tint == .green)
    }

    @Test func customTypesAnimateAndModelStays() throws {
        freshRuntime()
        let dial = DialLayer()
        dial.gauge = Gauge(level: 10)
        let sweep = BasicAnimation(keyPath: "gauge")
        sweep.fromValue = Gauge(level: 0)
        sweep.duration = 2
        dial.add(sweep, forKey: "sweep")
        LayerClock.advance(to: 0.5)
        #expect(try #require(dial.presentation()).gauge.level == 2.5)
        #expect(dial.gauge.level == 10)
        #expect(dial.value(forKeyPath: "gauge") as? Gauge == Gauge(level: 10))
    }

    @Test func nonInterpolatablePropertiesAreCopiedButNotAnimated() throws {
        freshRuntime()
        let dial = DialLayer()
        dial.label = "fuel"
        let bogus = BasicAnimation(keyPath: "label")
        bogus.toValue = 1.0
        dial.add(bogus, forKey: "b")
        LayerClock.advance(to: 0.1)
        #expect(try #require(dial.presentation()).label == "fuel")
        #expect(dial.setValue(2.0, forKeyPath: "label") == false)
    }

    @Test func customPropertiesHaveNoImplicitActionUnlessGivenOne() throws {
        freshRuntime()
        let (_, dial) = { () -> (Layer, DialLayer) in
            let root = Layer(), dial = DialLayer()
            root.addSublayer(dial)
            keptRoots.append(root)
            LayerClock.advance(to: 0)
            return (root, dial)
        }()
        dial.gauge = Gauge(level: 1)
        #expect(dial.animationKeys().isEmpty)
        dial.actions["gauge"] = BasicAnimation()
        dial.gauge = Gauge(level: 5)
        let implicit = try #require(dial.animation(forKey: "gauge") as? BasicAnimation)
        #expect(implicit.fromValue as? Gauge == Gauge(level: 1))
    }

    @Test func needsDisplayForKeyRedrawsOnChangeAndWhileAnimating() throws {
        freshRuntime()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        let dial = DialLayer()
        dial.frame = root.bounds
        root.addSublayer(dial)
        let bitmap = try Bitmap(width: 20, height: 20)
        let renderer = LayerRenderer()
        renderer.render(root, at: 0, into: bitmap)
        #expect(dial.drawCount == 0)                         // never asked for display
        dial.gauge = Gauge(level: 1)
        #expect(dial.needsDisplay())
        renderer.render(root, at: 0.1, into: bitmap)
        #expect(dial.drawCount == 1)
        renderer.render(root, at: 0.2, into: bitmap)
        #expect(dial.drawCount == 1)                         // cached
        dial.label = "no redraw"
        renderer.render(root, at: 0.3, into: bitmap)
        #expect(dial.drawCount == 1)
        let sweep = BasicAnimation(keyPath: "gauge")
        sweep.toValue = Gauge(level: 9)
        sweep.duration = 1
        dial.add(sweep, forKey: "s")
        for i in 1...5 { renderer.render(root, at: 0.3 + Double(i) * 0.1, into: bitmap) }
        #expect(dial.drawCount == 6)
    }

    @Test func transformComponentsRoundTrip() {
        for t in [Transform.identity, Transform(rotationAngle: 2), Transform(scaleX: 2, y: -3).rotated(by: 0.5).translatedBy(x: 4, y: 5),
                  Transform(a: 1, b: 0.2, c: 0.5, d: 1.5, tx: 3, ty: -2)] {
            let back = TransformComponents(t).transform
            for (x, y) in [(t.a, back.a), (t.b, back.b), (t.c, back.c), (t.d, back.d), (t.tx, back.tx), (t.ty, back.ty)] {
                #expect(abs(x - y) < 1e-12, "\(t)")
            }
        }
        // Half-way between two rotations takes the short way round.
        let mid = Transform(rotationAngle: 3).interpolated(to: Transform(rotationAngle: -3), at: 0.5)
        #expect(abs(abs(TransformComponents(mid).rotation) - .pi) < 1e-9)
    }

    @Test func frameHitTestAndConversion() {
        freshRuntime()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let child = Layer()
        child.frame = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(child.position == Point(x: 25, y: 40))
        #expect(child.frame == Rect(x: 10, y: 20, width: 30, height: 40))
        root.addSublayer(child)
        #expect(root.hitTest(Point(x: 15, y: 25)) === child)
        #expect(root.hitTest(Point(x: 5, y: 5)) === root)
        #expect(root.hitTest(Point(x: 500, y: 5)) == nil)
        #expect(child.convert(Point(x: 0, y: 0), to: root) == Point(x: 10, y: 20))
        #expect(child.convert(Point(x: 10, y: 20), from: root) == Point(x: 0, y: 0))
    }

    @Test func treeMisuseIsRejectedNotFatal() {
        freshRuntime()
        let a = Layer(), b = Layer()
        a.addSublayer(b)
        b.addSublayer(a)                                      // a cycle: refused
        #expect(a.superlayer == nil && b.sublayers.isEmpty)
        a.mask = a
        #expect(a.mask == nil)
        let c = Layer()
        a.insertSublayer(c, at: 99)
        #expect(a.sublayers.last === c)
        a.insertSublayer(Layer(), below: c)
        #expect(a.sublayers.last === c && a.sublayers.count == 3)
        a.mask = c                                            // a mask leaves its superlayer
        #expect(c.superlayer == nil && a.sublayers.count == 2)
    }
}
}

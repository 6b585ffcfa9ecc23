import Testing
@testable import LiveLayers
import Raster
import RasterTestSupport

extension RuntimeSuites {
/// Layers hidden under an opaque layer are not drawn (LayerRenderer+Occlusion), and the frame is
/// the same, pixel for pixel (tolerance 0), as drawing every layer.
@MainActor
@Suite struct OcclusionTests {
    /// An opaque root; a translucent square with a sublayer; `cover` over the whole 100×80 frame
    /// (opaque blue unless a case changes it); a green square on top.
    func scene(_ change: (Layer, Layer) -> Void = { _, _ in }) -> (root: Layer, cover: Layer) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 100, height: 80)
        root.backgroundColor = .white
        let under = Layer()
        under.frame = Rect(x: 10, y: 10, width: 30, height: 30)
        under.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        let inner = Layer()
        inner.frame = Rect(x: 5, y: 5, width: 10, height: 10)
        inner.backgroundColor = .black
        under.addSublayer(inner)
        let holder = Layer()
        holder.frame = root.bounds
        let cover = Layer()
        cover.frame = root.bounds
        cover.backgroundColor = Color(rgb: 0x2040A0)
        holder.addSublayer(cover)
        let top = Layer()
        top.frame = Rect(x: 60, y: 40, width: 20, height: 20)
        top.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 0.7)
        root.addSublayer(under)
        root.addSublayer(holder)
        root.addSublayer(top)
        change(holder, cover)
        keptRoots.append(root)
        return (root, cover)
    }

    /// Renders `root` at `time` with and without culling; returns both frames and the culled
    /// renderer's count of skipped layers.
    func renderBoth(_ root: Layer, at time: Double, culled: LayerRenderer, plain: LayerRenderer,
                    into a: Bitmap, _ b: Bitmap) -> Int {
        culled.render(root, at: time, into: a)
        plain.render(root, at: time, into: b)
        return culled.occlusion.skipped
    }

    func renderers() -> (LayerRenderer, LayerRenderer) {
        let plain = LayerRenderer()
        plain.isOcclusionCullingEnabled = false
        return (LayerRenderer(), plain)
    }

    @Test(arguments: [
        ("opaque, covering", true),
        ("half-pixel edges, inner pixels covering", true),
        ("inside a clip as large as the frame", true),
        ("one pixel short", false),
        ("translucent background", false),
        ("opacity below 1", false),
        ("opacity below 1 on the holder", false),
        ("masked", false),
        ("blend mode", false),
        ("turned slightly", false),
        ("rounded corners", false),
        ("shadow", false),
        ("inside a smaller clip", false),
        ("inside a rounded clip", false),
        ("hidden", false),
    ])
    func skippedExactlyWhenFullyCovered(_ name: String, _ skips: Bool) throws {
        freshRuntime()
        let (root, _) = scene { holder, cover in
            switch name {
            case "half-pixel edges, inner pixels covering": cover.frame = Rect(x: -0.5, y: -0.5, width: 101, height: 81)
            case "inside a clip as large as the frame": holder.masksToBounds = true
            case "one pixel short": cover.frame = Rect(x: 0, y: 0, width: 100, height: 79)
            case "translucent background": cover.backgroundColor = Color(rgb: 0x2040A0).withAlpha(0.99)
            case "opacity below 1": cover.opacity = 0.99
            case "opacity below 1 on the holder": holder.opacity = 0.99
            case "masked":
                let mask = Layer()
                mask.frame = cover.bounds
                mask.backgroundColor = .white
                cover.mask = mask
            case "blend mode": cover.compositingFilter = .multiply
            case "turned slightly":
                cover.bounds = Rect(x: 0, y: 0, width: 140, height: 120)
                cover.transform = Transform(rotationAngle: 0.01)
            case "rounded corners": cover.cornerRadius = 3
            case "shadow": cover.shadowOpacity = 0.5
            case "inside a smaller clip":
                holder.masksToBounds = true
                holder.frame = Rect(x: 0, y: 0, width: 100, height: 79)
            case "inside a rounded clip":
                holder.masksToBounds = true
                holder.cornerRadius = 2
            case "hidden": cover.isHidden = true
            default: break
            }
        }
        let (culled, plain) = renderers()
        let a = try Bitmap(width: 100, height: 80), b = try Bitmap(width: 100, height: 80)
        let skipped = renderBoth(root, at: 0, culled: culled, plain: plain, into: a, b)
        #expect((skipped > 0) == skips, "\(name): skipped \(skipped)")
        if skips { #expect(skipped == 1, "the translucent square's subtree, as one") }
        #expect(difference(a, b, tolerance: 0)?.differingPixels == 0, "\(name)")
    }

    /// Damage-only frames: a square moving under an opaque layer that covers the left half is
    /// skipped in each frame whose damage lies under that layer, and the frames stay the same.
    @Test func damageUnderAnOpaqueLayerIsNotRedrawnUnderIt() throws {
        freshRuntime()
        let (root, cover) = scene()
        cover.frame = Rect(x: 0, y: 0, width: 50, height: 80)
        let mover = root.sublayers[0]
        let (culled, plain) = renderers()
        let a = try Bitmap(width: 100, height: 80), b = try Bitmap(width: 100, height: 80)
        _ = renderBoth(root, at: 0, culled: culled, plain: plain, into: a, b)
        let move = BasicAnimation(keyPath: "position")
        move.fromValue = Point(x: 18, y: 18)
        move.toValue = Point(x: 30, y: 60)
        move.duration = 1
        mover.add(move, forKey: "move")
        var framesSkipping = 0
        for i in 1...12 {
            let skipped = renderBoth(root, at: Double(i) / 12, culled: culled, plain: plain, into: a, b)
            if skipped > 0 { framesSkipping += 1 }
            #expect(difference(a, b, tolerance: 0)?.differingPixels == 0, "frame \(i)")
        }
        #expect(framesSkipping == 12)
    }

    /// Random trees (fixed seeds): opaque and translucent layers, clips, rounded corners, turns,
    /// opacity and masks, moving; culling changes no pixel in any frame, and culls somewhere.
    @Test func randomTreesDrawTheSamePixelsCulledOrNot() throws {
        var totalSkipped = 0, bandSkipped = 0
        for seed in 1...12 {
            freshRuntime()
            var random = SplitMix(seed: UInt64(seed))
            let root = Layer()
            root.frame = Rect(x: 0, y: 0, width: 64, height: 48)
            root.backgroundColor = random.chance(0.5) ? .white : nil
            var all = [root]
            for _ in 0..<24 {
                let layer = Layer()
                let parent = random.chance(0.4) ? root : all[Int(random.next() % UInt64(all.count))]
                let w = 8 + Double(random.next() % 60), h = 8 + Double(random.next() % 50)
                let x = Double(Int(random.next() % 50)) - 10 + (random.chance(0.2) ? 0.5 : 0)
                let y = Double(Int(random.next() % 40)) - 10
                // Some layers are large enough to cover the frame (when their parent is the root).
                layer.frame = random.chance(0.2) ? Rect(x: -4, y: -4, width: 72, height: 56) : Rect(x: x, y: y, width: w, height: h)
                let alpha = random.chance(0.6) ? 1 : 0.6
                layer.backgroundColor = random.chance(0.9)
                    ? Color(red: random.unit(), green: random.unit(), blue: random.unit(), alpha: alpha) : nil
                if random.chance(0.15) { layer.opacity = 0.8 }
                if random.chance(0.2) { layer.masksToBounds = true }
                if random.chance(0.1) { layer.cornerRadius = 4 }
                if random.chance(0.1) { layer.transform = Transform(rotationAngle: 0.2) }
                if random.chance(0.05) {
                    let mask = Layer()
                    mask.frame = layer.bounds.insetBy(dx: 2, dy: 2)
                    mask.backgroundColor = .white
                    layer.mask = mask
                }
                parent.addSublayer(layer)
                all.append(layer)
            }
            keptRoots.append(root)
            let (culled, plain) = renderers()
            // A third renderer draws every frame in two bands, each culled on its own thread.
            let banded = LayerRenderer()
            banded.bands.isForced = true
            let a = try Bitmap(width: 64, height: 48), b = try Bitmap(width: 64, height: 48)
            let c = try Bitmap(width: 64, height: 48)
            totalSkipped += renderBoth(root, at: 0, culled: culled, plain: plain, into: a, b)
            banded.render(root, at: 0, into: c)
            bandSkipped += banded.bands.occlusion.skipped
            #expect(difference(a, b, tolerance: 0)?.differingPixels == 0, "seed \(seed), first frame")
            #expect(difference(c, b, tolerance: 0)?.differingPixels == 0, "seed \(seed), first frame, banded")
            for layer in all.dropFirst() where random.chance(0.3) {
                let move = BasicAnimation(keyPath: "position")
                move.fromValue = layer.position
                move.toValue = Point(x: layer.position.x + 7, y: layer.position.y - 5)
                move.duration = 1
                layer.add(move, forKey: "move")
            }
            for i in 1...6 {
                totalSkipped += renderBoth(root, at: Double(i) / 6, culled: culled, plain: plain, into: a, b)
                banded.render(root, at: Double(i) / 6, into: c)
                bandSkipped += banded.bands.occlusion.skipped
                #expect(difference(a, b, tolerance: 0)?.differingPixels == 0, "seed \(seed), frame \(i)")
                #expect(difference(c, b, tolerance: 0)?.differingPixels == 0, "seed \(seed), frame \(i), banded")
            }
        }
        #expect(totalSkipped > 0)
        #expect(bandSkipped > 0)
    }
}
}

/// SplitMix64: a small seeded generator, so random scenes are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
}

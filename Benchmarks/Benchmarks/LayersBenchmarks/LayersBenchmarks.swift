// LayersBenchmarks: the per-frame cost of the layer tree (issue 4).
//
// One iteration is one frame at 60 Hz, measured after three warm-up frames (the runner calls
// each closure once per sample, so the tree is rebuilt, unmeasured, for every sample):
// - "presentation N layers": N layers, each with a repeating position and opacity animation;
//   the frame advances the layer clock and evaluates every layer's presentation copy.
// - "render N layers 1920x1080": the same tree rendered into a 1080p bitmap (16x16 squares
//   drifting across it), with damage tracking.
// - "render 1000 bordered/rounded layers": the 1,000-layer tree with a 1.5 px border on every
//   square, then with 4 px corner radii instead.
// - "arrow scene 1920x1080": the seed's scene at 1080p: a 900x900 image masked by an arrow
//   whose length animates back and forth; with and without damage tracking.
import Benchmark
import LiveLayers
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// The seed's arrow, as in the player's ArrowLayer (which lives in the executable target).
final class BenchArrowLayer: Layer {
    @LayerProperty var thickness = 90.0
    @LayerProperty var startRadians = -Double.pi / 2
    @LayerProperty var lengthRadians = 0.0
    @LayerProperty var headLengthRadians = Double.pi / 16

    override class func needsDisplay(forKey key: String) -> Bool {
        ["thickness", "startRadians", "lengthRadians", "headLengthRadians"].contains(key)
    }

    private var path = Path()

    override func draw(in context: GraphicsContext) {
        let c = bounds.center, outerR = bounds.width / 2, innerR = outerR - thickness, midR = (outerR + innerR) / 2
        let tip = startRadians + lengthRadians
        let sign: Double = lengthRadians < 0 ? -1 : 1
        let head = tip - sign * min(headLengthRadians, abs(lengthRadians))
        path.removeAll()
        path.move(to: Point(x: c.x + midR * cos(tip), y: c.y + midR * sin(tip)))
        path.addArc(center: c, radius: outerR, startAngle: head, endAngle: startRadians, clockwise: lengthRadians > 0)
        path.addArc(center: c, radius: innerR, startAngle: startRadians, endAngle: head, clockwise: lengthRadians < 0)
        path.closeSubpath()
        context.setFillColor(.black)
        context.fill(path)
    }
}

@MainActor
func animatedTree(count: Int, borderWidth: Double = 0, cornerRadius: Double = 0) -> (root: Layer, leaves: [Layer]) {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 1920, height: 1080)
    root.backgroundColor = Color(white: 0.1)
    var leaves: [Layer] = []
    for i in 0..<count {
        let layer = Layer()
        let x = Double((i * 37) % 1900), y = Double((i * 53) % 1060)
        layer.frame = Rect(x: x, y: y, width: 16, height: 16)
        layer.backgroundColor = Color(red: Double(i % 7) / 7, green: 0.5, blue: Double(i % 11) / 11)
        layer.borderWidth = borderWidth
        layer.borderColor = Color(white: 0.9)
        layer.cornerRadius = cornerRadius
        let move = BasicAnimation(keyPath: "position")
        move.byValue = Point(x: 40, y: 20)
        move.duration = 1 + Double(i % 5) / 5
        move.autoreverses = true
        move.repeatCount = .infinity
        layer.add(move, forKey: "move")
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.3
        fade.duration = 0.7
        fade.autoreverses = true
        fade.repeatCount = .infinity
        layer.add(fade, forKey: "fade")
        root.addSublayer(layer)
        leaves.append(layer)
    }
    return (root, leaves)
}

@MainActor
func arrowScene() throws -> Layer {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 1920, height: 1080)
    root.backgroundColor = Color(white: 0.95)
    let image = try Bitmap(width: 900, height: 900)
    for y in 0..<900 {
        for x in 0..<900 {
            image[x, y] = 0xFF00_0000 | UInt32(x * 255 / 900) << 16 | UInt32(y * 255 / 900) << 8 | 0x80
        }
    }
    let imageView = Layer()
    imageView.frame = Rect(x: 510, y: 90, width: 900, height: 900)
    imageView.contents = image
    let arrow = BenchArrowLayer()
    arrow.frame = imageView.bounds
    arrow.lengthRadians = 0.1
    let sweep = BasicAnimation(keyPath: "lengthRadians")
    sweep.fromValue = 0.1
    sweep.toValue = 2 * Double.pi - 0.1
    sweep.duration = 5
    sweep.autoreverses = true
    sweep.repeatCount = .infinity
    arrow.add(sweep, forKey: "sweep")
    imageView.mask = arrow
    root.addSublayer(imageView)
    return root
}

/// Stops every animation in the tree so that the layer clock forgets it: the runner calls each
/// closure once per sample, and trees from earlier samples must not be evaluated again.
@MainActor
func retire(_ root: Layer) {
    var stack = [root]
    while let layer = stack.popLast() {
        layer.removeAllAnimations()
        if let mask = layer.mask { stack.append(mask) }
        stack.append(contentsOf: layer.sublayers)
    }
    LayerClock.advance(to: LayerClock.currentTime)
}

/// Runs `body` on the main actor: layers are main-actor objects, as in Core Animation.
func onMain(_ benchmark: Benchmark, _ body: @escaping @MainActor @Sendable (Benchmark) throws -> Void) async throws {
    nonisolated(unsafe) let benchmark = benchmark
    try await MainActor.run { try body(benchmark) }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(4),
        maxIterations: 600
    )

    for count in [10, 100, 1_000, 10_000] {
        Benchmark("presentation \(count) layers") { benchmark async throws in
            try await onMain(benchmark) { benchmark in
                let (root, leaves) = animatedTree(count: count)
                var t = LayerClock.currentTime
                for _ in 0..<3 {                      // warm: presentation copies exist
                    t += 1.0 / 60
                    LayerClock.advance(to: t)
                    for leaf in leaves { blackHole(leaf.presentation()?.position) }
                }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    t += 1.0 / 60
                    LayerClock.advance(to: t)
                    for leaf in leaves { blackHole(leaf.presentation()?.position) }
                }
                benchmark.stopMeasurement()
                retire(root)
            }
        }

        Benchmark("render \(count) layers 1920x1080") { benchmark async throws in
            try await onMain(benchmark) { benchmark in
                let (root, _) = animatedTree(count: count)
                let bitmap = try Bitmap(width: 1920, height: 1080)
                let renderer = LayerRenderer()
                var t = LayerClock.currentTime
                for _ in 0..<3 {                      // warm: backing stores, scratch arrays
                    t += 1.0 / 60
                    renderer.render(root, at: t, into: bitmap)
                }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    t += 1.0 / 60
                    blackHole(renderer.render(root, at: t, into: bitmap))
                }
                benchmark.stopMeasurement()
                retire(root)
            }
        }
    }

    // The same 1,000 layers with a border, then with rounded corners.
    for (style, border, radius) in [("bordered", 1.5, 0.0), ("rounded", 0.0, 4.0)] {
        Benchmark("render 1000 \(style) layers 1920x1080") { benchmark async throws in
            try await onMain(benchmark) { benchmark in
                let (root, _) = animatedTree(count: 1_000, borderWidth: border, cornerRadius: radius)
                let bitmap = try Bitmap(width: 1920, height: 1080)
                let renderer = LayerRenderer()
                var t = LayerClock.currentTime
                for _ in 0..<3 {
                    t += 1.0 / 60
                    renderer.render(root, at: t, into: bitmap)
                }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    t += 1.0 / 60
                    blackHole(renderer.render(root, at: t, into: bitmap))
                }
                benchmark.stopMeasurement()
                retire(root)
            }
        }
    }

    for tracking in [true, false] {
        Benchmark("arrow scene 1920x1080 damage tracking \(tracking ? "on" : "off")") { benchmark async throws in
            try await onMain(benchmark) { benchmark in
                let root = try arrowScene()
                let bitmap = try Bitmap(width: 1920, height: 1080)
                let renderer = LayerRenderer()
                renderer.isDamageTrackingEnabled = tracking
                var t = LayerClock.currentTime
                for _ in 0..<3 {                      // warm: backing stores, scratch arrays
                    t += 1.0 / 60
                    renderer.render(root, at: t, into: bitmap)
                }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    t += 1.0 / 60
                    blackHole(renderer.render(root, at: t, into: bitmap))
                }
                benchmark.stopMeasurement()
                retire(root)
            }
        }
    }

    Benchmark("idle frame, arrow scene at rest") { benchmark async throws in
        try await onMain(benchmark) { benchmark in
            let root = try arrowScene()
            root.sublayers[0].mask?.removeAllAnimations()
            let bitmap = try Bitmap(width: 1920, height: 1080)
            let renderer = LayerRenderer()
            var t = LayerClock.currentTime
            for _ in 0..<3 {
                t += 1.0 / 60
                renderer.render(root, at: t, into: bitmap)
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                t += 1.0 / 60
                blackHole(renderer.render(root, at: t, into: bitmap))
            }
            benchmark.stopMeasurement()
            retire(root)
        }
    }
}

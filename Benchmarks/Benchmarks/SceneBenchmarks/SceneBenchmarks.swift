// SceneBenchmarks: the player's real scenes (their sources, linked in through the `Scenes`
// symlink to Sources/live-player/Scenes) driven through LayerHost's HeadlessHost and
// LayerTreeSource, the path the player's frames take.
//
// - "frames-SCENE-640x480": one sample is 60 frames of the scene's go cycle, after a whole cycle and
//   10 frames unmeasured (the tree is built and warmed for every sample). mallocCountTotal is
//   the gate: Thresholds/SceneBenchmarks.*.p90.json hold 0 for every scene, so
//       swift package benchmark thresholds check --target SceneBenchmarks
//   exits non-zero (1) when any frame of any scene starts to allocate.
// - "go-SCENE-640x480": one sample is two go cycles as `--autoplay` runs them (the go pressed
//   when a cycle completes, and every frame between), after three whole cycles unmeasured
//   (six for orbit: one flight to each button).
//   Thresholds hold 0 too: adding an animation, its copy, its evaluator and the transaction's
//   completion block reuse what the cycle before left, so a go cycle allocates nothing.
//   (rays has no go cycle: its go only turns the rays back after a reverse.)
//   Only allocations are measured here (a time threshold would fail on a noisy machine); frame
//   times are the player's own (--stats) and LayersBenchmarks'.
import Benchmark
import DisplayClock
import LayerHost
import LiveLayers
import Raster

/// Runs `body` on the main actor: layers are main-actor objects, as in Core Animation.
func onMain(_ benchmark: Benchmark, _ body: @escaping @MainActor @Sendable (Benchmark) throws -> Void) async throws {
    nonisolated(unsafe) let benchmark = benchmark
    try await MainActor.run { try body(benchmark) }
}

/// Stops every animation in the tree so that the layer clock forgets it between samples.
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

/// `kind`'s scene at `width`×`height` and a headless host drawing it on a virtual clock.
@MainActor
func headlessScene(_ kind: SceneKind, width: Int, height: Int) throws -> (any Scene, HeadlessHost) {
    let scene = makeScene(kind, setup: SceneSetup(size: Size(width: Double(width), height: Double(height)), image: nil))
    let source = LayerTreeSource(rootLayer: scene.root, clearColor: scene.clearColor)
    let host = HeadlessHost(bitmap: try Bitmap(width: width, height: height),
                            link: DisplayLink(refreshRate: 60, clock: VirtualClock(now: 0), start: 0), source: source)
    return (scene, host)
}

/// One sample: `measured` frames of `kind` at `width`×`height`, once the scene is warm: go is
/// pressed and the frames run until a whole cycle completes (so buffers that grow with what the
/// scene draws, such as the arrow's tracked coverage, have grown), go is pressed again, and
/// `warm` more frames run. No go is pressed while measuring: pressing go makes an animation
/// object, as in Core Animation; it is input, not a frame.
@MainActor
func runFrames(_ kind: SceneKind, width: Int, height: Int, warm: Int = 10, measured: Int, _ benchmark: Benchmark) throws {
    let (scene, host) = try headlessScene(kind, width: width, height: height)
    var t = LayerClock.currentTime
    LayerClock.advance(to: t)
    func frame() {
        t += 1.0 / 60
        scene.frameDelivered(at: t)
        host.drawFrame(at: t)
    }
    var cycled = false
    scene.onCycleComplete = { cycled = true }
    scene.go()
    for _ in 0..<1_200 where !cycled { frame() }   // at most 20 s; every scene's cycle is shorter
    scene.onCycleComplete = nil
    scene.go()
    for _ in 0..<warm { frame() }
    benchmark.startMeasurement()
    for _ in 0..<measured { frame() }
    benchmark.stopMeasurement()
    retire(scene.root)
}

/// One sample: `measured` go cycles of `kind` at `width`×`height` as `--autoplay` runs them:
/// each completed cycle presses what autoplay presses (`autoplayNext`), and the frames between
/// are drawn. First `warm` cycles run unmeasured: the first gos fill what later ones reuse (the
/// pools of retired animations and completion groups, the scene's completion blocks).
@MainActor
func runCycles(_ kind: SceneKind, width: Int, height: Int, warm: Int = 3, measured: Int, _ benchmark: Benchmark) throws {
    let (scene, host) = try headlessScene(kind, width: width, height: height)
    var t = LayerClock.currentTime
    LayerClock.advance(to: t)
    var cycles = 0
    scene.onCycleComplete = { [unowned scene] in
        cycles += 1
        scene.autoplayNext()
    }
    func run(untilCycles target: Int) {
        var frames = 1_200 * (target - cycles)   // at most 20 s a cycle: every scene's is shorter
        while cycles < target && frames > 0 {
            frames -= 1
            t += 1.0 / 60
            scene.frameDelivered(at: t)
            host.drawFrame(at: t)
        }
    }
    scene.go()
    run(untilCycles: warm)
    benchmark.startMeasurement()
    run(untilCycles: warm + measured)
    benchmark.stopMeasurement()
    precondition(cycles == warm + measured, "\(kind): \(cycles) go cycles completed, \(warm + measured) expected")
    scene.onCycleComplete = nil
    retire(scene.root)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal],
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 40,
        // The gate: any allocation in a sample is a regression (no tolerance).
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    for kind in [SceneKind.arrow, .rays, .orbit, .line, .pk, .fillmodes] {
        Benchmark("frames-\(kind)-640x480") { benchmark async throws in
            try await onMain(benchmark) { benchmark in
                try runFrames(kind, width: 640, height: 480, measured: 60, benchmark)
            }
        }
    }

    for kind in [SceneKind.arrow, .orbit, .line, .pk, .fillmodes] {
        Benchmark("go-\(kind)-640x480") { benchmark async throws in
            try await onMain(benchmark) { benchmark in
                // orbit warms up a whole round of its six buttons: the arcs differ in their
                // number of curve pieces, and the first flight along the longest grows the
                // path's storage once (what the player does in its first six seconds).
                try runCycles(kind, width: 640, height: 480, warm: kind == .orbit ? 6 : 3, measured: 2, benchmark)
            }
        }
    }
}

// LayerRenderer+Bands: a frame with large damage drawn in two horizontal bands at once, the
// lower one on a second thread.

import CLinux
import Raster

/// What the renderer keeps for drawing a frame's lower band on the second thread.
///
/// Drawing reads the layer tree and the records that preparing the frame wrote, and writes only
/// the target's pixels inside its own band's clip and its own context's state. What else it
/// writes (offscreen pictures for groups, shadows and masks drawn into pixels, replicas, sliced
/// contents) belongs to the renderer as a whole, so a frame that needs any of it is drawn on
/// one thread: `isFrameSafe`.
final class BandState {
    /// The second thread, started on the first frame that is split; nil before, or when it
    /// could not be started (`workerFailed`).
    var worker: BandWorker?
    var workerFailed = false
    /// A context on the target for the lower band, so the two bands share no graphics state.
    var context: GraphicsContext?
    /// The lower band's rounded-rectangle scratch (``LayerRenderer/roundedRect(_:radius:corners:)``).
    var path = Path()
    /// False once preparing the frame met something drawn through renderer-wide scratch.
    var isFrameSafe = true
    /// The damaged area, in pixels, from which splitting pays for waking the second thread
    /// (about 30 µs on a loaded machine against about 1 ns a pixel of the cheapest drawing).
    var threshold = 160_000
    /// How many CPUs this process may run on, asked once (`taskset -c 0` gives 1).
    lazy var cpuCount = Self.availableCPUs()
    /// For tests: split whatever the damage's size or the CPU count.
    var isForced = false
    /// True while the two bands of a frame are being drawn (set and cleared on the calling
    /// thread outside the worker's run, so both threads read it without a race).
    var isSplit = false
    /// The lower band's occlusion culling (LayerRenderer+Occlusion).
    /// Unchecked, as the renderer's own `occlusion`.
    @exclusivity(unchecked) var occlusion = OcclusionState()
    /// What the lower band draws this frame: set before the worker runs, cleared after.
    var lower: (root: Layer, rows: Range<Int>, context: GraphicsContext, target: Bitmap)?
    /// The worker's job, made once: a closure made per frame, capturing the frame's values,
    /// would allocate its context every frame (the worker keeps it, so it cannot stay on the
    /// stack). It reads the frame's values from `lower`.
    var drawLower: (() -> Void)?

    deinit { worker?.stop() }

    static func availableCPUs() -> Int { Int(CLinux_available_cpus()) }
}

extension LayerRenderer {
    /// The first row of the lower band when this frame's damage is worth splitting in two: the
    /// row that leaves about half the damaged pixels above it. Nil to draw on one thread.
    func bandSplit() -> Int? {
        guard drawsInParallel, bands.isFrameSafe, !bands.workerFailed else { return nil }
        var area = 0, top = Int.max, bottom = Int.min
        for r in output {
            area += r.area
            top = min(top, r.y)
            bottom = max(bottom, r.maxY)
        }
        guard bands.isForced || (area >= bands.threshold && bands.cpuCount > 1), bottom - top >= 2 else { return nil }
        var low = top + 1, high = bottom - 1
        while low < high {
            let mid = low + (high - low) / 2
            var above = 0
            for r in output { above += r.width * min(max(mid - r.y, 0), r.height) }
            if above * 2 < area { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Whether the calling thread is drawing the lower band of a split frame.
    var isOnBandThread: Bool {
        guard bands.isSplit, let worker = bands.worker else { return false }
        return worker.isCurrent
    }

    /// `roundedRect(_:radius:corners:)` on the second thread, in its own scratch path.
    func bandRoundedRect(_ rect: Rect, radius: Double, corners: CornerMask) -> Path {
        bands.path.removeAll()
        Self.addRoundedRect(rect, radius: radius, corners: corners, to: &bands.path)
        return bands.path
    }

    /// Runs `body` alone among the threads drawing this frame (for what both bands may find
    /// stale and rebuild, such as a layer's backing store rasterized from its fills).
    func alone(_ body: () -> Void) {
        if let worker = bands.worker { worker.serialized(body) } else { body() }
    }

    /// The worker's job: draws `bands.lower`.
    func lowerBandDrawing() -> () -> Void {
        if let made = bands.drawLower { return made }
        let made = { [unowned self] in
            guard let lower = self.bands.lower else { return }
            self.drawDamage(lower.root, rows: lower.rows, in: lower.context, target: lower.target)
        }
        bands.drawLower = made
        return made
    }

    /// The second thread, started on first use.
    func bandWorker() -> BandWorker? {
        if let worker = bands.worker { return worker }
        guard !bands.workerFailed else { return nil }
        bands.worker = BandWorker()
        bands.workerFailed = bands.worker == nil
        return bands.worker
    }

    /// The lower band's context on `bitmap`.
    func bandContext(for bitmap: Bitmap) -> GraphicsContext? {
        if bands.context?.bitmap !== bitmap {
            bands.context = GraphicsContext(bitmap: bitmap)
            bands.context?.defersOpaqueFills = true
        }
        return bands.context
    }

    /// Whether drawing `layer` writes only its band's pixels and its context's state; false
    /// marks the frame as drawn on one thread.
    /// `shown` is the layer as shown this frame.
    func noteBandSafety(of layer: Layer, record: RenderRecord, shown: Layer) {
        guard bands.isFrameSafe, record.isVisible else { return }
        let unit = Rect(x: 0, y: 0, width: 1, height: 1)
        var safe = !record.isGroup && record.shadowRect.isEmpty && !(layer is ReplicatorLayer)
        if shown.contents != nil, shown.state.effects.contentsRect != unit || shown.state.effects.contentsCenter != unit {
            safe = false                    // nine-slice views are cached renderer-wide
        }
        if record.hasFills, let fills = record.fills,
           Self.storeOffset(bounds: shown.state.bounds, transform: record.deviceTransform) == nil
            || (fills.fills.count > 1 && record.opacity < 1) {
            safe = false                    // the fills' backing store is rebuilt while drawing
        }
        if !safe { bands.isFrameSafe = false }
    }
}

// LayerTreeSource: a layer tree as frames: advance the layer clock, render the damage.

import DisplayClock
import LiveLayers
import Raster

/// Renders a layer tree with a ``LayerRenderer``: the frame source of a host made with a root layer.
///
/// Media time is the host clock's time, as `CACurrentMediaTime()` is for Core Animation: an
/// animation added with `beginTime = LayerClock.currentTime + 1` begins a second later.
///
/// The tree is drawn straight into the frame buffer, damage only. A window presenting through
/// Present hands out a ring of frame buffers in turn (each brought up to the newest frame first);
/// the renderer would take each for a new target and redraw all of it, so once the frame buffers
/// take turns the tree is drawn into a bitmap of the source's own and the damage copied.
@MainActor
public final class LayerTreeSource: FrameSource {
    /// The layer tree shown; its superlayer-space origin is the frame buffer's top-left pixel.
    public var rootLayer: Layer {
        didSet { needsFullRedraw = true }
    }
    /// The renderer that draws the tree.
    public let renderer: LayerRenderer
    private var needsFullRedraw = true
    /// The last frame buffer drawn into, to notice frame buffers that take turns.
    private weak var lastTarget: Bitmap?
    private var targetsTakeTurns = false
    /// Where the tree is drawn while frame buffers take turns.
    private var treeBitmap: Bitmap?

    /// A source that renders `rootLayer` over `clearColor`.
    public init(rootLayer: Layer, clearColor: Color = .black) {
        self.rootLayer = rootLayer
        renderer = LayerRenderer()
        renderer.clearColor = clearColor
    }

    /// When the tree will next look different, on the host's clock (layer time is that clock's).
    public func nextFrameTime(now: Double) -> Double {
        needsFullRedraw ? now : renderer.nextFrameTime
    }

    public func drawFrame(at mediaTime: Double, into target: Bitmap) -> [IntRect] {
        needsFullRedraw = false
        if let lastTarget, lastTarget !== target, lastTarget.width == target.width, lastTarget.height == target.height {
            targetsTakeTurns = true
        }
        lastTarget = target
        guard targetsTakeTurns else { return renderer.render(rootLayer, at: mediaTime, into: target) }
        if treeBitmap?.width != target.width || treeBitmap?.height != target.height {
            treeBitmap = try? Bitmap(width: target.width, height: target.height)
        }
        guard let treeBitmap else { return renderer.render(rootLayer, at: mediaTime, into: target) }
        let damage = renderer.render(rootLayer, at: mediaTime, into: treeBitmap)
        for rect in damage { target.copy(rect, from: treeBitmap) }
        return damage
    }

    public func frameBufferResized(width: Int, height: Int) { needsFullRedraw = true }
}

// LayerTreeSource: a layer tree as frames: advance the layer clock, render the damage.

import DisplayClock
import LiveLayers
import Raster

/// Renders a layer tree with a ``LayerRenderer``: the frame source of a host made with a root layer.
///
/// Media time is the host clock's time, as `CACurrentMediaTime()` is for Core Animation: an
/// animation added with `beginTime = LayerClock.currentTime + 1` begins a second later.
@MainActor
public final class LayerTreeSource: FrameSource {
    /// The layer tree shown; its superlayer-space origin is the frame buffer's top-left pixel.
    public var rootLayer: Layer {
        didSet { needsFullRedraw = true }
    }
    /// The renderer that draws the tree.
    public let renderer: LayerRenderer
    private var needsFullRedraw = true

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
        return renderer.render(rootLayer, at: mediaTime, into: target)
    }

    public func frameBufferResized(width: Int, height: Int) { needsFullRedraw = true }
}

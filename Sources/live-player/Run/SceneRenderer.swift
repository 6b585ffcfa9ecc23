// SceneRenderer: renders a scene's layer tree into its frame bitmap and reports the damage.
//
// Interim: until LiveLayers' LayerRenderer lands, only the root layer's background is drawn.

import LiveLayers
import Raster

/// Renders the presentation tree of a scene into a bitmap, reporting the rectangles that changed.
@MainActor
final class SceneRenderer {
    private var lastBackground: Color?

    /// Renders `root` at the layer clock's current time into `bitmap`; redraws everything when
    /// `fullRedraw` (a new or resized target). Returns the damaged rectangles.
    func render(_ root: Layer, into bitmap: Bitmap, fullRedraw: Bool, damage: inout [IntRect]) {
        let background = root.presentation()?.backgroundColor ?? root.backgroundColor
        guard fullRedraw || background != lastBackground else { return }
        lastBackground = background
        bitmap.clear(to: (background ?? Color(red: 0, green: 0, blue: 0, alpha: 1)).premultipliedPixel)
        damage.append(bitmap.bounds)
    }

    /// The next media time at which the rendered tree changes without an animation (a layer that
    /// needs display); `.infinity` when none.
    var nextFrameTime: Double { .infinity }
}

// GraphicsState: what saveGState/restoreGState save and restore.

/// The drawing state of a ``GraphicsContext``, as Core Graphics' gstate.
///
/// A field that changes how a fill looks must also be checked in `recordFill` (FillRecording),
/// which records only plain solid fills; likewise every drawing entry point of the context
/// must either record (`recordFill`) or refuse (`refusedByRecording()`) in a recording context.
struct GraphicsState {
    var ctm = Transform.identity
    var fillPaint = Paint.solid(.black)
    var strokeColor = Color.black
    var lineWidth = 1.0
    var lineJoin = LineJoin.miter
    var lineCap = LineCap.butt
    var miterLimit = 10.0
    var dashPhase = 0.0
    var dashLengths: [Double] = []
    /// Global alpha in 0...1.
    var alpha = 1.0
    var blendMode = BlendMode.normal
    /// The device pixels drawing may touch; the clip mask, if any, further limits it.
    var clipBounds: IntRect
    /// Coverage that multiplies all drawing, the size of the target; `nil` means none.
    var clipMask: AlphaMask?
    /// Whether the context owns `clipMask` (made by a clip call) rather than borrowing the caller's.
    var ownsClipMask = false
    /// The last rectangle clipped to under a rotation or a fractional scale
    /// (``GraphicsContext/clip(to:)``), while no other clip follows it. Until it is rasterized the
    /// clip in effect is `clipBounds` and `clipMask` narrowed to it; it becomes part of the mask
    /// when something drawn needs it. A fill lying wholly inside it is drawn with the clip under
    /// it, rasterized or not (the rectangle's mask would be 255 under every pixel the fill touches).
    var rectClip: RectClip?
}

/// A user-space rectangle clipped to, the transform in effect then, the depth of the state
/// stack then (the states saved since hold it too), and the clip under it.
struct RectClip {
    var rect: Rect
    var ctm: Transform
    var depth: Int
    var isRasterized: Bool
    var outerBounds: IntRect
    /// The clip mask under the rectangle, when it outlives the rectangle's (`outerStays`).
    var outerMask: AlphaMask?
    var outerStays: Bool
}

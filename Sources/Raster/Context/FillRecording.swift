// FillRecording: drawing code captured as solid path fills instead of pixels.

/// The solid path fills a piece of drawing code made, in the recording context's device space,
/// in order, for drawing later without a backing store (see
/// ``GraphicsContext/init(recordingInto:clip:)``).
///
/// When the code does anything a list of solid fills cannot replay (images, gradients,
/// shadings, clips, clears, blend modes other than normal), the recording is marked incomplete
/// and the caller falls back to drawing into pixels. Storage is kept from one recording to the
/// next, so re-recording a drawing of the same shape allocates nothing.
package final class FillRecording {
    /// One fill: a path (``paths``, same index), its rule, and its colour premultiplied and
    /// multiplied by the global alpha in effect.
    package struct Fill: Equatable {
        package var rule: FillRule
        package var color: UInt32
    }

    package private(set) var fills: [Fill] = []
    /// The fills' paths in device space; only the first `fills.count` are in use.
    package private(set) var paths: [Path] = []
    /// Whether everything drawn since ``removeAll(clip:)`` was a solid fill.
    package private(set) var isComplete = true
    /// The device pixels the drawing was clipped to (a backing store's bounds).
    package private(set) var clip = IntRect(x: 0, y: 0, width: 0, height: 0)

    package init() {}

    /// Starts a new recording clipped to `clip`, keeping the storage.
    package func removeAll(clip: IntRect) {
        fills.removeAll(keepingCapacity: true)
        isComplete = true
        self.clip = clip
    }

    /// Records `path` mapped by `transform`, filled by `rule` with the premultiplied `color`.
    func append(_ path: Path, transform: Transform, rule: FillRule, color: UInt32) {
        guard color != 0 else { return }
        let i = fills.count
        fills.append(Fill(rule: rule, color: color))
        if i == paths.count { paths.append(Path()) }
        paths[i].removeAll()
        paths[i].addPath(path, transform: transform)
    }

    /// Marks the recording as not replayable.
    func invalidate() { isComplete = false }
}

extension GraphicsContext {
    /// Creates a context that records solid path fills into `recording` instead of drawing
    /// pixels; `clip` is the device rectangle the drawing is confined to (recorded, for replay).
    /// Anything else drawn marks the recording incomplete and draws nothing.
    package convenience init(recordingInto recording: FillRecording, clip: IntRect) {
        // A 1×1 stand-in target: with the clip empty, no drawing path ever writes to it.
        self.init(bitmap: try! Bitmap(width: 1, height: 1))
        self.recording = recording
        recording.removeAll(clip: clip)
        state.clipBounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Starts a new recording (same context, same target recording) clipped to `clip`, with
    /// the graphics state reset.
    package func restartRecording(clip: IntRect) {
        recording?.removeAll(clip: clip)
        stack.removeAll(keepingCapacity: true)
        state = GraphicsState(clipBounds: IntRect(x: 0, y: 0, width: 0, height: 0))
        path.removeAll()
    }

    /// Records a fill when recording: true when the fill was handled (recorded or refused).
    func recordFill(_ path: Path, transform: Transform, rule: FillRule, paint: Paint) -> Bool {
        guard let recording else { return false }
        guard case let .solid(color) = paint, state.blendMode == .normal, state.clipMask == nil else {
            recording.invalidate()
            return true
        }
        let c = PixelMath.scale(color.premultipliedPixel, compositingAlpha)
        recording.append(path, transform: transform, rule: rule, color: c)
        return true
    }

    /// The global alpha in effect, 0...1.
    package var globalAlpha: Double { state.alpha }

    /// Refuses an operation a fill recording cannot hold: true (do nothing more) when recording.
    func refusedByRecording() -> Bool {
        guard let recording else { return false }
        recording.invalidate()
        return true
    }

    /// Replays `recording`'s fills mapped by `transform`, clipped to `clip` (device pixels), with
    /// the current global alpha, blend mode and clip.
    package func replay(_ recording: FillRecording, transform: Transform, clip: IntRect) {
        applyPendingClip()
        let saved = state.clipBounds
        state.clipBounds = saved.intersection(clip)
        defer { state.clipBounds = saved }
        for i in recording.fills.indices {
            let fill = recording.fills[i]
            fillSolid(recording.paths[i], transform: transform, rule: fill.rule, pixel: fill.color)
        }
    }
}

// FillMode: what an animation shows outside its active duration (CAMediaTimingFillMode).

/// What an animation shows before it begins and after it ends, while it is still attached.
///
/// Fill only applies while the animation is attached to its layer: for `forwards` to hold the
/// final value, set `isRemovedOnCompletion` to `false` as well.
public enum FillMode: Sendable, Hashable {
    /// No effect outside the active duration (the default).
    case removed
    /// Holds the final value after the end.
    case forwards
    /// Shows the initial value before `beginTime`.
    case backwards
    /// Both `forwards` and `backwards`.
    case both
}

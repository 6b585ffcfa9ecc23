// Transaction: batches layer changes and sets how they animate (CATransaction).

/// Groups layer-tree changes into an atomic update and configures their implicit animations,
/// as `CATransaction`.
///
/// Transactions nest. Changes made outside an explicit transaction open an *implicit* one,
/// committed at the next frame update (``LayerClock/advance(to:)``), as Core Animation commits
/// it when the run loop next turns. Animations added in a transaction begin at the media time
/// of its commit. Settings read inside a nested transaction inherit from the enclosing one
/// unless set in it.
///
/// ```swift
/// Transaction.begin()
/// Transaction.animationDuration = 2
/// Transaction.completionBlock = { goButton.isHidden = false }
/// arrow.lengthRadians = 2 * .pi
/// Transaction.commit()
/// ```
@MainActor
public enum Transaction {
    /// Opens a transaction, nested in any open one.
    public static func begin() {
        LayerRuntime.shared.begin(implicit: false)
    }

    /// Closes the innermost transaction. Closing the outermost one commits the changes:
    /// animations added in it get their begin time (the current media time).
    public static func commit() {
        LayerRuntime.shared.commit()
    }

    /// Commits the implicit transaction now instead of at the next frame update; does
    /// nothing while an explicit transaction is open.
    public static func flush() {
        LayerRuntime.shared.commitImplicit()
    }

    /// Runs `changes` in a transaction with the given settings, and `completion` once every
    /// animation added in it has finished or been removed.
    public static func perform(duration: Double? = nil, timingFunction: TimingFunction? = nil,
                               disableActions: Bool = false, changes: () -> Void,
                               completion: (@MainActor () -> Void)? = nil) {
        begin()
        if let duration { animationDuration = duration }
        if let timingFunction { animationTimingFunction = timingFunction }
        if disableActions { self.disableActions = true }
        if let completion { completionBlock = completion }
        changes()
        commit()
    }

    /// The duration of implicit animations, and of added animations whose duration is 0 or
    /// less. Default 0.25 s.
    public static var animationDuration: Double {
        get { LayerRuntime.shared.value { $0.animationDuration } ?? 0.25 }
        set { LayerRuntime.shared.current.animationDuration = newValue }
    }

    /// The timing function of implicit animations; `nil` means ``TimingFunction/default``.
    public static var animationTimingFunction: TimingFunction? {
        get { LayerRuntime.shared.value { $0.animationTimingFunction } }
        set { LayerRuntime.shared.current.animationTimingFunction = newValue }
    }

    /// Whether property changes skip their actions (no implicit animations). Default `false`.
    public static var disableActions: Bool {
        get { LayerRuntime.shared.value { $0.disableActions } ?? false }
        set { LayerRuntime.shared.current.disableActions = newValue }
    }

    /// Called once every animation added to a layer after this is set, in this transaction
    /// (including nested ones), has finished or been removed; immediately at commit if none
    /// was added. It runs during a frame update, at the media time the last animation ends.
    public static var completionBlock: (@MainActor () -> Void)? {
        get { LayerRuntime.shared.stack.last?.completion?.block }
        set {
            let frame = LayerRuntime.shared.current
            if let newValue {
                if let group = frame.completion, !group.isSealed {
                    group.block = newValue
                } else {
                    frame.completion = LayerRuntime.shared.makeCompletionGroup(block: newValue)
                }
            } else {
                frame.completion?.block = nil
            }
        }
    }
}

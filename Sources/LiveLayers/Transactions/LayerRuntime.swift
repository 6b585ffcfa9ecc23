// LayerRuntime: the global state Core Animation keeps per process: the media time, the
// transaction stack, the layers waiting for a commit and the animations to watch.
//
// One per process and main-actor isolated, as Core Animation's: every window, host and renderer
// in the process shares it, and its updates run on the main thread (checked in `advance`).
// Per-renderer state (damage, backing stores) is in each renderer's records, not here.

/// A transaction's completion block and the animations it waits for.
@MainActor
final class CompletionGroup {
    var block: (@MainActor () -> Void)?
    var pending = 0
    var isSealed = false
    var hasFired = false

    init(block: @escaping @MainActor () -> Void) {
        self.block = block
    }

    /// Makes a group that fired new again, for `block`.
    func reset(block: @escaping @MainActor () -> Void) {
        self.block = block
        pending = 0
        isSealed = false
        hasFired = false
    }

    /// Fires once sealed and nothing is pending. A group that fired is never read again (its
    /// transaction is closed and every animation in it has stopped), so it goes back to the
    /// runtime before its block runs: a block that opens the next transaction gets it again.
    func fireIfDone() {
        guard isSealed, pending == 0, !hasFired else { return }
        hasFired = true
        let b = block
        block = nil
        LayerRuntime.shared.recycle(self)
        b?()
    }
}

/// One level of the transaction stack; `nil` values inherit from the enclosing level.
@MainActor
final class TransactionFrame {
    var isImplicit: Bool
    var animationDuration: Double?
    var animationTimingFunction: TimingFunction?
    var disableActions: Bool?
    var completion: CompletionGroup?

    init(isImplicit: Bool) {
        self.isImplicit = isImplicit
    }
}

/// An animation lifecycle event, delivered during a frame update or after a commit.
enum LifecycleEvent {
    case start(AttachedAnimation)
    case stop(AttachedAnimation, finished: Bool)
}

/// A layer on the watch list, not retained: as in Core Animation, a layer lives as long as the
/// app holds it, running animations or not. Its deinit takes it off the list (`unwatch`).
///
/// With it, the earliest media time at which one of its animations can start or end, and the
/// timing epoch that was computed in: before then, and while no timing changed, a frame
/// update skips the layer without reading it (each layer read is a cache miss with 10,000
/// of them, where the list is read in order, which the processor fetches ahead).
struct WatchedLayer {
    unowned(unsafe) let layer: Layer
    var checkTime = -Double.infinity
    var epoch = -1
}

@MainActor
final class LayerRuntime {
    static let shared = LayerRuntime()

    var currentTime = 0.0
    var stack: [TransactionFrame] = []
    /// Layers changed or given animations since the last commit.
    var touched: [Layer] = []
    /// Layers with attached animations, checked for start and stop every frame.
    ///
    /// Exclusivity unchecked: its elements are written in place (a frame's bounds, a reset),
    /// and the compiler would check every access at run time; no access to it is held across
    /// a call that could reach it (the frame update reads an entry, calls, then writes it).
    @exclusivity(unchecked) var animating: [WatchedLayer] = []
    var events: [LifecycleEvent] = []
    /// Bumped whenever a layer's timing or place in the tree changes, which can move the
    /// media time at which its animations start and end.
    var timingEpoch = 0
    /// A layer asked for display since the last render.
    var displayRequested = false
    /// Reused between updates so that a steady frame allocates nothing.
    private var eventScratch: [LifecycleEvent] = []
    private var layerScratch: [Layer] = []
    private var isDelivering = false
    /// Closed transaction frames, cleared, for the next begin.
    private var framePool: [TransactionFrame] = []
    /// The groups of the record whose stop is being delivered.
    private var groupScratch: [CompletionGroup] = []
    /// Completion groups that fired, for the next completion block.
    private var groupPool: [CompletionGroup] = []
    /// Records taken off their layers, newest last, for the next `add` (see `retire`).
    private var retired: [AttachedAnimation] = []
    /// How many of each pool are kept: a scene adds a few animations per go, each pool keeps
    /// a go's worth and one more (the one just retired is often still being delivered).
    private static let poolLimit = 32

    init() {
        // Room reserved up front for what the first animations and their events need, so that
        // the pools and the event lists do not grow (allocate) during the first go cycles.
        retired.reserveCapacity(Self.poolLimit)
        groupPool.reserveCapacity(Self.poolLimit)
        events.reserveCapacity(Self.poolLimit)
        eventScratch.reserveCapacity(Self.poolLimit)
        groupScratch.reserveCapacity(4)
        touched.reserveCapacity(Self.poolLimit)
        layerScratch.reserveCapacity(Self.poolLimit)
    }

    // MARK: Transactions

    func begin(implicit: Bool) {
        // Frames are reused: a scene that wraps each tick's changes in a transaction
        // (withoutActions) would otherwise allocate one every frame.
        if let frame = framePool.popLast() {
            frame.isImplicit = implicit
            stack.append(frame)
        } else {
            stack.append(TransactionFrame(isImplicit: implicit))
        }
    }

    /// The innermost transaction, opening an implicit one if none is open.
    var current: TransactionFrame {
        if let top = stack.last { return top }
        begin(implicit: true)
        return stack[stack.count - 1]
    }

    func value<T>(_ read: (TransactionFrame) -> T?) -> T? {
        for frame in stack.reversed() { if let v = read(frame) { return v } }
        return nil
    }

    /// Closes the innermost transaction; closing the outermost one commits the tree and, unless
    /// `delivering` is false (a frame update, which delivers once itself), delivers the events.
    func commit(delivering: Bool = true) {
        guard let frame = stack.popLast() else {
            Diagnostics.warn("Transaction.commit() without a matching begin(); ignored")
            return
        }
        if stack.isEmpty { commitTree() }
        if let group = frame.completion {
            group.isSealed = true
            group.fireIfDone()
        }
        frame.animationDuration = nil
        frame.animationTimingFunction = nil
        frame.disableActions = nil
        frame.completion = nil
        if framePool.count < 16 { framePool.append(frame) }
        if stack.isEmpty, delivering { deliverEvents() }
    }

    /// Commits the implicit transaction, if one is open and nothing explicit is.
    func commitImplicit(delivering: Bool = true) {
        if stack.count == 1, stack[0].isImplicit {
            commit(delivering: delivering)
        } else if stack.isEmpty {
            commitTree()
            if delivering { deliverEvents() }
        }
    }

    /// Gives begin times to the animations added since the last commit and marks the touched
    /// layers committed (from now on they have a presentation copy).
    private func commitTree() {
        guard !touched.isEmpty else { return }
        swap(&touched, &layerScratch)
        for layer in layerScratch {
            layer.isQueuedForCommit = false
            layer.commit(atMediaTime: currentTime)
        }
        layerScratch.removeAll(keepingCapacity: true)
    }

    func touch(_ layer: Layer) {
        if stack.isEmpty { begin(implicit: true) }
        guard !layer.isQueuedForCommit else { return }
        layer.isQueuedForCommit = true
        touched.append(layer)
    }

    /// Adds the completion groups an animation added now belongs to (the open transactions'
    /// unsealed ones) to `groups`.
    func joinOpenCompletionGroups(_ groups: inout [CompletionGroup]) {
        for frame in stack {
            if let g = frame.completion, !g.isSealed {
                g.pending += 1
                groups.append(g)
            }
        }
    }

    /// A completion group for `block`: one that fired, or a new one.
    func makeCompletionGroup(block: @escaping @MainActor () -> Void) -> CompletionGroup {
        guard let group = groupPool.popLast() else { return CompletionGroup(block: block) }
        group.reset(block: block)
        return group
    }

    /// Keeps `group`, which just fired, for a later completion block.
    fileprivate func recycle(_ group: CompletionGroup) {
        if groupPool.count < Self.poolLimit { groupPool.append(group) }
    }

    // MARK: Retired animations

    /// Keeps `record`, just taken off its layer, for a later `add` of the same kind of
    /// animation. It is reused only once nothing else holds it or its copy (`takeRetired`):
    /// an event still to be delivered, or whoever the copy was handed to, keeps it out.
    /// Groups are not kept: their copy copies every child anyway.
    func retire(_ record: AttachedAnimation) {
        guard record.animation is PropertyAnimation else { return }
        record.isRetired = true
        record.releaseCallbacksIfUnseen()
        if retired.count == Self.poolLimit { retired.removeFirst() }
        retired.append(record)
    }

    /// A retired record whose copy has the class of `animation`, held by nothing but this
    /// runtime, or nil. One that animated the same key path is preferred: its evaluator is of
    /// the value type the new animation needs.
    func takeRetired(like animation: Animation) -> AttachedAnimation? {
        let kind = type(of: animation)
        let keyPath = (animation as? PropertyAnimation)?.keyPath
        var found: Int?
        for i in retired.indices.reversed() where type(of: retired[i].animation) == kind {
            guard isKnownUniquelyReferenced(&retired[i]), retired[i].ownsAnimationAlone else { continue }
            if found == nil { found = i }
            if (retired[i].animation as? PropertyAnimation)?.keyPath == keyPath {
                found = i
                break
            }
        }
        return found.map { retired.remove(at: $0) }
    }

    // MARK: Frames

    func watch(_ layer: Layer) {
        guard !layer.isWatched else { return }
        layer.watchIndex = animating.count
        // Through a local copy (and in removeWatched): the frame update reads the list once
        // per animating layer, and a change made in place would make each read a dynamic
        // exclusivity check (see LayerTiming).
        var list = animating
        animating = []
        list.append(WatchedLayer(layer: layer))
        animating = list
    }

    /// Makes the next frame update check `layer`'s animations for a start or stop: they or
    /// their timing changed.
    func resetLifecycleBound(of layer: Layer) {
        let index = layer.watchIndex
        guard index >= 0 else { return }
        animating[index].checkTime = -.infinity
    }

    /// Takes the layer at `index` off the watch list, moving the last one into its place.
    private func removeWatched(at index: Int) {
        var list = animating
        animating = []
        list[index].layer.watchIndex = -1
        let last = list.count - 1
        if index != last {
            list[index] = list[last]
            list[index].layer.watchIndex = index
        }
        list.removeLast()
        animating = list
    }

    /// Takes a layer that is being freed off the watch list; its animations that have not
    /// stopped are removed, and stop unfinished (`finished == false`) at the next delivery.
    func unwatch(_ layer: Layer) {
        for record in layer.attachedAnimations where !record.hasStopped {
            record.hasStopped = true
            events.append(.stop(record, finished: false))
        }
        guard layer.isWatched else { return }
        removeWatched(at: layer.watchIndex)
    }

    /// Commits pending changes, moves the clock to `time` and delivers the start and stop of
    /// every animation crossing a boundary since the last update.
    ///
    /// Events are delivered once per update: those that its callbacks cause wait for the next.
    func advance(to time: Double) {
        // The compiler enforces main-actor isolation for Swift 6 code; this catches the code
        // that gets around it (a C callback thread, an unchecked cast) before it races.
        MainActor.preconditionIsolated("LiveLayers: layers, transactions and LayerClock belong to the main thread")
        commitImplicit(delivering: false)
        currentTime = time
        // Collected into a local array (the stored one's buffer, swapped out and back):
        // passing the stored property inout across calls would cost every access to it a
        // dynamic exclusivity check.
        var collected: [LifecycleEvent] = []
        swap(&collected, &events)
        // Nothing starts or ends before a layer's bound, unless the timing of the layer or of
        // an ancestor changed since (a new epoch); adding, committing or removing an
        // animation resets the bound.
        let epoch = timingEpoch
        var i = 0
        while i < animating.count {
            let entry = animating[i]
            if entry.epoch == epoch && time < entry.checkTime {
                i += 1
                continue
            }
            let layer = entry.layer
            let next = layer.hasAttachedAnimations ? layer.collectLifecycleEvents(atMediaTime: time, into: &collected) : 0
            if layer.hasAttachedAnimations {
                animating[i].checkTime = next
                animating[i].epoch = epoch
                i += 1
            } else {
                removeWatched(at: i)
            }
        }
        collected.append(contentsOf: events)
        swap(&collected, &events)
        deliverEvents()
        // Callbacks may have added animations: they begin at this frame's time.
        commitImplicit(delivering: false)
    }

    /// Delivers the events collected so far, once each. Events that the callbacks cause (an
    /// animation replaced or removed by one they add) wait for the next delivery: after the
    /// callbacks' transaction commits, or at the next frame update, as Core Animation delivers
    /// them after the current transaction; so a handler that starts a new animation cannot loop.
    func deliverEvents() {
        guard !isDelivering, !events.isEmpty else { return }
        isDelivering = true
        defer { isDelivering = false }
        swap(&events, &eventScratch)
        for event in eventScratch {
            switch event {
            case let .start(record):
                let animation = record.animation
                animation.delegate?.animationDidStart(animation)
                animation.didStart?(animation)
            case let .stop(record, finished):
                stop(record, finished: finished)
            }
        }
        eventScratch.removeAll(keepingCapacity: true)
        // Only now is a stopped record held by no event: a retired one can let go of its
        // copy's callbacks.
        for record in retired { record.releaseCallbacksIfUnseen() }
    }

    /// Delivers `record`'s stop: its callbacks, then its completion groups.
    private func stop(_ record: AttachedAnimation, finished: Bool) {
        callDidStop(record.animation, finished: finished)
        // Delivered once the animation's own callbacks ran: a completion block that adds the
        // next animation under the same key may then reuse the record (`Layer.add`).
        record.hasDeliveredStop = true
        // Taken out first: a completion block may add an animation into this very record,
        // which then joins the block's new transaction.
        swap(&groupScratch, &record.completionGroups)
        for group in groupScratch {
            group.pending -= 1
            group.fireIfDone()
        }
        groupScratch.removeAll(keepingCapacity: true)
    }

    /// The delegate's and the callback's did-stop, in a function of their own so that the
    /// copy is no longer held here once they return.
    private func callDidStop(_ animation: Animation, finished: Bool) {
        animation.delegate?.animationDidStop(animation, finished: finished)
        animation.didStop?(animation, finished)
    }

    /// The next media time at which something will change, or `.infinity` when idle.
    func nextFrameTime() -> Double {
        if !touched.isEmpty || !events.isEmpty || displayRequested { return currentTime }
        var next = Double.infinity
        for watched in animating {
            next = min(next, watched.layer.nextChangeTime(afterMediaTime: currentTime))
            if next <= currentTime { return currentTime }
        }
        return next
    }
}

extension LayerRuntime {
    /// Forgets every transaction, layer and event and sets the clock to `time`: for tests,
    /// which each start from a clean slate.
    func reset(to time: Double = 0) {
        stack.removeAll()
        for layer in touched { layer.isQueuedForCommit = false }
        touched.removeAll()
        for watched in animating { watched.layer.watchIndex = -1 }
        animating = []
        events.removeAll()
        retired.removeAll(keepingCapacity: true)
        groupPool.removeAll(keepingCapacity: true)
        displayRequested = false
        currentTime = time
    }
}

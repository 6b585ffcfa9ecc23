// AnimationGroup: several animations on one timeline (CAAnimationGroup).

/// Runs several animations together on the group's timeline, as `CAAnimationGroup`.
///
/// Each child's time is the group's local time within its current iteration (after the group's
/// timing function), so a child's `beginTime` is relative to the group's start. Children are
/// clipped to the group's duration. A child whose `duration` is 0 or less takes the group's
/// (Core Animation leaves this undefined). The children's delegates are not called; the group's is.
public class AnimationGroup: Animation {
    /// The grouped animations, applied in order.
    public var animations: [Animation] = []

    /// Creates an empty group.
    public override init() {
        super.init()
    }

    /// Creates a group of `animations`.
    public convenience init(_ animations: [Animation]) {
        self.init()
        self.animations = animations
    }

    required init(copying other: Animation) {
        super.init(copying: other)
    }

    override func takeSettings(of other: Animation) {
        super.takeSettings(of: other)
        if let other = other as? AnimationGroup {
            animations = other.animations.map { $0.copy() }
        }
    }

    @MainActor
    override func prepareForAdding(to layer: Layer, previousValue: (any Interpolatable)?) {
        for child in animations {
            if child.duration <= 0 { child.duration = duration }
            child.prepareForAdding(to: layer, previousValue: nil)
        }
    }

    @MainActor
    override func makeEffect(for layer: Layer, reusing spare: AnimationEffect?) -> AnimationEffect? {
        let children = animations.compactMap { $0.makeEffect(for: layer) }
        guard !children.isEmpty else { return nil }
        return GroupEffect(timing: timingModel, timingFunction: timingFunction, children: children)
    }
}

@MainActor
final class GroupEffect: AnimationEffect {
    let timing: TimingModel
    let timingFunction: TimingFunction?
    let children: [AnimationEffect]

    init(timing: TimingModel, timingFunction: TimingFunction?, children: [AnimationEffect]) {
        self.timing = timing
        self.timingFunction = timingFunction
        self.children = children
    }

    var keyPath: String { children.first?.keyPath ?? "" }
    var timingModel: TimingModel { timing }

    func apply(to layer: Layer, parentTime t: Double) {
        guard let sample = timing.sample(parentTime: t) else { return }
        let eased = timingFunction?.progress(at: sample.fraction) ?? sample.fraction
        // Just short of the end, so children without a fill of their own still show their
        // final values while the group fills forwards.
        let childTime = min(eased * timing.duration, timing.duration.nextDown)
        for child in children { child.apply(to: layer, parentTime: childTime) }
    }

    func collectKeyPaths(into keys: inout [String]) {
        for child in children { child.collectKeyPaths(into: &keys) }
    }

    func collectWrittenKeyPaths(into keys: inout [String]) {
        for child in children { child.collectWrittenKeyPaths(into: &keys) }
    }
}

// FrameStage: the named parts of a frame whose durations are measured and blamed for drops.

/// A part of the work of one frame, timed with ``DisplayLink/recordStage(_:duration:)`` so that
/// ``FrameStatistics`` can say which part was over budget when frames were dropped.
///
/// There are a fixed number of stages (``capacity``): the four of a Core Animation frame
/// (``animate``, ``draw``, ``composite``, ``present``), four ``custom(_:named:)`` slots, and
/// ``unattributed``, which is never recorded but collects drops no stage explains. Statistics keep
/// one fixed-size slot per stage, so recording never allocates.
public struct FrameStage: Hashable, Sendable, CustomStringConvertible {
    /// The stage's slot, `0..<FrameStage.capacity`.
    public let slot: Int
    /// The stage's name in reports.
    public let name: String

    init(slot: Int, name: String) {
        self.slot = slot
        self.name = name
    }

    public var description: String { name }

    /// Advancing animations to the frame's time.
    public static let animate = FrameStage(slot: 0, name: "animate")
    /// Drawing the content of layers that changed.
    public static let draw = FrameStage(slot: 1, name: "draw")
    /// Compositing layers into the frame buffer.
    public static let composite = FrameStage(slot: 2, name: "composite")
    /// Handing the frame to the display (for example the MIT-SHM blit).
    public static let present = FrameStage(slot: 3, name: "present")

    /// Drops whose frame was within budget in every recorded stage: the time went elsewhere (a
    /// late wake-up, unrecorded work, another process). Not recordable.
    public static let unattributed = FrameStage(slot: 8, name: "unattributed")

    /// The number of custom stages.
    public static let customCount = 4

    /// The custom stage `index` (`0..<customCount`), reported as `name`. Using an index outside
    /// that range is a programming error and traps.
    public static func custom(_ index: Int, named name: String) -> FrameStage {
        precondition((0..<customCount).contains(index), "FrameStage.custom index \(index) is outside 0..<\(customCount)")
        return FrameStage(slot: 4 + index, name: name)
    }

    /// The number of stage slots, ``unattributed`` included.
    public static let capacity = 9

    /// The stages that can be recorded, in slot order, with default names for the custom slots.
    static let defaultsBySlot: [FrameStage] = [.animate, .draw, .composite, .present]
        + (0..<customCount).map { custom($0, named: "custom\($0)") } + [.unattributed]

    var isRecordable: Bool { slot != FrameStage.unattributed.slot }
}

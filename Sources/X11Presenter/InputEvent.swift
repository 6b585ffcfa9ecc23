// InputEvent: keys, pointer buttons, motion and scrolling, as the window reports them.

import Raster

/// The modifier keys and locks held during an input event.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Caps Lock is on.
    public static let capsLock = KeyModifiers(rawValue: 1 << 1)
    /// Control.
    public static let control = KeyModifiers(rawValue: 1 << 2)
    /// Alt (X's Mod1), the role of Option on a Mac.
    public static let alt = KeyModifiers(rawValue: 1 << 3)
    /// Num Lock is on (X's Mod2).
    public static let numLock = KeyModifiers(rawValue: 1 << 4)
    /// The Super or Windows key (X's Mod4), the role of Command on a Mac.
    public static let `super` = KeyModifiers(rawValue: 1 << 6)

    /// The modifiers of an X event's `state` field.
    init(xState state: UInt32) {
        var m: KeyModifiers = []
        if state & (1 << 0) != 0 { m.insert(.shift) }
        if state & (1 << 1) != 0 { m.insert(.capsLock) }
        if state & (1 << 2) != 0 { m.insert(.control) }
        if state & (1 << 3) != 0 { m.insert(.alt) }
        if state & (1 << 4) != 0 { m.insert(.numLock) }
        if state & (1 << 6) != 0 { m.insert(.super) }
        self = m
    }
}

/// A key pressed or released.
public struct KeyEvent: Hashable, Sendable {
    /// The key's keysym without modifiers (`XK_*` in `keysymdef.h`: `0x67` for the G key,
    /// `0xFF1B` for Escape), as `charactersIgnoringModifiers` names the key on a Mac.
    public var keysym: UInt
    /// The text the key types with its modifiers (`"G"` with Shift), empty for keys that type
    /// nothing (arrows, function keys) and for releases.
    public var text: String
    /// The modifiers held when the key went down or up (not including the key's own change).
    public var modifiers: KeyModifiers
    /// Whether this press repeats a held key (the server's auto-repeat).
    public var isRepeat: Bool

    /// An event for the key `keysym`.
    public init(keysym: UInt, text: String = "", modifiers: KeyModifiers = [], isRepeat: Bool = false) {
        self.keysym = keysym
        self.text = text
        self.modifiers = modifiers
        self.isRepeat = isRepeat
    }
}

/// A pointer button.
public enum PointerButton: Hashable, Sendable {
    /// The left button (X button 1).
    case primary
    /// The middle button or wheel click (X button 3 is ``secondary``).
    case middle
    /// The right button.
    case secondary
    /// Any other button, by its X number (8 and 9 are back and forward on many mice).
    case other(Int)

    init(xButton: UInt32) {
        switch xButton {
        case 1: self = .primary
        case 2: self = .middle
        case 3: self = .secondary
        default: self = .other(Int(xButton))
        }
    }
}

/// The pointer moved, or a button went down or up.
///
/// ``location`` is in window pixels, x to the right and y down: the coordinate space a host's
/// root layer lives in (its superlayer's), ready for `hitTest(_:)` or `convert(_:from:)`.
public struct PointerEvent: Hashable, Sendable {
    /// Where the pointer is, in window pixels (the pixel's top-left corner).
    public var location: Point
    /// The button that went down or up; `nil` for motion.
    public var button: PointerButton?
    /// The modifiers held.
    public var modifiers: KeyModifiers

    /// An event at `location`.
    public init(location: Point, button: PointerButton? = nil, modifiers: KeyModifiers = []) {
        self.location = location
        self.button = button
        self.modifiers = modifiers
    }
}

/// A turn of the scroll wheel (or a two-finger swipe, which X reports as wheel clicks).
public struct ScrollEvent: Hashable, Sendable {
    /// Where the pointer is, in window pixels.
    public var location: Point
    /// Wheel clicks to the left (positive) or right (negative): X buttons 6 and 7.
    public var deltaX: Double
    /// Wheel clicks up, away from the user (positive), or down (negative): X buttons 4 and 5.
    public var deltaY: Double
    /// The modifiers held.
    public var modifiers: KeyModifiers

    /// A scroll at `location`.
    public init(location: Point, deltaX: Double, deltaY: Double, modifiers: KeyModifiers = []) {
        self.location = location
        self.deltaX = deltaX
        self.deltaY = deltaY
        self.modifiers = modifiers
    }
}

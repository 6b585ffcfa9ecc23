// Key: the keys the player reacts to, named after their X keysyms: a mapping of KeyEvent.

/// A key the player reacts to, decoded from a ``KeyEvent``'s keysym.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    case g, space, enter, r, p, rightArrow, s, f, c, tab, q, escape
    /// Left, Home, End and l: the play scene's transport (step back, first and last frame, looping).
    case leftArrow, home, end, l
    /// A digit key, `0...9`.
    case digit(Int)

    /// The key for an X keysym (`XK_*` in `keysymdef.h`), or `nil` for any other key.
    public init?(keysym: UInt) {
        switch keysym {
        case 0x67, 0x47: self = .g
        case 0x20: self = .space
        case 0xFF0D, 0xFF8D: self = .enter  // Return, KP_Enter
        case 0x72, 0x52: self = .r
        case 0x70, 0x50: self = .p
        case 0xFF53, 0xFF98: self = .rightArrow  // Right, KP_Right
        case 0xFF51, 0xFF96: self = .leftArrow  // Left, KP_Left
        case 0xFF50, 0xFF95: self = .home  // Home, KP_Home
        case 0xFF57, 0xFF9C: self = .end  // End, KP_End
        case 0x6C, 0x4C: self = .l
        case 0x73, 0x53: self = .s
        case 0x66, 0x46: self = .f
        case 0x63, 0x43: self = .c
        case 0xFF09: self = .tab
        case 0x71, 0x51: self = .q
        case 0xFF1B: self = .escape
        case 0x30...0x39: self = .digit(Int(keysym - 0x30))
        default: return nil
        }
    }

    /// The keysym that produces this key (lowercase letters).
    public var keysym: UInt {
        switch self {
        case .g: 0x67
        case .space: 0x20
        case .enter: 0xFF0D
        case .r: 0x72
        case .p: 0x70
        case .rightArrow: 0xFF53
        case .leftArrow: 0xFF51
        case .home: 0xFF50
        case .end: 0xFF57
        case .l: 0x6C
        case .s: 0x73
        case .f: 0x66
        case .c: 0x63
        case .tab: 0xFF09
        case .q: 0x71
        case .escape: 0xFF1B
        case let .digit(d): 0x30 + UInt(max(0, min(9, d)))
        }
    }

    public var description: String {
        switch self {
        case .g: "g"
        case .space: "space"
        case .enter: "Return"
        case .r: "r"
        case .p: "p"
        case .rightArrow: "Right"
        case .leftArrow: "Left"
        case .home: "Home"
        case .end: "End"
        case .l: "l"
        case .s: "s"
        case .f: "f"
        case .c: "c"
        case .tab: "Tab"
        case .q: "q"
        case .escape: "Escape"
        case let .digit(d): "\(d)"
        }
    }
}

// StyledText: a string in runs, each with its own font, size and colour (an attributed string).

/// A run of text with optional attributes; missing ones come from the ``TextStyle`` it is laid out with.
public struct TextRun: Hashable, Sendable {
    public var string: String
    /// A family name fontconfig understands (`"DejaVu Serif"`, `"monospace"`).
    public var fontFamily: String?
    /// Pixels per em.
    public var fontSize: Double?
    public var color: Color?

    public init(_ string: String, fontFamily: String? = nil, fontSize: Double? = nil, color: Color? = nil) {
        self.string = string
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.color = color
    }
}

/// Text made of styled runs (the part of `NSAttributedString` that text layers use).
public struct StyledText: Hashable, Sendable, ExpressibleByStringLiteral {
    public var runs: [TextRun]

    public init(runs: [TextRun]) { self.runs = runs }

    /// One run with no attributes of its own.
    public init(_ string: String) { runs = [TextRun(string)] }

    public init(stringLiteral value: String) { self.init(value) }

    /// All runs' characters.
    public var string: String { runs.map(\.string).joined() }
}

/// The attributes a run falls back on.
public struct TextStyle: Hashable, Sendable {
    public var fontFamily: String
    public var fontSize: Double
    public var color: Color

    public init(fontFamily: String = Typeface.defaultFamily, fontSize: Double = 17, color: Color = .black) {
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.color = color
    }
}

/// Where lines sit horizontally (`CATextLayerAlignmentMode`).
public enum TextAlignment: Sendable, Hashable {
    /// Left, for the left-to-right text laid out here.
    case natural
    case left
    case right
    case center
    /// Both edges: spaces of every line but the last (and those ending a paragraph) are widened.
    case justified
}

/// Where an ellipsis replaces text that does not fit (`CATextLayerTruncationMode`).
public enum TruncationMode: Sendable, Hashable {
    /// Text is clipped, not shortened.
    case none
    /// "…end of the line".
    case start
    /// "Start…end".
    case middle
    /// "The start of the li…".
    case end
}

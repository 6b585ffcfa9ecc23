// TextLayer: a layer that draws a string or styled text (CATextLayer).

import Raster

/// A layer that draws text in its bounds, as `CATextLayer`: from the top-left, in lines broken
/// to the width when ``isWrapped``, aligned by ``alignmentMode`` and shortened with an ellipsis
/// by ``truncationMode``.
///
/// Fonts are found by family name through fontconfig (``Raster/Typeface``); runs are shaped by
/// HarfBuzz (ligatures, GPOS kerning) over FreeType's glyph advances. ``styledText`` (runs with their own font, size and colour) takes
/// precedence over ``string``; runs without attributes use ``font``, ``fontSize`` and
/// ``foregroundColor``. `fontSize` and `foregroundColor` animate, implicitly too.
///
/// The text is drawn into the layer's backing store when a property changes, from cached
/// glyph images and a cached layout, so unchanged text costs only its composite.
open class TextLayer: Layer {
    /// The text, used when ``styledText`` is `nil`.
    @LayerProperty public var string: String? = nil
    /// Text in styled runs; when set, it is drawn instead of ``string``.
    @LayerProperty public var styledText: StyledText? = nil
    /// The font family for text without one (a fontconfig name). Default DejaVu Sans.
    @LayerProperty public var font: String = Typeface.defaultFamily
    /// The size, in pixels per em, of text without one. Default 36, as Core Animation's.
    @LayerProperty public var fontSize = 36.0
    /// The colour of text without one. Default opaque white, as Core Animation's.
    @LayerProperty public var foregroundColor = Color.white
    /// How lines sit horizontally. Default `.natural` (left).
    @LayerProperty public var alignmentMode: TextAlignment = .natural
    /// Whether lines break to fit the width. Default `false`.
    @LayerProperty public var isWrapped = false
    /// Where an ellipsis shortens text that does not fit. Default `.none`.
    @LayerProperty public var truncationMode: TruncationMode = .none

    private var cachedLayout: (key: LayoutKey, layout: TextLayout)?

    private struct LayoutKey: Equatable {
        // The two text properties as they are, so that checking the key builds no StyledText.
        var string: String?
        var styledText: StyledText?
        var style: TextStyle
        var size: Size
        var alignment: TextAlignment
        var isWrapped: Bool
        var truncation: TruncationMode
    }

    /// Creates an empty text layer; it redraws when its bounds change.
    public required init() {
        super.init()
        needsDisplayOnBoundsChange = true
        setNeedsDisplay()
    }

    static let textKeys: Set<String> = [
        "string", "styledText", "font", "fontSize", "foregroundColor", "alignmentMode", "isWrapped", "truncationMode",
    ]

    open override class func needsDisplay(forKey key: String) -> Bool {
        textKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    open override class func defaultAction(forKey key: String) -> (any Action)? {
        if key == "fontSize" || key == "foregroundColor" { return Layer.implicitAnimation(forKey: key) }
        return super.defaultAction(forKey: key)
    }

    /// The colour text is laid out with: ``foregroundColor`` is applied when drawing, so that
    /// an animated colour repaints the cached layout instead of laying it out again.
    private static let layoutColor = Color.white

    /// The text as laid out in the current bounds (cached while nothing it depends on changes).
    /// Glyphs of runs without a colour carry white here (``TextLayout/Glyph/hasStyleColor``);
    /// they are drawn in ``foregroundColor``.
    public var layout: TextLayout {
        let b = bounds.standardized
        let key = LayoutKey(string: styledText == nil ? string : nil, styledText: styledText,
                            style: TextStyle(fontFamily: font, fontSize: fontSize, color: Self.layoutColor),
                            size: Size(width: b.width, height: b.height), alignment: alignmentMode,
                            isWrapped: isWrapped, truncation: truncationMode)
        if let cachedLayout, cachedLayout.key == key { return cachedLayout.layout }
        guard cachedLayout != nil else {
            let layout = TextLayout(styledText ?? StyledText(string ?? ""), style: key.style, width: b.width, height: b.height,
                                    alignment: key.alignment, isWrapped: key.isWrapped, truncation: key.truncation)
            cachedLayout = (key, layout)
            return layout
        }
        // Laid out again in the cached layout's storage: a clock's new string allocates nothing.
        cachedLayout!.key = key
        if let styledText {
            cachedLayout!.layout.update(styledText, style: key.style, width: b.width, height: b.height,
                                        alignment: key.alignment, isWrapped: key.isWrapped, truncation: key.truncation)
        } else {
            cachedLayout!.layout.update(string ?? "", style: key.style, width: b.width, height: b.height,
                                        alignment: key.alignment, isWrapped: key.isWrapped, truncation: key.truncation)
        }
        return cachedLayout!.layout
    }

    open override func draw(in context: GraphicsContext) {
        let b = bounds.standardized
        guard b.width > 0, b.height > 0, styledText != nil || !(string ?? "").isEmpty else { return }
        context.draw(layout, at: Point(x: b.minX, y: b.minY), styleColor: foregroundColor)
    }
}

// PixelFont: a small built-in bitmap font for overlays (frame rate, key hints).

/// A fixed-width bitmap font: 5×9-pixel glyphs (7 above the baseline, 2 below) in a 6×10 cell,
/// covering printable ASCII (32–126). Any other character is drawn as a box.
///
/// Drawing writes straight into a ``Bitmap``, source-over, with each font pixel becoming a
/// `scale`×`scale` block; it allocates nothing.
public struct PixelFont: Sendable {
    /// The width of a glyph's pixel art.
    public let glyphWidth = 5
    /// The height of a glyph's pixel art, descenders included.
    public let glyphHeight = 9
    /// The horizontal distance from one character to the next, at scale 1.
    public let advance = 6
    /// The vertical distance from one line to the next, at scale 1.
    public let lineHeight = 10
    /// The distance from the top of a line to its baseline, at scale 1.
    public let ascent = 7

    /// Nine rows per glyph, ASCII 32...126 then the box; bit 4 is the leftmost pixel.
    private let rows: [UInt8]
    private static let firstCode: UInt32 = 32, lastCode: UInt32 = 126
    private static var boxIndex: Int { Int(lastCode - firstCode) + 1 }
    /// The largest scale drawn; one font pixel then covers any bitmap.
    private static let maximumScale = Bitmap.maximumSide

    /// The built-in font.
    public static let standard = PixelFont(art: PixelFont.glyphArt)

    private init(art: String) {
        let count = Int(PixelFont.lastCode - PixelFont.firstCode) + 2
        var rows = [UInt8](repeating: 0, count: count * 9)
        let lines = art.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        var lineIndex = 0
        // Each band: a header line, then nine rows of space-separated five-pixel groups.
        while lineIndex + 9 < lines.count, index <= PixelFont.boxIndex - 1 {
            let bandSize = (lines[lineIndex].count + 1) / 6
            for row in 0..<9 {
                let line = Array(lines[lineIndex + 1 + row].utf8)
                for g in 0..<bandSize where index + g < PixelFont.boxIndex {
                    var bits: UInt8 = 0
                    for x in 0..<5 where g * 6 + x < line.count && line[g * 6 + x] == UInt8(ascii: "#") {
                        bits |= 0x10 >> UInt8(x)
                    }
                    rows[(index + g) * 9 + row] = bits
                }
            }
            index += bandSize
            lineIndex += 10
        }
        // The box for anything the font lacks: an outlined 5×7 rectangle.
        let box: [UInt8] = [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F, 0, 0]
        for row in 0..<9 { rows[PixelFont.boxIndex * 9 + row] = box[row] }
        self.rows = rows
    }

    /// The glyph index for a scalar: its ASCII slot or the box.
    private func glyphIndex(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        return v >= PixelFont.firstCode && v <= PixelFont.lastCode ? Int(v - PixelFont.firstCode) : PixelFont.boxIndex
    }

    /// The nine pixel rows of the glyph drawn for `scalar` (bit 4 is the leftmost pixel).
    func glyphRows(for scalar: Unicode.Scalar) -> ArraySlice<UInt8> {
        let i = glyphIndex(scalar) * 9
        return rows[i..<(i + 9)]
    }

    /// The size `text` takes when drawn at `scale`: the longest line's characters times the
    /// advance, less the spacing after the last one, by the number of lines times the line
    /// height, less the gap under the last one. `"\n"` starts a line; `"\r"` takes no room.
    public func size(of text: String, scale: Int = 1) -> Size {
        guard scale > 0, !text.isEmpty else { return .zero }
        var longest = 0, column = 0, lines = 1
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": longest = max(longest, column); column = 0; lines += 1
            case "\r": break
            default: column += 1
            }
        }
        longest = max(longest, column)
        let s = Double(min(scale, PixelFont.maximumScale))
        let width = longest > 0 ? Double(longest * advance - (advance - glyphWidth)) : 0
        return Size(width: width * s, height: Double(lines * lineHeight - (lineHeight - glyphHeight)) * s)
    }

    /// Draws `text` into `bitmap` with its top-left corner at `origin` (device pixels, rounded
    /// down to whole pixels), each font pixel a `scale`×`scale` block of `color` composited
    /// source-over onto the premultiplied pixels, clipped to the bitmap.
    ///
    /// `"\n"` starts a new line `lineHeight × scale` lower; `"\r"` is ignored. Nothing is drawn
    /// for a scale below 1, a non-finite origin or a fully transparent colour.
    public func draw(_ text: String, into bitmap: Bitmap, at origin: Point, scale: Int = 1, color: Color) {
        draw(scalars: text.unicodeScalars, into: bitmap, at: origin, scale: scale, color: color)
    }

    /// Draws ASCII bytes as ``draw(_:into:at:scale:color:)`` draws a string; bytes over 127 draw
    /// as boxes. For text rebuilt every frame in a reused buffer (an overlay), which a `String`
    /// could not be without allocating.
    public func draw(ascii text: [UInt8], into bitmap: Bitmap, at origin: Point, scale: Int = 1, color: Color) {
        draw(scalars: text.lazy.map { Unicode.Scalar($0) }, into: bitmap, at: origin, scale: scale, color: color)
    }

    private func draw<Scalars: Sequence<Unicode.Scalar>>(scalars text: Scalars, into bitmap: Bitmap, at origin: Point, scale: Int, color: Color) {
        guard scale > 0, origin.isFinite, abs(origin.x) < 1e12, abs(origin.y) < 1e12 else { return }
        let source = color.premultipliedPixel
        guard source >> 24 != 0 else { return }
        let s = min(scale, PixelFont.maximumScale)
        let left = Int(origin.x.rounded(.down))
        var x = left, y = Int(origin.y.rounded(.down))
        let width = bitmap.width, height = bitmap.height, stride = bitmap.stride
        bitmap.withUnsafeMutablePixels { pixels in
            for scalar in text {
                switch scalar {
                case "\n":
                    x = left
                    y += lineHeight * s
                    continue
                case "\r":
                    continue
                default:
                    break
                }
                defer { x += advance * s }
                // Skip glyphs wholly outside the bitmap.
                guard y < height, y + glyphHeight * s > 0, x < width, x + glyphWidth * s > 0 else { continue }
                let base = glyphIndex(scalar) * 9
                for row in 0..<glyphHeight {
                    let bits = rows[base + row]
                    guard bits != 0 else { continue }
                    let y0 = max(0, y + row * s), y1 = min(height, y + (row + 1) * s)
                    guard y0 < y1 else { continue }
                    for column in 0..<glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                        let x0 = max(0, x + column * s), x1 = min(width, x + (column + 1) * s)
                        guard x0 < x1 else { continue }
                        for py in y0..<y1 {
                            let rowStart = py * stride
                            for px in x0..<x1 {
                                pixels[rowStart + px] = PixelFont.sourceOver(source, pixels[rowStart + px])
                            }
                        }
                    }
                }
            }
        }
    }

    /// `source` over `destination`, both premultiplied `0xAARRGGBB`: d·(255 − αs)/255 + s per
    /// channel, two channels at a time, with the division rounded exactly.
    @inline(__always)
    static func sourceOver(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let inverse = 255 - (source >> 24)
        guard inverse != 0 else { return source }
        var rb = (destination & 0x00FF_00FF) &* inverse &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((destination >> 8) & 0x00FF_00FF) &* inverse &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return source &+ (rb | ag)
    }
}

// ASCIILine: a line of overlay text in a reused byte buffer, so rebuilding it allocates nothing.

/// A line of ASCII text built in place. Numbers are formatted digit by digit into storage kept
/// between rebuilds, and `PixelFont.draw(ascii:)` draws the bytes directly, so the overlay can
/// refresh its figures without making strings.
struct ASCIILine {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the line, keeping its storage.
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string's bytes; non-ASCII ones draw as boxes.
    mutating func append(_ text: String) {
        for byte in text.utf8 { bytes.append(byte) }
    }

    mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        // Swapped in place: reversing the slice `bytes[start...]` copied the buffer.
        var i = start, j = bytes.count - 1
        while i < j {
            bytes.swapAt(i, j)
            i += 1
            j -= 1
        }
    }

    /// Appends `value` with `digits` decimals, rounded half away from zero, as `fixed(_:_:)` does.
    mutating func append(fixed value: Double, digits: Int) {
        guard value.isFinite else { append(value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf")); return }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { append(value > 0 ? "big" : "-big"); return }
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        if value < 0 && scaled > 0 { bytes.append(UInt8(ascii: "-")) }
        append(whole)
        guard digits > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        let start = bytes.count
        append(fraction)
        let written = bytes.count - start
        if written < digits { bytes.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - written), at: start) }
    }

    /// Appends what `body` writes, padded with spaces on the left to `width` characters.
    mutating func appendRightAligned(width: Int, _ body: (inout ASCIILine) -> Void) {
        let start = bytes.count
        body(&self)
        let written = bytes.count - start
        if written < width { bytes.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: width - written), at: start) }
    }

    /// Pads with spaces up to `column` characters.
    mutating func pad(to column: Int) {
        while bytes.count < column { bytes.append(UInt8(ascii: " ")) }
    }
}

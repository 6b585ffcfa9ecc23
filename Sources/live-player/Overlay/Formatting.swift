// Formatting: numbers as short fixed-point text, without Foundation.

/// `value` with `digits` decimals (rounded half away from zero), for the overlay and summaries.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled > 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let text = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// `text` padded with spaces on the right to `width` characters.
func padRight(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

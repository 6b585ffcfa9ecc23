import Testing
@testable import live_player

@Suite struct ASCIILineTests {
    func text(_ line: ASCIILine) -> String { String(decoding: line.bytes, as: UTF8.self) }

    /// The overlay's in-place formatting writes exactly what the string formatter writes.
    @Test(arguments: [0.0, -0.0, 0.004, -0.004, 0.005, 1.005, 12.345, 16.666_666, 999.999, -3.25, 1e6, 123_456.789,
                      .nan, .infinity, -.infinity])
    func fixedMatchesTheStringFormatter(value: Double) {
        for digits in 0...3 {
            var line = ASCIILine()
            line.append(fixed: value, digits: digits)
            #expect(text(line) == fixed(value, digits), "\(value) with \(digits) digits")
        }
    }

    @Test func integersAndAlignment() {
        var line = ASCIILine()
        line.append("p")
        line.pad(to: 4)
        line.append(-120)
        line.appendRightAligned(width: 6) { $0.append(7) }
        line.append(0)
        #expect(text(line) == "p   -120     70")
    }

    /// Rebuilding a warm line reuses its storage: the buffer never moves.
    @Test func rebuildingKeepsTheBuffer() {
        var line = ASCIILine(capacity: 64)
        func address(_ line: ASCIILine) -> UnsafeRawPointer? { line.bytes.withUnsafeBytes { $0.baseAddress } }
        line.append("warm")
        let first = address(line)
        for i in 0..<1000 {
            line.clear()
            line.append("FPS ")
            line.append(fixed: Double(i) / 7, digits: 1)
            line.appendRightAligned(width: 9) { $0.append(fixed: Double(i) * 1.5, digits: 2) }
            #expect(address(line) == first)
        }
    }
}

@testable import Raster
import Testing

/// A shading's skipped pixels: many adds at once must land on the bits the adds one by one do.
@Suite struct ShadingStepTests {
    @Test func steppingIsTheAddsOneByOne() {
        var seed: UInt64 = 0x5EED
        func random() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 11
        }
        var mismatches = 0
        for i in 0..<40_000 {
            // Starts and steps across scales and signs, crossing zero and binade ends; every
            // fourth step an exact half spacing of its start (a tie) or a power of two.
            let scale = Double(sign: .plus, exponent: Int(random() % 24) - 12, significand: 1)
            var x = (Double(random()) / Double(1 << 53) * 2 - 1) * scale
            var d = (Double(random()) / Double(1 << 53) * 2 - 1) * scale * 0.01
            switch i % 8 {
            case 0: d = x.ulp * 0.5 * (random() & 1 == 0 ? 1 : -1)
            case 1: d = x.ulp * 1.5
            case 2: x = x.binade + x.ulp * Double(random() % 40)
            case 3: d = Double(sign: .plus, exponent: Int(random() % 10) - 20, significand: 1)
            default: break
            }
            let n = Int(random() % 3000)
            var serial = x
            for _ in 0..<n { serial += d }
            var stepped = x
            ShadingEvaluator.step(&stepped, by: d, times: n)
            if serial.bitPattern != stepped.bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // Long runs that stay on one grid do take the shortcut.
        #expect(ShadingEvaluator.stepsOnGrid(0.3, 0.001, 100) != nil)
    }
}

import Foundation
@testable import Raster
import Testing

/// The conic shading's angle, computed without libm's atan2 at every pixel.
@Suite struct ShadingAngleTests {
    @Test func angleIsAtan2WithinTwoMillionthsOfARadian() {
        var worst = 0.0
        var seed: UInt64 = 0x13
        for i in 0..<20_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let t = 2 * Double.pi * Double(i) / 20_000 + Double(seed >> 40) / Double(1 << 24) * 1e-3
            let r = pow(10, Double(Int(seed % 9)) - 4)          // 1e-4 ... 1e4
            let y = r * sin(t), x = r * cos(t)
            worst = max(worst, abs(ShadingEvaluator.angle(y, x) - atan2(y, x)))
        }
        #expect(worst < 2e-6, "\(worst)")
        // The axes and the diagonals, and what goes to atan2 itself.
        for (y, x) in [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (1.0, 1.0), (-1.0, -1.0), (0.0, 0.0)] {
            #expect(abs(ShadingEvaluator.angle(y, x) - atan2(y, x)) < 2e-6, "(\(y), \(x))")
        }
        #expect(ShadingEvaluator.angle(1, .infinity) == atan2(1, .infinity))
        #expect(ShadingEvaluator.angle(.nan, 1).isNaN)
    }
}

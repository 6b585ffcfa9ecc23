import Testing
@testable import LiveLayers

@Suite struct TimingFunctionTests {
    /// y at x by brute-force bisection on the curve parameter (60 halvings: far below 1e-6).
    func reference(_ f: TimingFunction, _ x: Double) -> Double {
        func bez(_ p1: Double, _ p2: Double, _ u: Double) -> Double {
            let v = 1 - u
            return 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if bez(f.controlPoint1.x, f.controlPoint2.x, mid) < x { lo = mid } else { hi = mid }
        }
        return bez(f.controlPoint1.y, f.controlPoint2.y, (lo + hi) / 2)
    }

    @Test func namedFunctionsUseCoreAnimationControlPoints() {
        #expect(TimingFunction.easeIn.controlPoint1 == (0.42, 0) && TimingFunction.easeIn.controlPoint2 == (1, 1))
        #expect(TimingFunction.easeOut.controlPoint1 == (0, 0) && TimingFunction.easeOut.controlPoint2 == (0.58, 1))
        #expect(TimingFunction.easeInEaseOut.controlPoint1 == (0.42, 0) && TimingFunction.easeInEaseOut.controlPoint2 == (0.58, 1))
        #expect(TimingFunction.default.controlPoint1 == (0.25, 0.1) && TimingFunction.default.controlPoint2 == (0.25, 1))
        #expect(TimingFunction.linear.controlPoint(at: 3)! == (1, 1))
        #expect(TimingFunction.linear.controlPoint(at: 4) == nil)
    }

    @Test(arguments: [TimingFunction.linear, .easeIn, .easeOut, .easeInEaseOut, .default,
                      TimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55)])
    func solvedToOneMillionth(_ f: TimingFunction) {
        for i in 0...200 {
            let x = Double(i) / 200
            #expect(abs(f.progress(at: x) - reference(f, x)) < 1e-6, "x = \(x)")
        }
    }

    @Test func knownValues() {
        // CSS `ease` (Core Animation's default) at 0.5 and ease-in-out's symmetry.
        #expect(abs(TimingFunction.default.progress(at: 0.5) - 0.8024033877399112) < 1e-6)
        #expect(abs(TimingFunction.easeInEaseOut.progress(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(TimingFunction.easeIn.progress(at: 0.3) + TimingFunction.easeOut.progress(at: 0.7) - 1) < 1e-6)
        #expect(TimingFunction.linear.progress(at: 0.37) == 0.37)
        #expect(TimingFunction.easeIn.progress(at: -1) == 0 && TimingFunction.easeIn.progress(at: 2) == 1)
    }

    @Test func reversedRunsTheCurveBackwards() {
        let f = TimingFunction.easeIn
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(f.reversed.progress(at: x) - (1 - f.progress(at: 1 - x))) < 1e-6)
        }
    }

    @Test func leadingSegmentIsTheStretchedStartOfTheCurve() throws {
        let f = TimingFunction.easeInEaseOut
        let p = 0.6
        let g = try #require(f.leadingSegment(upTo: p))
        for y in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(g.progress(at: y) - f.progress(at: p * y) / f.progress(at: p)) < 1e-5, "y = \(y)")
        }
        #expect(f.leadingSegment(upTo: 0) == nil)
    }
}

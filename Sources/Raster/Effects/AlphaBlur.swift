// AlphaBlur: a Gaussian blur of coverage by three box blurs each way, for shadows.

/// The alpha of a picture blurred by a Gaussian, approximated by three box blurs in each
/// direction (each pass a running sum, so the cost does not grow with the radius).
///
/// The plane is padded by the blur's full reach on every side, so no coverage is lost at the
/// edges: the blurred plane's total alpha equals the source's (up to float rounding). The
/// buffer is kept and reused; blurring again at the same size allocates nothing.
public final class AlphaBlur {
    /// The device pixels the blurred result covers (the source region grown by ``reach``).
    public private(set) var bounds = IntRect.zero
    /// How far the blur spreads beyond the source, in pixels: the sum of the box radii.
    public private(set) var reach = 0
    private var plane: UnsafeMutablePointer<Float>
    private var scratch: UnsafeMutablePointer<Float>
    private var capacity = 0

    public init() {
        plane = .allocate(capacity: 1)
        scratch = .allocate(capacity: 1)
    }

    deinit {
        plane.deallocate()
        scratch.deallocate()
    }

    /// The three box widths (odd) whose succession best approximates a Gaussian of `sigma`
    /// (Kovesi's "Fast almost-Gaussian filtering", as used by browsers for CSS shadows).
    public static func boxWidths(sigma: Double) -> [Int] {
        let w = widths(sigma: sigma)
        return [w.0, w.1, w.2]
    }

    /// How far the blur of `sigma` spreads beyond its source, in pixels (the three boxes' radii).
    public static func reach(sigma: Double) -> Int {
        let w = widths(sigma: sigma)
        return (w.0 - 1) / 2 + (w.1 - 1) / 2 + (w.2 - 1) / 2
    }

    /// ``boxWidths(sigma:)`` without an array, for the per-frame paths.
    static func widths(sigma: Double) -> (Int, Int, Int) {
        guard sigma > 0, sigma.isFinite else { return (1, 1, 1) }
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var wl = Int(ideal.rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(1, wl)
        let wu = wl + 2
        let m = ((12 * sigma * sigma - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / (-4 * Double(wl) - 4)).rounded()
        return (0 < m ? wl : wu, 1 < m ? wl : wu, 2 < m ? wl : wu)
    }

    /// Blurs the alpha of `source` over `region` (clipped to it) with a Gaussian of standard
    /// deviation `sigma` pixels; the result covers ``bounds``.
    public func blur(alphaOf source: Bitmap, in region: IntRect, sigma: Double) {
        let r = region.intersection(source.bounds)
        let widths = Self.widths(sigma: min(sigma, 512))
        reach = Self.reach(sigma: min(sigma, 512))
        bounds = IntRect(x: r.x - reach, y: r.y - reach, width: r.width + 2 * reach, height: r.height + 2 * reach)
        guard !r.isEmpty else { bounds = .zero; return }
        let w = bounds.width, h = bounds.height
        reserve(w * h)
        plane.update(repeating: 0, count: w * h)
        source.withRows(in: r) { y, row in
            let out = plane + (y - bounds.y) * w + (r.x - bounds.x)
            for i in 0..<row.count { out[i] = Float(row[i] >> 24) / 255 }
        }
        // The three passes without an array of widths: nothing is allocated per blur.
        for pass in 0..<3 {
            let width = pass == 0 ? widths.0 : pass == 1 ? widths.1 : widths.2
            guard width > 1 else { continue }
            Self.boxPass(plane, into: scratch, count: h, length: w, step: 1, lineStride: w, radius: (width - 1) / 2)
            Self.boxPass(scratch, into: plane, count: w, length: h, step: w, lineStride: 1, radius: (width - 1) / 2)
        }
    }

    /// The blurred alpha at device pixel (x, y), 0...1; 0 outside ``bounds``.
    public func alpha(x: Int, y: Int) -> Float {
        guard x >= bounds.x, y >= bounds.y, x < bounds.maxX, y < bounds.maxY else { return 0 }
        return plane[(y - bounds.y) * bounds.width + (x - bounds.x)]
    }

    /// The sum of the blurred alpha over ``bounds`` (equal to the source's, for the tests).
    public var totalAlpha: Double {
        var sum = 0.0
        for i in 0..<bounds.area { sum += Double(plane[i]) }
        return sum
    }

    /// Row `y` of the plane (device row), from column ``bounds``.x.
    func row(_ y: Int) -> UnsafePointer<Float> { UnsafePointer(plane + (y - bounds.y) * bounds.width) }

    private func reserve(_ n: Int) {
        guard n > capacity else { return }
        plane.deallocate()
        scratch.deallocate()
        plane = .allocate(capacity: n)
        scratch = .allocate(capacity: n)
        capacity = n
    }

    /// One box pass over `count` lines of `length` samples: out[i] = mean of in[i−r ... i+r],
    /// zero beyond the ends (the plane's padding makes that exact).
    ///
    /// Eight lines at a time, one to a vector lane: a line's running sum is a chain of dependent
    /// adds, and eight chains side by side keep the adder busy. Each lane does its line's adds in
    /// the scalar order, so the sums are the same floats.
    private static func boxPass(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>,
                                count: Int, length: Int, step: Int, lineStride: Int, radius: Int) {
        let scale = 1 / Float(2 * radius + 1)
        var line = 0
        if lineStride == 1 {
            // Lines are columns: eight adjacent columns are eight adjacent floats of each row.
            while line + 8 <= count {
                let src = input + line, dst = output + line
                func load(_ i: Int) -> SIMD8<Float> { UnsafeRawPointer(src + i * step).loadUnaligned(as: SIMD8<Float>.self) }
                var sum = SIMD8<Float>(repeating: 0)
                for i in 0..<min(radius, length) { sum += load(i) }
                for i in 0..<length {
                    if i + radius < length { sum += load(i + radius) }
                    UnsafeMutableRawPointer(dst + i * step).storeBytes(of: sum * scale, as: SIMD8<Float>.self)
                    if i - radius >= 0 { sum -= load(i - radius) }
                }
                line += 8
            }
        } else {
            // Lines are rows: sample i of eight rows, a stride apart, gathered into one vector.
            while line + 8 <= count {
                let src = input + line * lineStride, dst = output + line * lineStride
                func load(_ i: Int) -> SIMD8<Float> {
                    let p = src + i * step
                    return SIMD8(p[0], p[lineStride], p[2 * lineStride], p[3 * lineStride],
                                 p[4 * lineStride], p[5 * lineStride], p[6 * lineStride], p[7 * lineStride])
                }
                var sum = SIMD8<Float>(repeating: 0)
                for i in 0..<min(radius, length) { sum += load(i) }
                for i in 0..<length {
                    if i + radius < length { sum += load(i + radius) }
                    let v = sum * scale, p = dst + i * step
                    for k in 0..<8 { p[k * lineStride] = v[k] }
                    if i - radius >= 0 { sum -= load(i - radius) }
                }
                line += 8
            }
        }
        while line < count {
            let src = input + line * lineStride, dst = output + line * lineStride
            var sum: Float = 0
            for i in 0..<min(radius, length) { sum += src[i * step] }
            for i in 0..<length {
                if i + radius < length { sum += src[(i + radius) * step] }
                dst[i * step] = sum * scale
                if i - radius >= 0 { sum -= src[(i - radius) * step] }
            }
            line += 1
        }
    }
}

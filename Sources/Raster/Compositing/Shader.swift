// Shader: a Paint prepared for one fill in device space; produces premultiplied source rows.

/// A ``Paint`` resolved against the device transform, ready to produce source pixels.
enum Shader {
    /// One premultiplied pixel everywhere.
    case solid(UInt32)
    /// A gradient table indexed by `t = t0 + dtdx·x + dtdy·y` at pixel centres.
    case linear(table: UnsafeMutablePointer<UInt32>, t0: Double, dtdx: Double, dtdy: Double)
    /// A gradient table indexed by distance from `center` in user space, divided by the radius.
    case radial(table: UnsafeMutablePointer<UInt32>, inverse: Transform, center: Point, inverseRadius: Double)
    /// A bitmap whose pixel (x + dx, y + dy) lands on device pixel (x, y): no resampling.
    case imageOffset(Bitmap, dx: Int, dy: Int)
    /// A bitmap sampled bilinearly through `inverse`, which maps device space to image space.
    case image(Bitmap, inverse: Transform)
    /// Nothing is drawn (a singular transform or an empty gradient).
    case none

    /// How close to exact a transform must be to count as an integer translation: 1e-9 pixels
    /// over a 16384-pixel image is far below anything 8-bit output can show.
    static let snapTolerance = 1e-9

    /// Resolves `paint` for drawing under `ctm`; `table` receives a gradient's 256 colours.
    init(_ paint: Paint, ctm: Transform, table: UnsafeMutablePointer<UInt32>) {
        switch paint {
        case let .solid(color):
            self = .solid(color.premultipliedPixel)
        case let .linearGradient(gradient, start, end):
            guard !gradient.stops.isEmpty, let inverse = ctm.inverted() else { self = .none; return }
            gradient.fillLookupTable(table)
            let v = end - start
            let len2 = v.x * v.x + v.y * v.y
            guard len2 > 0, len2.isFinite else {
                // A degenerate axis paints the last colour, as Core Graphics' pad does.
                self = .solid(gradient.stops.last!.color.premultipliedPixel); return
            }
            // t(device) = ((inverse·p) − start)·v / |v|², an affine function of device x and y.
            let dtdx = (inverse.a * v.x + inverse.b * v.y) / len2
            let dtdy = (inverse.c * v.x + inverse.d * v.y) / len2
            let t0 = ((inverse.tx - start.x) * v.x + (inverse.ty - start.y) * v.y) / len2
            self = .linear(table: table, t0: t0, dtdx: dtdx, dtdy: dtdy)
        case let .radialGradient(gradient, center, radius):
            guard !gradient.stops.isEmpty, let inverse = ctm.inverted() else { self = .none; return }
            gradient.fillLookupTable(table)
            guard radius > 0, radius.isFinite else { self = .solid(gradient.stops.last!.color.premultipliedPixel); return }
            self = .radial(table: table, inverse: inverse, center: center, inverseRadius: 1 / radius)
        case let .image(bitmap, transform):
            let toDevice = transform.concatenating(ctm)
            guard let inverse = toDevice.inverted() else { self = .none; return }
            // A transform within rounding error of an integer translation (for example one
            // undone by concatenating its inverse) still takes the no-resampling path.
            let e = Self.snapTolerance
            if abs(inverse.a - 1) < e, abs(inverse.b) < e, abs(inverse.c) < e, abs(inverse.d - 1) < e,
               abs(inverse.tx) < 1e9, abs(inverse.ty) < 1e9,
               abs(inverse.tx - inverse.tx.rounded()) < e, abs(inverse.ty - inverse.ty.rounded()) < e {
                self = .imageOffset(bitmap, dx: Int(inverse.tx.rounded()), dy: Int(inverse.ty.rounded()))
            } else {
                self = .image(bitmap, inverse: inverse)
            }
        }
    }

    /// Source pixels for columns `x ..< x + count` of row `y`: either a pointer into an image
    /// row (no copy) or `scratch`, filled.
    @inline(__always)
    func row(x: Int, y: Int, count: Int, scratch: UnsafeMutablePointer<UInt32>) -> UnsafePointer<UInt32> {
        switch self {
        case let .solid(p):
            scratch.update(repeating: p, count: count)
        case let .linear(table, t0, dtdx, dtdy):
            var t = t0 + dtdx * (Double(x) + 0.5) + dtdy * (Double(y) + 0.5)
            for i in 0..<count {
                scratch[i] = table[Self.index(t)]
                t += dtdx
            }
        case let .radial(table, inverse, center, inverseRadius):
            let py = Double(y) + 0.5
            for i in 0..<count {
                let p = Point(x: Double(x + i) + 0.5, y: py).applying(inverse)
                let dx = p.x - center.x, dy = p.y - center.y
                scratch[i] = table[Self.index((dx * dx + dy * dy).squareRoot() * inverseRadius)]
            }
        case let .imageOffset(bitmap, dx, dy):
            let sy = y + dy, sx = x + dx
            guard sy >= 0, sy < bitmap.height else { scratch.update(repeating: 0, count: count); break }
            let rowStart = bitmap.pixels + sy * bitmap.stride
            if sx >= 0 && sx + count <= bitmap.width { return UnsafePointer(rowStart + sx) }
            for i in 0..<count {
                let c = sx + i
                scratch[i] = c >= 0 && c < bitmap.width ? rowStart[c] : 0
            }
        case let .image(bitmap, inverse):
            Self.sampleRow(bitmap, inverse: inverse, x: x, y: y, count: count, into: scratch)
        case .none:
            scratch.update(repeating: 0, count: count)
        }
        return UnsafePointer(scratch)
    }

    /// The table index for `t`, padded to the ends (NaN maps to 0).
    @inline(__always)
    static func index(_ t: Double) -> Int {
        let v = t * 255 + 0.5
        return v >= 255 ? 255 : (v > 0 ? Int(v) : 0)
    }

    /// Bilinear samples of `bitmap` at the device pixel centres of one row span.
    ///
    /// A centre that maps outside the image is transparent; inside, neighbours beyond the edge
    /// are clamped to it, so an image drawn in a rectangle has no dark fringe.
    static func sampleRow(_ bitmap: Bitmap, inverse: Transform, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let w = Double(bitmap.width), h = Double(bitmap.height)
        let py = Double(y) + 0.5
        var u = inverse.a * (Double(x) + 0.5) + inverse.c * py + inverse.tx
        var v = inverse.b * (Double(x) + 0.5) + inverse.d * py + inverse.ty
        let du = inverse.a, dv = inverse.b
        let maxX = bitmap.width - 1, maxY = bitmap.height - 1
        let pixels = bitmap.pixels, stride = bitmap.stride
        if dv == 0 {
            // No rotation or shear (an image scaled or at a fractional offset): the row's source
            // rows and their weight are the same for every pixel, worked out once.
            guard v >= 0, v < h else { out.update(repeating: 0, count: count); return }
            let fv = v - 0.5
            let iv = floor(fv)
            let wy = UInt32((fv - Double(iv)) * 256 + 0.5)
            let row0 = pixels + max(0, iv) * stride, row1 = pixels + min(maxY, iv + 1) * stride
            let fu0 = u - 0.5
            if du == 1, abs(fu0) < 1e15, fu0 == fu0.rounded(.towardZero) {
                // Columns on the image's own (a backing store at a fractional y only, such as a
                // text layer's): every centre lands on a column, so the horizontal weight is 0
                // and each pixel is the vertical mix of one column, which `mix` gives exactly.
                Self.mixRows(row0, row1, wy, fromColumn: Int(fu0), width: bitmap.width, count: count, into: out)
                return
            }
            for i in 0..<count {
                defer { u += du }
                guard u >= 0, u < w else { out[i] = 0; continue }
                let fu = u - 0.5
                let iu = floor(fu)
                let wx = UInt32((fu - Double(iu)) * 256 + 0.5)
                let x0 = max(0, iu), x1 = min(maxX, iu + 1)
                out[i] = Self.mix(Self.mix(row0[x0], row0[x1], wx), Self.mix(row1[x0], row1[x1], wx), wy)
            }
            return
        }
        for i in 0..<count {
            defer { u += du; v += dv }
            guard u >= 0, v >= 0, u < w, v < h else { out[i] = 0; continue }
            let fu = u - 0.5, fv = v - 0.5
            let iu = floor(fu), iv = floor(fv)
            let wx = UInt32((fu - Double(iu)) * 256 + 0.5), wy = UInt32((fv - Double(iv)) * 256 + 0.5)
            let x0 = max(0, iu), x1 = min(maxX, iu + 1)
            let y0 = max(0, iv), y1 = min(maxY, iv + 1)
            let top = Self.mix(pixels[y0 * stride + x0], pixels[y0 * stride + x1], wx)
            let bottom = Self.mix(pixels[y1 * stride + x0], pixels[y1 * stride + x1], wx)
            out[i] = Self.mix(top, bottom, wy)
        }
    }

    /// `mix(row0[c], row1[c], wy)` for the columns `c = column + i`, `i < count`, and 0 where `c`
    /// is outside `0 ..< width`: the samples of a row whose centres land on columns.
    static func mixRows(_ row0: UnsafeMutablePointer<UInt32>, _ row1: UnsafeMutablePointer<UInt32>, _ wy: UInt32,
                        fromColumn column: Int, width: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let start = min(count, max(0, -column)), end = max(start, min(count, width - column))
        if start > 0 { out.update(repeating: 0, count: start) }
        if end < count { (out + end).update(repeating: 0, count: count - end) }
        let p = row0 + column, q = row1 + column
        var i = start
        if wy == 0 {
            (out + start).update(from: p + start, count: end - start)
            return
        }
        // Eight at a time in 16-bit lanes: each channel's p·(256 − w) + q·w is at most 255·256,
        // so the lanes hold exactly what `mix` computes in its 32-bit halves.
        let w16 = SIMD16<UInt16>(repeating: UInt16(wy)), iw16 = SIMD16<UInt16>(repeating: UInt16(256 - wy))
        let low = Pixels8(repeating: 0x00FF_00FF)
        @inline(__always) func lanes(_ v: Pixels8) -> SIMD16<UInt16> { unsafeBitCast(v, to: SIMD16<UInt16>.self) }
        while i + 8 <= end {
            let a = PixelMath.load8(p + i), b = PixelMath.load8(q + i)
            if PixelMath.allClear(a | b) {
                PixelMath.store8(Pixels8(repeating: 0), out + i)
            } else {
                let rb = lanes(a & low) &* iw16 &+ lanes(b & low) &* w16
                let ag = lanes((a &>> 8) & low) &* iw16 &+ lanes((b &>> 8) & low) &* w16
                let mixed = (unsafeBitCast(rb, to: Pixels8.self) &>> 8) & low | unsafeBitCast(ag, to: Pixels8.self) & ~low
                PixelMath.store8(mixed, out + i)
            }
            i += 8
        }
        while i < end {
            out[i] = mix(p[i], q[i], wy)
            i += 1
        }
    }

    /// `x.rounded(.down)` as an integer, for `x` in -1 ..< 2^53: truncation, one less below zero
    /// or where it rounded up. `rounded(.down)` is a call to libm's `floor` on baseline x86-64
    /// (no SSE4.1), two of them for every sampled pixel.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let t = Int(x)
        return Double(t) > x ? t - 1 : t
    }

    /// `p·(256 − w) + q·w` over 256 for every channel, `w` in 0...256.
    @inline(__always)
    static func mix(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
        let iw = 256 - w
        let rb = (((p & 0x00FF_00FF) &* iw &+ (q & 0x00FF_00FF) &* w) >> 8) & 0x00FF_00FF
        let ag = (((p >> 8) & 0x00FF_00FF) &* iw &+ ((q >> 8) & 0x00FF_00FF) &* w) & 0xFF00_FF00
        return rb | ag
    }
}

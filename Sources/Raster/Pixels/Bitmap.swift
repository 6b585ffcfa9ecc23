// Bitmap: 32-bit premultiplied pixels laid out as an X11 ZPixmap (depth 24/32, little-endian).

/// Why a bitmap could not be made.
public enum BitmapError: Error, Equatable, CustomStringConvertible {
    /// A side was zero, negative, or over ``Bitmap/maximumSide``.
    case invalidSize(width: Int, height: Int)
    /// The stride is smaller than the width.
    case invalidStride(stride: Int, width: Int)

    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            return "invalid bitmap size \(w)x\(h): each side must be 1...\(Bitmap.maximumSide)"
        case let .invalidStride(s, w):
            return "invalid bitmap stride \(s) for width \(w)"
        }
    }
}

/// A rectangle of 32-bit pixels, premultiplied, each a `UInt32` holding `0xAARRGGBB`.
///
/// On a little-endian machine the bytes in memory are B, G, R, A: exactly an X11 `ZPixmap`
/// of depth 24 or 32 with the masks `0xFF0000`, `0xFF00`, `0xFF`, so a frame goes to the
/// server with no conversion. Rows are `stride` pixels apart.
///
/// A bitmap owns its pixels (allocated here, or adopted from a shared-memory segment), and frees
/// them when it goes; the pixel memory is reached only inside scoped calls. It is a reference
/// type: a frame buffer has identity, and a layer's `contents` shares its bitmap as `CGImage` does.
public final class Bitmap {
    /// The largest width or height accepted: 16384 pixels.
    public static let maximumSide = 16384

    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The distance between the starts of two rows, in pixels (not bytes).
    public let stride: Int

    @usableFromInline
    let pixels: UnsafeMutablePointer<UInt32>
    private let release: ((UnsafeMutablePointer<UInt32>) -> Void)?

    /// Creates a bitmap of the given size, every pixel transparent black.
    /// - Throws: ``BitmapError/invalidSize(width:height:)`` for a side outside 1...16384.
    public init(width: Int, height: Int) throws(BitmapError) {
        guard (1...Bitmap.maximumSide).contains(width), (1...Bitmap.maximumSide).contains(height) else {
            throw .invalidSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.stride = width
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        p.initialize(repeating: 0, count: width * height)
        self.pixels = p
        self.release = { $0.deallocate() }
    }

    /// Adopts pixel memory allocated elsewhere (a MIT-SHM segment, an `XImage`'s buffer): the
    /// bitmap calls `deallocator` with `memory` once, when it and every view of it are gone, so
    /// the pixels live exactly as long as something can reach them (a frame buffer kept after
    /// its window was resized stays valid). `memory` must hold at least `stride * height` pixels.
    /// If the initializer throws, the memory is not adopted and stays the caller's to free.
    ///
    /// Package-only: the public API neither takes nor hands out pixel pointers except inside a
    /// scoped call (``withRows(in:_:)``, ``withUnsafeMutablePixels(_:)``).
    package init(
        adopting memory: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int,
        deallocator: @escaping (UnsafeMutablePointer<UInt32>) -> Void
    ) throws(BitmapError) {
        guard (1...Bitmap.maximumSide).contains(width), (1...Bitmap.maximumSide).contains(height) else {
            throw .invalidSize(width: width, height: height)
        }
        guard stride >= width else { throw .invalidStride(stride: stride, width: width) }
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = memory
        self.release = deallocator
    }

    /// A view of `parent`'s pixels starting at `origin`, keeping `parent` alive.
    private init(viewOf parent: Bitmap, at origin: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.stride = parent.stride
        self.pixels = origin
        self.release = { _ in withExtendedLifetime(parent) {} }
    }

    deinit { release?(pixels) }

    /// A bitmap that shares this bitmap's pixels in `region` (clipped to the bitmap), with its
    /// own origin at the region's top-left: drawing into the view draws into this bitmap, which
    /// the view keeps alive. `nil` if nothing of `region` is inside the bitmap.
    ///
    /// For redrawing a damaged rectangle: a ``GraphicsContext`` on the view touches only it.
    public func view(of region: IntRect) -> Bitmap? {
        let r = region.intersection(bounds)
        guard !r.isEmpty else { return nil }
        return Bitmap(viewOf: self, at: pixels + r.y * stride + r.x, width: r.width, height: r.height)
    }

    /// The whole bitmap as a pixel rectangle.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at column `x`, row `y`; out-of-range reads return transparent black.
    @inlinable
    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            return pixels[y * stride + x]
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            pixels[y * stride + x] = newValue
        }
    }

    /// Sets every pixel of `region` (clipped to the bitmap) to `pixel`.
    public func fill(_ region: IntRect, with pixel: UInt32) {
        let r = region.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            (pixels + y * stride + r.x).update(repeating: pixel, count: r.width)
        }
    }

    /// Sets every pixel to `pixel` (transparent black by default).
    public func clear(to pixel: UInt32 = 0) {
        fill(bounds, with: pixel)
    }

    /// Copies `source` into this bitmap with its top-left corner at (`x`, `y`), replacing pixels
    /// (no blending); the part that falls outside is skipped.
    public func copy(from source: Bitmap, toX x: Int, y: Int) {
        let target = IntRect(x: x, y: y, width: source.width, height: source.height).intersection(bounds)
        guard !target.isEmpty else { return }
        for row in target.y..<target.maxY {
            let src = source.pixels + (row - y) * source.stride + (target.x - x)
            (pixels + row * stride + target.x).update(from: src, count: target.width)
        }
    }

    /// Copies the pixels of `region` from `source` to the same place in this bitmap, replacing
    /// them (no blending); what lies outside either bitmap is skipped. For bringing one frame's
    /// damage from the bitmap it was drawn in to another that holds an older frame.
    public func copy(_ region: IntRect, from source: Bitmap) {
        let r = region.intersection(bounds).intersection(source.bounds)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            (pixels + row * stride + r.x).update(from: source.pixels + row * source.stride + r.x, count: r.width)
        }
    }

    /// Calls `body` with the pixel rows of `region` (clipped to the bitmap), one buffer per row.
    ///
    /// This is the safe way into the pixel memory: each buffer is exactly one row's pixels
    /// inside the region, and must not escape the call.
    @inlinable
    public func withRows(in region: IntRect, _ body: (_ y: Int, _ row: UnsafeMutableBufferPointer<UInt32>) throws -> Void) rethrows {
        let r = region.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            try body(y, UnsafeMutableBufferPointer(start: pixels + y * stride + r.x, count: r.width))
        }
    }

    /// Calls `body` with all pixel memory: `stride * height` pixels, row after row.
    ///
    /// For the presenter's copy into a server image and for the renderer's inner loops;
    /// the buffer must not escape the call.
    @inlinable
    public func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: pixels, count: stride * height))
    }

    /// A new bitmap holding a copy of `region` (clipped to this bitmap); `nil` if nothing is left.
    public func cropped(to region: IntRect) -> Bitmap? {
        let r = region.intersection(bounds)
        guard !r.isEmpty, let out = try? Bitmap(width: r.width, height: r.height) else { return nil }
        for y in 0..<r.height {
            (out.pixels + y * out.stride).update(from: pixels + (r.y + y) * stride + r.x, count: r.width)
        }
        return out
    }

    /// Whether both bitmaps have the same size and the same pixels.
    public func hasSamePixels(as other: Bitmap) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for y in 0..<height {
            let a = pixels + y * stride, b = other.pixels + y * other.stride
            for x in 0..<width where a[x] != b[x] { return false }
        }
        return true
    }
}

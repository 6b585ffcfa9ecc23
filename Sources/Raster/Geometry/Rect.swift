// Rect: an axis-aligned rectangle (Core Graphics' CGRect), and IntRect for pixel regions.

/// An axis-aligned rectangle in user space, given by its origin (top-left corner) and size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The extent; a negative width or height is allowed and means the rectangle
    /// extends left or up from `origin`, as in Core Graphics.
    public var size: Size

    /// Creates a rectangle from its origin and size.
    @inlinable
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle at the origin with zero size.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The smallest x coordinate.
    @inlinable public var minX: Double { min(origin.x, origin.x + size.width) }
    /// The smallest y coordinate.
    @inlinable public var minY: Double { min(origin.y, origin.y + size.height) }
    /// The largest x coordinate.
    @inlinable public var maxX: Double { max(origin.x, origin.x + size.width) }
    /// The largest y coordinate.
    @inlinable public var maxY: Double { max(origin.y, origin.y + size.height) }
    /// The x coordinate of the centre.
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    /// The y coordinate of the centre.
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    /// The absolute width.
    @inlinable public var width: Double { abs(size.width) }
    /// The absolute height.
    @inlinable public var height: Double { abs(size.height) }
    /// The centre point.
    @inlinable public var center: Point { Point(x: midX, y: midY) }

    /// The same rectangle with a non-negative width and height.
    @inlinable
    public var standardized: Rect { Rect(x: minX, y: minY, width: width, height: height) }

    /// Whether the rectangle encloses no area.
    @inlinable
    public var isEmpty: Bool { !(size.width != 0 && size.height != 0) }

    /// Whether `point` lies inside the rectangle (the max edges excluded).
    @inlinable
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The smallest rectangle that contains both rectangles; an empty rectangle contributes nothing.
    @inlinable
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other.standardized }
        if other.isEmpty { return standardized }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The overlap of both rectangles, or `.zero` where they do not overlap.
    @inlinable
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether the two rectangles overlap with a non-zero area.
    @inlinable
    public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// The rectangle moved inward by `dx` on the left and right and `dy` on the top and bottom.
    @inlinable
    public func insetBy(dx: Double, dy: Double) -> Rect {
        let r = standardized
        return Rect(x: r.minX + dx, y: r.minY + dy, width: r.width - 2 * dx, height: r.height - 2 * dy)
    }

    /// The rectangle moved by the given offsets.
    @inlinable
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// The bounding box of this rectangle's four corners after `transform`.
    public func applying(_ transform: Transform) -> Rect {
        // Four corners without an array: this runs per draw call and must not allocate.
        let p0 = Point(x: minX, y: minY).applying(transform), p1 = Point(x: maxX, y: minY).applying(transform)
        let p2 = Point(x: minX, y: maxY).applying(transform), p3 = Point(x: maxX, y: maxY).applying(transform)
        let x0 = min(min(p0.x, p1.x), min(p2.x, p3.x)), y0 = min(min(p0.y, p1.y), min(p2.y, p3.y))
        let x1 = max(max(p0.x, p1.x), max(p2.x, p3.x)), y1 = max(max(p0.y, p1.y), max(p2.y, p3.y))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

/// A rectangle of whole pixels in device space: columns `x..<x+width`, rows `y..<y+height`.
public struct IntRect: Hashable, Sendable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// The number of columns; never negative.
    public var width: Int
    /// The number of rows; never negative.
    public var height: Int

    /// Creates a pixel rectangle; negative extents are clamped to zero.
    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The empty rectangle at the origin.
    public static let zero = IntRect(x: 0, y: 0, width: 0, height: 0)

    /// One past the right column.
    @inlinable public var maxX: Int { x + width }
    /// One past the bottom row.
    @inlinable public var maxY: Int { y + height }
    /// Whether the rectangle holds no pixel.
    @inlinable public var isEmpty: Bool { width == 0 || height == 0 }
    /// The number of pixels.
    @inlinable public var area: Int { width * height }

    /// The smallest pixel rectangle that contains `rect` (edges rounded outward).
    /// Non-finite rectangles give `.zero`.
    public init(enclosing rect: Rect) {
        let r = rect.standardized
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite, !r.isEmpty else {
            self = .zero
            return
        }
        let limit = Double(1 << 30)
        let x0 = Int(max(-limit, min(limit, r.minX.rounded(.down))))
        let y0 = Int(max(-limit, min(limit, r.minY.rounded(.down))))
        let x1 = Int(max(-limit, min(limit, r.maxX.rounded(.up))))
        let y1 = Int(max(-limit, min(limit, r.maxY.rounded(.up))))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The overlap of both rectangles, or `.zero`.
    @inlinable
    public func intersection(_ other: IntRect) -> IntRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both; an empty rectangle contributes nothing.
    @inlinable
    public func union(_ other: IntRect) -> IntRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return IntRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The same region as a user-space rectangle.
    @inlinable
    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    public var description: String { "[\(x), \(y), \(width)x\(height)]" }
}

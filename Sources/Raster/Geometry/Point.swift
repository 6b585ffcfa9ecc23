// Point: a position or offset in user space (Core Graphics' CGPoint).

/// A point in a two-dimensional coordinate system, in user-space units.
///
/// Coordinates follow the screen: x grows to the right and y grows downward,
/// as in a UIKit view or a flipped Core Graphics context.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate; larger values are lower on screen.
    public var y: Double

    /// Creates a point from its coordinates.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The distance from this point to `other`.
    @inlinable
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The point on the straight line from `self` to `other` at fraction `t` (0 gives `self`).
    @inlinable
    public func interpolated(to other: Point, fraction t: Double) -> Point {
        Point(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }

    public var description: String { "(\(x), \(y))" }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(x: a.x * s, y: a.y * s) }
    @inlinable public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }
}

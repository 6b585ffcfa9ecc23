// ShapeGeometry+RoundCorners: the round corners modifier ("rd"), as After Effects and lottie-web round.

import Raster

extension ShapeGeometry {
    /// The cubic handle length of a rounded corner, as a fraction of the cut (lottie-web's `roundCorner`).
    static let roundCornerHandle = 0.5519

    /// A path vertex with its absolute in and out control points (equal to the vertex when sharp).
    private struct Vertex {
        var point: Point
        var inControl: Point
        var outControl: Point
        var isSharp: Bool { inControl == point && outControl == point }
    }

    /// `path` with every sharp corner (a vertex without tangents) cut back by up to `radius` along
    /// both edges (at most half of each edge) and joined by a cubic whose handles reach 55 % of
    /// the way back to the corner. Curved vertices and the ends of open subpaths stay.
    static func roundCorners(_ path: Path, radius: Double) -> Path {
        guard radius > 0, radius.isFinite else { return path }
        var out = Path()
        var vertices: [Vertex] = []
        var closed = false
        func flush() {
            defer { vertices.removeAll(keepingCapacity: true); closed = false }
            guard !vertices.isEmpty else { return }
            // A closed subpath that returns to its start by a segment: the start is one vertex.
            if closed, vertices.count > 1, vertices[vertices.count - 1].point == vertices[0].point {
                let last = vertices.removeLast()
                vertices[0].inControl = last.inControl
            }
            emit(rounded(vertices, closed: closed, radius: radius), closed: closed, into: &out)
        }
        for element in path.elements {
            switch element {
            case let .move(p):
                flush()
                vertices.append(Vertex(point: p, inControl: p, outControl: p))
            case let .line(p):
                vertices.append(Vertex(point: p, inControl: p, outControl: p))
            case let .quadCurve(p, c):
                guard let a = vertices.last?.point else { continue }
                vertices[vertices.count - 1].outControl = a + (c - a) * (2.0 / 3)
                vertices.append(Vertex(point: p, inControl: p + (c - p) * (2.0 / 3), outControl: p))
            case let .curve(p, c1, c2):
                guard !vertices.isEmpty else { continue }
                vertices[vertices.count - 1].outControl = c1
                vertices.append(Vertex(point: p, inControl: c2, outControl: p))
            case .closeSubpath:
                closed = true
                flush()
            }
        }
        flush()
        return out
    }

    private static func rounded(_ vertices: [Vertex], closed: Bool, radius: Double) -> [Vertex] {
        let n = vertices.count
        guard n > 2 || (closed && n > 1) else { return vertices }
        var result: [Vertex] = []
        result.reserveCapacity(n * 2)
        for i in 0..<n {
            let v = vertices[i]
            let isEnd = !closed && (i == 0 || i == n - 1)
            guard v.isSharp, !isEnd else { result.append(v); continue }
            let corner = v.point
            let previous = vertices[(i + n - 1) % n].point, next = vertices[(i + 1) % n].point
            func cut(toward other: Point) -> Point {
                let d = other - corner
                let length = (d.x * d.x + d.y * d.y).squareRoot()
                guard length > 0 else { return corner }
                return corner + d * (min(length / 2, radius) / length)
            }
            let a = cut(toward: previous), b = cut(toward: next)
            result.append(Vertex(point: a, inControl: a, outControl: a + (corner - a) * roundCornerHandle))
            result.append(Vertex(point: b, inControl: b + (corner - b) * roundCornerHandle, outControl: b))
        }
        return result
    }

    private static func emit(_ vertices: [Vertex], closed: Bool, into path: inout Path) {
        guard let first = vertices.first else { return }
        path.move(to: first.point)
        func segment(_ a: Vertex, _ b: Vertex) {
            if a.outControl == a.point && b.inControl == b.point { path.addLine(to: b.point) } else {
                path.addCurve(to: b.point, control1: a.outControl, control2: b.inControl)
            }
        }
        for i in vertices.indices.dropFirst() { segment(vertices[i - 1], vertices[i]) }
        if closed {
            if vertices.count > 1 { segment(vertices[vertices.count - 1], first) }
            path.closeSubpath()
        }
    }
}

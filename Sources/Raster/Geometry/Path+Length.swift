// Path+Length: the arc length of a path.

extension Path {
    /// The arc length of every subpath together, closing segments included, in user-space units.
    ///
    /// Curves are measured by Gauss–Legendre quadrature, so the result is accurate to far
    /// below a pixel at any scale. Subpaths with a non-finite point count as zero.
    public var length: Double { PathMeasure(self).length }
}

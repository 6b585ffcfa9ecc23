import Testing
import Raster

@Suite struct GeometryContractTests {
    @Test func transformConcatenationOrder() {
        let t = Transform(translationX: 10, y: 0).concatenating(Transform(scaleX: 2, y: 2))
        #expect(Point(x: 1, y: 1).applying(t) == Point(x: 22, y: 2))
    }
}

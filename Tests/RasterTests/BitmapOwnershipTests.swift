import Testing
import Raster

/// Adopted pixel memory is freed by the bitmap, once, after the last view of it is gone.
@Suite struct BitmapOwnershipTests {
    final class Frees { var count = 0 }

    @Test func adoptedMemoryIsFreedOnceWhenTheBitmapAndItsViewsAreGone() throws {
        let frees = Frees()
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: 6 * 4)
        memory.initialize(repeating: 0, count: 6 * 4)
        var bitmap: Bitmap? = try Bitmap(adopting: memory, width: 5, height: 4, stride: 6) {
            frees.count += 1
            $0.deallocate()
        }
        var view = bitmap?.view(of: IntRect(x: 1, y: 1, width: 2, height: 2))
        bitmap = nil
        #expect(frees.count == 0)                       // the view keeps the pixels
        view?[0, 0] = 0xFF00_00FF
        #expect(view?[0, 0] == 0xFF00_00FF)
        view = nil
        #expect(frees.count == 1)
    }

    @Test func refusedMemoryStaysTheCallers() {
        let frees = Frees()
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: 4)
        defer { memory.deallocate() }
        #expect(throws: BitmapError.invalidStride(stride: 1, width: 2)) {
            try Bitmap(adopting: memory, width: 2, height: 2, stride: 1) { _ in frees.count += 1 }
        }
        #expect(frees.count == 0)
    }
}

// ProcFileTests: the tests read a player's /proc files whole.

import Foundation
import Testing

/// `noSegmentOutlivesThePlayer` failed under load: the player had its four MIT-SHM mappings, at
/// lines 56 to 59 of its memory map, but the test read the first 36 lines only (one page: a `/proc`
/// file's size says 0, and `String(contentsOfFile:)` reads that much). Where the kernel places the
/// segments among the libraries decides whether they are in the first page, hence the flakiness.
struct ProcFileTests {
    /// This test process's map is many pages long; its main stack is near the end.
    @Test func procFilesAreReadToTheirEnd() throws {
        let maps = try #require(PlayerProcess.procFile("/proc/self/maps"))
        #expect(maps.utf8.count > 4096)
        #expect(maps.contains("[stack]"), "cut after \(maps.utf8.count) bytes")
    }
}

// LayoutGlyphImages: a laid-out text's glyph images, looked up once per glyph and phase.

import Synchronization

/// The glyph image each glyph of one ``TextLayout`` was last drawn with, by glyph index.
///
/// Drawing a layout again takes this table's lock once and reads an array, instead of taking
/// the typeface's lock and hashing a key for every glyph. Copies of a layout share the table.
final class LayoutGlyphImages: Sendable {
    struct Entry {
        /// `nil` when FreeType gave no image (or before the first lookup).
        var image: GlyphImage?
        /// The quarter-pixel phase `image` was rendered at; -1 before the first lookup.
        var phase: Int8 = -1
    }

    private let entries = Mutex<[Entry]>([])

    /// Runs `body` with one entry per glyph of a layout of `count` glyphs, under the lock.
    func withEntries(count: Int, _ body: (UnsafeMutableBufferPointer<Entry>) -> Void) {
        entries.withLock { entries in
            if entries.count != count {
                entries.removeAll(keepingCapacity: true)
                entries.append(contentsOf: repeatElement(Entry(), count: count))
            }
            entries.withUnsafeMutableBufferPointer { body($0) }
        }
    }

    /// Forgets every entry (the layout was laid out again), keeping the storage.
    func reset() {
        entries.withLock { $0.removeAll(keepingCapacity: true) }
    }
}

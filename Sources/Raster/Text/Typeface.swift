// Typeface: one font file through FreeType, found by family name through fontconfig, with its glyph caches.

import CFreeType
import CHarfBuzz
import Synchronization

/// A font face: glyph outlines and metrics from FreeType, found by family name through fontconfig,
/// and shaped by HarfBuzz (the same file opened by HarfBuzz's own OpenType functions).
///
/// Metrics are FreeType's unhinted (linear) ones, so a string's advance does not depend on the
/// size it is drawn at beyond scaling. Glyph images are rendered by FreeType's grayscale
/// renderer with light hinting (vertical only), which keeps small text crisp without moving
/// advances, at a quarter-pixel horizontal phase; outlines are kept for drawing under rotation
/// or scale with the project's rasterizer. Both are cached, so drawing text that was drawn
/// before costs only the blit.
///
/// A typeface is safe to use from several threads: its FreeType face is behind a lock.
public final class Typeface: @unchecked Sendable {
    // @unchecked: `face` and the caches are only touched with `lock` held.

    /// The family name fontconfig matched (`"DejaVu Sans"`).
    public let familyName: String
    /// The font file.
    public let path: String
    /// Design units per em: the font's own coordinate grid.
    public let unitsPerEm: Double
    /// Distance from the baseline up to the top of the tallest glyphs, in em.
    public let ascender: Double
    /// Distance from the baseline down to the bottom of the deepest glyphs, in em (positive).
    public let descender: Double
    /// Baseline-to-baseline distance, in em.
    public let lineHeight: Double

    private let library: FT_Library
    private let face: FT_Face
    /// The same font file for HarfBuzz, at a scale of one unit per font unit; `nil` if HarfBuzz
    /// finds no glyphs in it (runs are then mapped character by character with `kern` kerning).
    private let shaper: OpaquePointer?
    /// One shaping buffer and one list of scalars, reused under the lock.
    private let shapingBuffer: OpaquePointer?
    private var shapingScalars: [UInt32] = []
    private let lock = Mutex(())
    private var glyphIndices: [UInt32: UInt32] = [:]
    private var advances: [UInt32: Double] = [:]
    private var kernings: [UInt64: Double] = [:]
    private var images: [GlyphImageKey: GlyphImage] = [:]
    private var outlines: [UInt32: Path] = [:]
    private var currentSize = 0
    /// Glyph images kept before the cache starts over (a few sizes of a few scripts' worth).
    static let imageCacheLimit = 4096

    /// The faces already opened, by requested family name.
    private static let opened = Mutex<[String: Typeface]>([:])
    /// fontconfig's configuration is not thread-safe: lookups hold this.
    private static let fontconfig = Mutex(())

    /// The family used when none is given: DejaVu Sans, which the README installs.
    public static let defaultFamily = "DejaVu Sans"

    /// The default typeface (``defaultFamily``), or `nil` if no font can be opened at all.
    public static var `default`: Typeface? { named(defaultFamily) }

    /// The typeface fontconfig picks for `family` (its best match, so an unknown family gives
    /// the system's default sans-serif), opened once and shared; `nil` if no font file opens.
    public static func named(_ family: String) -> Typeface? {
        if let face = opened.withLock({ $0[family] }) { return face }
        guard let (path, index) = Self.match(family), let face = Typeface(path: path, index: index) else { return nil }
        return opened.withLock { table in
            if let existing = table[family] { return existing }
            table[family] = face
            return face
        }
    }

    /// The file and face index fontconfig matches to `family`.
    private static func match(_ family: String) -> (String, Int)? {
        fontconfig.withLock { _ -> (String, Int)? in
            guard FcInit() != 0, let pattern = FcNameParse(family) else { return nil }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let font = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(font) }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
            return (String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), Int(index))
        }
    }

    /// Opens face `index` of the font file at `path`; `nil` if FreeType cannot read it.
    public init?(path: String, index: Int = 0) {
        var library: FT_Library?
        guard cft_ok(FT_Init_FreeType(&library)) != 0, let library else { return nil }
        var face: FT_Face?
        guard cft_ok(FT_New_Face(library, path, index, &face)) != 0, let face, face.pointee.units_per_EM > 0 else {
            FT_Done_FreeType(library)
            return nil
        }
        self.library = library
        self.face = face
        self.path = path
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        let upem = Double(face.pointee.units_per_EM)
        unitsPerEm = upem
        ascender = Double(face.pointee.ascender) / upem
        descender = -Double(face.pointee.descender) / upem
        lineHeight = Double(face.pointee.height) / upem
        (shaper, shapingBuffer) = Self.makeShaper(path: path, index: index, unitsPerEm: Int32(face.pointee.units_per_EM))
    }

    private static func makeShaper(path: String, index: Int, unitsPerEm: Int32) -> (OpaquePointer?, OpaquePointer?) {
        guard let blob = hb_blob_create_from_file(path) else { return (nil, nil) }
        defer { hb_blob_destroy(blob) }
        guard let hbFace = hb_face_create(blob, UInt32(clamping: index)) else { return (nil, nil) }
        defer { hb_face_destroy(hbFace) }
        guard hb_face_get_glyph_count(hbFace) > 0, let font = hb_font_create(hbFace) else { return (nil, nil) }
        hb_font_set_scale(font, unitsPerEm, unitsPerEm)
        guard let buffer = hb_buffer_create(), hb_buffer_allocation_successful(buffer) != 0 else {
            hb_font_destroy(font)
            return (nil, nil)
        }
        return (font, buffer)
    }

    deinit {
        hb_buffer_destroy(shapingBuffer)
        hb_font_destroy(shaper)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The glyph for `scalar` (0, the missing-glyph box, if the font has none).
    public func glyph(for scalar: Unicode.Scalar) -> UInt32 {
        lock.withLock { _ in glyphLocked(scalar.value) }
    }

    private func glyphLocked(_ code: UInt32) -> UInt32 {
        if let g = glyphIndices[code] { return g }
        let g = UInt32(FT_Get_Char_Index(face, FT_ULong(code)))
        glyphIndices[code] = g
        return g
    }

    /// The horizontal advance of `glyph` in em (FreeType's unscaled advance over units per em).
    public func advance(of glyph: UInt32) -> Double {
        lock.withLock { _ in advanceLocked(glyph) }
    }

    private func advanceLocked(_ glyph: UInt32) -> Double {
        if let a = advances[glyph] { return a }
        var a = 0.0
        if cft_ok(FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE))) != 0 {
            a = Double(face.pointee.glyph.pointee.advance.x) / unitsPerEm
        }
        advances[glyph] = a
        return a
    }

    /// The kerning between two glyphs, in em (negative pulls them together); 0 without a kern table.
    public func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        lock.withLock { _ in kerningLocked(left, right) }
    }

    private func kerningLocked(_ left: UInt32, _ right: UInt32) -> Double {
        let key = UInt64(left) << 32 | UInt64(right)
        if let k = kernings[key] { return k }
        var v = FT_Vector()
        var k = 0.0
        if cft_ok(FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v)) != 0 {
            k = Double(v.x) / unitsPerEm
        }
        kernings[key] = k
        return k
    }

    /// One glyph of a shaped run (``shape(_:into:)``), in em.
    struct ShapedGlyph {
        var glyph: UInt32
        /// The first character of the glyph's cluster (a ligature's first letter).
        var scalar: Unicode.Scalar
        /// The glyph's own advance: FreeType's unscaled advance, as ``advance(of:)``.
        var advance: Double
        /// What shaping adds to the previous glyph's advance before this glyph (kerning).
        var kern: Double
        /// The glyph's offset from its pen position (marks), y growing downward.
        var offset: Point
    }

    /// Shapes a run of text with HarfBuzz (ligatures, GPOS and `kern` kerning, marks), in one
    /// locked pass; characters map one to one with `kern`-table kerning if HarfBuzz cannot read
    /// the font.
    func shape(_ scalars: String.UnicodeScalarView, into body: (ShapedGlyph) -> Void) {
        lock.withLock { _ in
            guard let shaper, let buffer = shapingBuffer else {
                var previous: UInt32?
                for s in scalars {
                    let g = glyphLocked(s.value)
                    let kern = previous.map { kerningLocked($0, g) } ?? 0
                    body(ShapedGlyph(glyph: g, scalar: s, advance: advanceLocked(g), kern: kern, offset: .zero))
                    previous = g
                }
                return
            }
            shapingScalars.removeAll(keepingCapacity: true)
            for s in scalars { shapingScalars.append(s.value) }
            guard !shapingScalars.isEmpty else { return }
            hb_buffer_clear_contents(buffer)
            // One allocation for a long run, not HarfBuzz's growth steps.
            _ = hb_buffer_pre_allocate(buffer, UInt32(shapingScalars.count))
            shapingScalars.withUnsafeBufferPointer { hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count)) }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(shaper, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
            var previousAdjustment = 0.0
            for i in 0..<Int(count) {
                let g = infos[i].codepoint
                let advance = advanceLocked(g)
                let cluster = min(Int(infos[i].cluster), shapingScalars.count - 1)
                let p = positions[i]
                body(ShapedGlyph(glyph: g, scalar: Unicode.Scalar(shapingScalars[cluster]) ?? " ", advance: advance,
                                 kern: i > 0 ? previousAdjustment : 0,
                                 offset: Point(x: Double(p.x_offset) / unitsPerEm, y: -Double(p.y_offset) / unitsPerEm)))
                previousAdjustment = Double(p.x_advance) / unitsPerEm - advance
            }
        }
    }

    /// How many glyph images are cached at `size` (for tests).
    package func cachedImageCount(size: Double) -> Int {
        let size64 = Int32((size * 64).rounded())
        return lock.withLock { _ in images.keys.filter { $0.size64 == size64 }.count }
    }

    /// Empties the glyph image cache (for tests that measure what a first draw renders).
    package func removeCachedImages() {
        lock.withLock { _ in images.removeAll() }
    }

    /// The grayscale image of `glyph` at `size` pixels per em, shifted right by `phase` quarter
    /// pixels; cached.
    func image(of glyph: UInt32, size: Double, phase: Int) -> GlyphImage? {
        let size64 = Int((size * 64).rounded())
        guard size64 > 0, size64 < 64 * 4096 else { return nil }
        let key = GlyphImageKey(glyph: glyph, size64: Int32(size64), phase: Int8(phase))
        return lock.withLock { _ -> GlyphImage? in
            if let image = images[key] { return image }
            if currentSize != size64 {
                guard cft_ok(FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72)) != 0 else { return nil }
                currentSize = size64
            }
            guard cft_ok(FT_Load_Glyph(face, glyph, cft_load_flags_light())) != 0 else { return nil }
            let slot = face.pointee.glyph!
            guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
            if phase != 0 { FT_Outline_Translate(&slot.pointee.outline, FT_Pos(phase * 16), 0) }
            guard cft_ok(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)) != 0 else { return nil }
            let image = GlyphImage(slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
            if images.count >= Self.imageCacheLimit { images.removeAll(keepingCapacity: true) }
            images[key] = image
            return image
        }
    }

    /// The outline of `glyph` in em units, y growing downward, origin on the baseline; cached.
    public func outline(of glyph: UInt32) -> Path {
        lock.withLock { _ -> Path in
            if let path = outlines[glyph] { return path }
            var path = Path()
            if cft_ok(FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE))) != 0,
               face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
                path = OutlineDecomposer.path(of: &face.pointee.glyph.pointee.outline, scale: 1 / unitsPerEm)
            }
            outlines[glyph] = path
            return path
        }
    }
}

struct GlyphImageKey: Hashable {
    var glyph: UInt32
    var size64: Int32
    var phase: Int8
}

/// A glyph's 8-bit coverage as FreeType rendered it, placed relative to the pen position.
final class GlyphImage: @unchecked Sendable {
    // @unchecked: immutable after init.
    let width: Int
    let height: Int
    /// Columns from the pen position to the image's left edge.
    let left: Int
    /// Rows from the baseline up to the image's top edge.
    let top: Int
    let coverage: UnsafeMutablePointer<UInt8>

    init(_ bitmap: FT_Bitmap, left: Int, top: Int) {
        width = Int(bitmap.width)
        height = Int(bitmap.rows)
        self.left = left
        self.top = top
        coverage = .allocate(capacity: max(1, width * height))
        let pitch = Int(bitmap.pitch)
        for y in 0..<height {
            let src = bitmap.buffer! + y * pitch
            (coverage + y * width).update(from: src, count: width)
        }
    }

    deinit { coverage.deallocate() }
}

/// Turns a FreeType outline into a ``Path`` (FT_Outline_Decompose's callbacks).
enum OutlineDecomposer {
    private struct State {
        var path = Path()
        var scale: Double
        func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
            // FreeType's y grows upward; ours grows downward.
            Point(x: Double(v!.pointee.x) * scale, y: -Double(v!.pointee.y) * scale)
        }
    }

    static func path(of outline: inout FT_Outline, scale: Double) -> Path {
        var state = State(scale: scale)
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                let s = user!.assumingMemoryBound(to: State.self)
                if !s.pointee.path.isEmpty { s.pointee.path.closeSubpath() }
                s.pointee.path.move(to: s.pointee.point(to))
                return 0
            },
            line_to: { to, user in
                let s = user!.assumingMemoryBound(to: State.self)
                s.pointee.path.addLine(to: s.pointee.point(to))
                return 0
            },
            conic_to: { control, to, user in
                let s = user!.assumingMemoryBound(to: State.self)
                s.pointee.path.addQuadCurve(to: s.pointee.point(to), control: s.pointee.point(control))
                return 0
            },
            cubic_to: { c1, c2, to, user in
                let s = user!.assumingMemoryBound(to: State.self)
                s.pointee.path.addCurve(to: s.pointee.point(to), control1: s.pointee.point(c1), control2: s.pointee.point(c2))
                return 0
            },
            shift: 0, delta: 0)
        _ = withUnsafeMutablePointer(to: &state) { FT_Outline_Decompose(&outline, &funcs, $0) }
        if !state.path.isEmpty { state.path.closeSubpath() }
        return state.path
    }
}

// OffscreenPicture: a bitmap standing for a rectangle of device pixels, for groups, masks and shadows.

import Raster

/// Pixels of a device rectangle drawn apart from the frame: a group's picture, a mask's, the
/// pixels that cast a shadow.
///
/// The bitmap's pixel (0, 0) is the device pixel ``origin``, so a picture is only as large as
/// what it holds, not the frame. The renderer draws into it with its device transforms shifted
/// by the origin (``LayerRenderer/resetTransform(of:)``). The bitmap is reused for any rectangle
/// that fits in it, so a picture whose content grows and shrinks allocates only when it outgrows
/// the largest bitmap so far (or, for a picture kept between frames, when it has been four
/// times too large for ``shrinkDelay`` uses in a row).
@MainActor
final class OffscreenPicture {
    private(set) var bitmap: Bitmap
    private(set) var context: GraphicsContext
    /// The device pixel at the bitmap's pixel (0, 0).
    private(set) var origin = (x: 0, y: 0)
    /// How many times in a row a kept picture was redrawn at a quarter of its size or less.
    private var oversizedUses = 0
    /// A kept picture shrinks only after this many redraws in a row too large for what it holds
    /// (ten seconds of frames at 60 Hz): content that shrinks and grows again, as a looping
    /// animation's masks and groups do, keeps its bitmap instead of allocating it anew each
    /// time round. A picture redrawn no more (its content unchanged) keeps its bitmap, at most
    /// the frame's size, until it is redrawn.
    static let shrinkDelay = 600

    private init(bitmap: Bitmap) {
        self.bitmap = bitmap
        context = GraphicsContext(bitmap: bitmap)
    }

    /// `picture`, or a new one, able to hold `rect` (device pixels) with its origin at the
    /// rectangle's top-left; nil when `rect` is empty or too large for a bitmap. A new bitmap
    /// is at least `room` large: what the content needs whole, for content that slides in and
    /// out of the frame's edge (its part inside, `rect`, grows and shrinks as it moves). A
    /// scratch picture (`shrinks` false) keeps its largest bitmap. A picture outgrown in one
    /// side keeps the other side's size.
    static func reused(_ picture: OffscreenPicture?, for rect: IntRect, room: (width: Int, height: Int) = (0, 0),
                       shrinks: Bool) -> OffscreenPicture? {
        guard !rect.isEmpty, rect.width <= Bitmap.maximumSide, rect.height <= Bitmap.maximumSide else { return nil }
        let needed = (width: max(rect.width, room.width), height: max(rect.height, room.height))
        if let picture, picture.bitmap.width >= rect.width, picture.bitmap.height >= rect.height {
            let isOversized = shrinks && picture.bitmap.width * picture.bitmap.height > max(4 * needed.width * needed.height, 64 * 64)
            picture.oversizedUses = isOversized ? picture.oversizedUses + 1 : 0
            if picture.oversizedUses <= shrinkDelay {
                picture.origin = (rect.x, rect.y)
                return picture
            }
        }
        // Some room to grow, so a picture that widens a pixel a frame does not allocate every frame.
        var w = min(Bitmap.maximumSide, (needed.width + needed.width / 8 + 15) & ~15)
        var h = min(Bitmap.maximumSide, (needed.height + needed.height / 8 + 15) & ~15)
        if let picture, picture.oversizedUses <= shrinkDelay {
            // Outgrown in one side only, it keeps the other: content that turns from wide to
            // tall and back (a glyph's mask as it is drawn) would otherwise trade a wide bitmap
            // for a tall one and back every time round.
            w = max(w, picture.bitmap.width)
            h = max(h, picture.bitmap.height)
        }
        guard let bitmap = try? Bitmap(width: w, height: h) else { return nil }
        let made = OffscreenPicture(bitmap: bitmap)
        made.origin = (rect.x, rect.y)
        return made
    }

    /// `rect` (device pixels) in the bitmap's pixels.
    func local(_ rect: IntRect) -> IntRect {
        IntRect(x: rect.x - origin.x, y: rect.y - origin.y, width: rect.width, height: rect.height)
    }

    /// The device pixels the bitmap covers.
    var deviceBounds: IntRect {
        IntRect(x: origin.x, y: origin.y, width: bitmap.width, height: bitmap.height)
    }

    /// Clears `rect` (device pixels) to transparent.
    func clear(_ rect: IntRect) { bitmap.fill(local(rect), with: 0) }
}

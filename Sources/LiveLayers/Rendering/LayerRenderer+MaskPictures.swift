// LayerRenderer+MaskPictures: masks drawn into pixels, kept from frame to frame while unchanged.

import Raster

extension LayerRenderer {
    /// The device pixels a mask's picture holds: all its owner draws (its subtree, inside the
    /// frame), so that an inverted mask also covers what lies outside the mask layers.
    func maskPictureRect(owner: RenderRecord) -> IntRect {
        owner.contentRect.intersection(IntRect(x: 0, y: 0, width: targetSize.width, height: targetSize.height))
    }

    /// After the owner is prepared: the mask's picture stays up to date through this frame when
    /// nothing in the mask's subtree changed and the owner's extent is the same.
    func keepMaskPicture(of mask: RenderRecord, owner: RenderRecord) {
        if !mask.hasChanged, mask.maskPictureFrame == frameNumber - 1, maskPictureRect(owner: owner) == mask.maskPictureRect {
            mask.maskPictureFrame = frameNumber
        }
    }

    /// `mask`'s picture, in alpha as `mode` says, up to date with this frame. Like a group's
    /// picture it is redrawn only where this frame damaged it, and only when the mask changed.
    func updatedMaskPicture(of mask: Layer, owner: RenderRecord, mode: MaskMode) -> OffscreenPicture? {
        let record = mask.record(in: self)
        let rect = maskPictureRect(owner: owner)
        if record.maskPictureFrame == frameNumber, record.maskPictureMode == mode, rect == record.maskPictureRect,
           let picture = record.maskPicture {
            return picture
        }
        let isPartial = record.maskPictureFrame == frameNumber - 1 && rect == record.maskPictureRect
            && mode == record.maskPictureMode && record.maskPicture != nil
        guard let picture = OffscreenPicture.reused(record.maskPicture, for: rect, room: pictureRoom(for: owner.contentRect),
                                                    shrinks: true) else {
            record.maskPicture = nil
            return nil
        }
        record.maskPicture = picture
        // Past the rectangle the bitmap must hold no alpha: it is all read as the clip.
        if !isPartial { picture.bitmap.clear() }
        redraw(rect, partially: isPartial) { region in
            // A whole redraw's region is in the bitmap just cleared: clearing it again cost a
            // tenth of thorvg-coin's frame (its masks change every frame).
            renderMask(mask, mode: mode, into: picture, region: region, isClear: !isPartial)
        }
        record.maskPictureRect = rect
        record.maskPictureMode = mode
        record.maskPictureFrame = frameNumber
        return picture
    }

    private func renderMask(_ mask: Layer, mode: MaskMode, into picture: OffscreenPicture, region: IntRect, isClear: Bool) {
        if !isClear { picture.clear(region) }
        maskDepth += 1
        drawing(into: picture, region: region) {
            draw(mask, in: picture.context, damage: region, target: picture.bitmap)
        }
        maskDepth -= 1
        if mode != .alpha { Self.convertMask(picture.bitmap, in: picture.local(region), mode: mode) }
    }
}

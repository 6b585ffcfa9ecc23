// ServerImage: a frame buffer the server can copy to the window, with a Bitmap over its pixels.

internal import CX11
import Raster

/// A frame buffer whose memory is both a ``Bitmap`` (the renderer draws straight into it,
/// no copy) and an `XImage` the server copies from.
protocol ServerImage: AnyObject {
    /// The pixels, wrapping the image's memory.
    var bitmap: Bitmap { get }
    /// Copies `rect` of the image to the same place in `drawable`.
    /// - Returns: whether the server will send a completion event for this copy.
    func put(_ rect: IntRect, display: OpaquePointer, drawable: Drawable, gc: GC, notify: Bool) -> Bool
}

/// Checks that an image the server or Xlib laid out matches ``Bitmap``'s memory layout.
func checkLayout(of image: UnsafeMutablePointer<XImage>) -> X11Error? {
    let bpp = Int(image.pointee.bits_per_pixel), order = Int(image.pointee.byte_order)
    guard bpp == 32, order == Int(LSBFirst) else {
        return .unsupportedPixelFormat(bitsPerPixel: bpp, byteOrder: order)
    }
    return nil
}

// ClientImage: the XPutImage fallback; Xlib copies the pixels into the request stream.

internal import CX11
import Raster

/// An `XImage` in ordinary memory, sent with `XPutImage`: for remote displays and `--no-shm`.
///
/// `XPutImage` has copied the pixels into Xlib's buffer when it returns, so the buffer is free
/// again at once and no completion event is needed.
final class ClientImage: ServerImage {
    let bitmap: Bitmap
    private let image: UnsafeMutablePointer<XImage>

    init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int) throws(X11Error) {
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        memory.initialize(repeating: 0, count: width * height)
        let data = UnsafeMutableRawPointer(memory).assumingMemoryBound(to: CChar.self)
        guard let image = XCreateImage(display, visual, UInt32(depth), ZPixmap, 0, data,
                                       UInt32(width), UInt32(height), 32, Int32(width * 4)) else {
            memory.deallocate()
            throw .cannotCreateImage(width: width, height: height)
        }
        // Our pixels are little-endian whatever the server's order; Xlib converts if they differ.
        image.pointee.byte_order = LSBFirst
        _ = XInitImage(image)
        if let error = checkLayout(of: image) {
            image.pointee.data = nil
            _ = CX11_XDestroyImage(image)
            memory.deallocate()
            throw error
        }
        do {
            // The bitmap frees the pixels when it goes: a frame buffer kept after a resize stays valid.
            bitmap = try Bitmap(adopting: memory, width: width, height: height, stride: width,
                                deallocator: { $0.deallocate() })
        } catch {
            image.pointee.data = nil
            _ = CX11_XDestroyImage(image)
            memory.deallocate()
            throw .cannotCreateImage(width: width, height: height)
        }
        self.image = image
    }

    deinit {
        image.pointee.data = nil
        _ = CX11_XDestroyImage(image)
    }

    func put(_ rect: IntRect, display: OpaquePointer, drawable: Drawable, gc: GC, notify: Bool) -> Bool {
        XPutImage(display, drawable, gc, image, Int32(rect.x), Int32(rect.y), Int32(rect.x), Int32(rect.y),
                  UInt32(rect.width), UInt32(rect.height))
        return false
    }
}

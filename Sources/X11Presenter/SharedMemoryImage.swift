// SharedMemoryImage: an MIT-SHM XImage; the server reads the pixels straight from our memory.

internal import CX11
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// An `XImage` in a SysV shared-memory segment that the X server has attached.
///
/// The segment is private (mode 0600) and marked `IPC_RMID` right after this process has attached
/// it, before the server is asked to: Linux lets a process attach a segment marked for removal
/// while someone still has it attached, and frees it when the last detaches. So no segment
/// outlives the process, even after `kill -9`, even one killed while a busy server takes its time
/// to attach; only the two system calls between `shmget` and `IPC_RMID` are left.
final class SharedMemoryImage: ServerImage {
    let bitmap: Bitmap
    private let display: OpaquePointer
    private let watch: ConnectionWatch
    private let image: UnsafeMutablePointer<XImage>
    /// The segment, for making a shared pixmap of the same memory (`XShmCreatePixmap`).
    let info: UnsafeMutablePointer<XShmSegmentInfo>

    /// Why a shared-memory image could not be used; the caller falls back to `XPutImage`.
    enum Failure: Error {
        case unavailable(String)
        case layout(X11Error)
    }

    init(display: OpaquePointer, watch: ConnectionWatch, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int) throws(Failure) {
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, info, UInt32(width), UInt32(height)) else {
            info.deallocate()
            throw .unavailable("XShmCreateImage failed")
        }
        if let error = checkLayout(of: image) {
            _ = CX11_XDestroyImage(image)
            info.deallocate()
            throw .layout(error)
        }
        let bytes = Int(image.pointee.bytes_per_line) * height
        let id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard id >= 0 else {
            _ = CX11_XDestroyImage(image)
            info.deallocate()
            throw .unavailable("shmget of \(bytes) bytes failed (errno \(errno))")
        }
        let address = shmat(id, nil, 0)
        let attachError = errno
        // At once: not after the server's attach, a round trip that can take long.
        shmctl(id, IPC_RMID, nil)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            _ = CX11_XDestroyImage(image)
            info.deallocate()
            throw .unavailable("shmat failed (errno \(attachError))")
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr

        // A remote server may advertise MIT-SHM and still refuse the attach (BadAccess): trap it.
        let error = ErrorTrap.trapErrors(on: display) { _ = XShmAttach(display, info) }
        guard error == 0 else {
            image.pointee.data = nil
            _ = CX11_XDestroyImage(image)
            shmdt(address)
            info.deallocate()
            throw .unavailable("the X server refused to attach the shared memory (X error \(error); a remote display?)")
        }

        let stride = Int(image.pointee.bytes_per_line) / 4
        do {
            // The bitmap detaches our mapping when it goes, not this image: a frame buffer kept
            // after a resize stays valid, only no longer shown.
            bitmap = try Bitmap(adopting: address.assumingMemoryBound(to: UInt32.self), width: width, height: height,
                                stride: stride, deallocator: { shmdt($0) })
        } catch {
            XShmDetach(display, info)
            image.pointee.data = nil
            _ = CX11_XDestroyImage(image)
            shmdt(address)
            info.deallocate()
            throw .layout(.cannotCreateImage(width: width, height: height))
        }
        self.display = display
        self.watch = watch
        self.image = image
        self.info = info
    }

    /// Detaches the server (not on a lost connection: it has let go already); the bitmap
    /// detaches our side when it goes. The caller has made sure the server no longer reads the pixels.
    deinit {
        if !watch.isLost {
            XShmDetach(display, info)
            XSync(display, 0)
        }
        image.pointee.data = nil
        _ = CX11_XDestroyImage(image)
        info.deallocate()
    }

    func put(_ rect: IntRect, display: OpaquePointer, drawable: Drawable, gc: GC, notify: Bool) -> Bool {
        XShmPutImage(display, drawable, gc, image, Int32(rect.x), Int32(rect.y), Int32(rect.x), Int32(rect.y),
                     UInt32(rect.width), UInt32(rect.height), notify ? 1 : 0)
        return notify
    }
}

import Dispatch
import Testing
@_spi(Testing) import X11Presenter
import X11TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A segment is marked for removal (`IPC_RMID`) before the server is asked to attach it: a client
/// killed while it waits for the attach (a slow or busy server) leaves no segment behind. Another
/// client holds the server with a grab, so the attach waits for as long as the test looks.
extension X11WindowTests {
    @Test func aSegmentIsMarkedForRemovalBeforeTheServerAttachesIt() throws {
        let holder = try X11TestClient(displayName: server.display)
        // An odd size, so this test's segment is told from the windows' (77 × 53 × 4 bytes).
        let width = 77, height = 53, bytes = width * height * 4
        let display = server.display
        let opened = DispatchSemaphore(value: 0), held = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var attached = false
        DispatchQueue.global().async {
            attached = X11SharedMemoryProbe.attach(displayName: display, width: width, height: height) {
                opened.signal()
                held.wait()
            }
            done.signal()
        }
        #expect(opened.wait(timeout: .now() + 30) == .success, "the probe could not connect")
        holder.grabServer()
        held.signal()
        // The probe now makes its segment and waits in the attach until the grab ends. A hang
        // guard, not a timing: before the fix the segment stayed unmarked for the whole grab.
        var segment: SharedMemorySegment?
        for _ in 0..<300 {
            segment = SharedMemorySegment.all().first { $0.creator == getpid() && $0.size == bytes }
            if segment?.isMarkedForRemoval == true { break }
            usleep(100_000)
        }
        let seen = segment
        holder.ungrabServer()
        #expect(done.wait(timeout: .now() + 30) == .success, "the attach never finished")
        #expect(attached)
        let found = try #require(seen, "no \(bytes)-byte segment of this process appeared")
        #expect(found.isMarkedForRemoval, "segment \(found.id) was not marked for removal while the server had not attached it")
        #expect(found.attachments == 1, "only this process had it attached: \(found.attachments)")
        // Freed with the probe's image: nothing of it is left.
        #expect(!SharedMemorySegment.all().contains { $0.id == found.id })
    }
}

/// A line of `/proc/sysvipc/shm`.
struct SharedMemorySegment {
    var id: Int
    var mode: Int
    var size: Int
    var creator: Int32
    var attachments: Int

    /// `SHM_DEST`: destroyed when the last process detaches.
    var isMarkedForRemoval: Bool { mode & 0o1000 != 0 }

    /// The system's segments now (the file read to its end: `/proc` files report size 0).
    static func all() -> [SharedMemorySegment] {
        let fd = open("/proc/sysvipc/shm", O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { break }
            data += chunk.prefix(n)
        }
        // key shmid perms size cpid lpid nattch ...
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 7, let id = Int(f[1]), let mode = Int(f[2], radix: 8), let size = Int(f[3]),
                  let creator = Int32(f[4]), let attachments = Int(f[6]) else { return nil }
            return SharedMemorySegment(id: id, mode: mode, size: size, creator: creator, attachments: attachments)
        }
    }
}

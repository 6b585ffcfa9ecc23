// BandWorker: a second thread, started once, that draws one band of a frame while the caller
// draws the other.

#if canImport(Glibc)
import Glibc
#endif

/// A persistent worker thread for fork-join work of one frame: ``run(_:alongside:)`` hands the
/// worker one closure, runs another on the calling thread, and returns when both are done.
///
/// Nothing is allocated per call and no thread is created per frame: the thread is made once
/// and sleeps on a condition variable between frames. The pointers to the mutex and condition
/// are this type's own, allocated once and never handed out.
final class BandWorker: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// For ``serialized(_:)``.
    private let exclusion = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var thread = pthread_t()
    /// The worker's job while one is posted; guarded by `mutex`.
    private var job: (() -> Void)?
    private var isDone = true
    private var isStopping = false

    /// Starts the thread, or returns nil when it cannot be started.
    init?() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        pthread_mutex_init(exclusion, nil)
        // Created into a local: passing the stored property inout would make every read of it
        // (`isCurrent`, asked for each layer drawn) a dynamic exclusivity check.
        var created = pthread_t()
        let started = pthread_create(&created, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<BandWorker>.fromOpaque(argument).takeRetainedValue().serve()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
        if started != 0 {
            // The thread never took its reference.
            Unmanaged.passUnretained(self).release()
            return nil
        }
        thread = created
        pthread_detach(thread)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        pthread_mutex_destroy(exclusion)
        condition.deallocate()
        mutex.deallocate()
        exclusion.deallocate()
    }

    /// Asks the thread to end once it is idle; it drops its reference to the worker as it goes.
    func stop() {
        pthread_mutex_lock(mutex)
        isStopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Whether the calling thread is this worker's thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Runs `theirs` on the worker thread and `mine` on the calling thread, and returns when both
    /// have returned. The caller waits for the worker, so `theirs` may use whatever the caller
    /// could, as long as the two closures touch disjoint mutable state. `theirs` is kept by the
    /// worker while it runs: pass one made once (a closure made per call would allocate).
    func run(_ mine: () -> Void, alongside theirs: @escaping () -> Void) {
        pthread_mutex_lock(mutex)
        job = theirs
        isDone = false
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)

        mine()

        pthread_mutex_lock(mutex)
        while !isDone { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` while holding a lock that the two sides of ``run(_:alongside:)`` share.
    func serialized(_ body: () -> Void) {
        pthread_mutex_lock(exclusion)
        body()
        pthread_mutex_unlock(exclusion)
    }

    /// The thread's loop: wait for a job, run it, say it is done. The job is released before
    /// the caller hears it is done.
    private func serve() {
        pthread_mutex_lock(mutex)
        while true {
            while job == nil, !isStopping { pthread_cond_wait(condition, mutex) }
            if isStopping { break }
            if let work = job {
                job = nil
                pthread_mutex_unlock(mutex)
                work()
                pthread_mutex_lock(mutex)
            }
            isDone = true
            pthread_cond_broadcast(condition)
        }
        pthread_mutex_unlock(mutex)
    }
}

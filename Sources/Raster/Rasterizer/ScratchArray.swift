// ScratchArray: a growable buffer the renderer reuses frame after frame without allocating.

/// A manually managed array of plain values, owned by one renderer object and reused.
///
/// Unlike `Array` it never copies on write, never checks uniqueness, and `removeAll()` keeps the
/// memory, so the hot path allocates only when a buffer must grow past its largest size so far.
/// Indexing is unchecked in release builds (asserted in debug); callers keep indices in range.
final class ScratchArray<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { assert(i >= 0 && i < capacity); return base[i] }
        set { assert(i >= 0 && i < capacity); base[i] = newValue }
    }

    @inline(__always)
    func append(_ e: Element) {
        if count == capacity { grow(to: capacity * 2, keeping: count) }
        base[count] = e
        // Below the capacity, which is an allocation's count: no overflow check.
        count &+= 1
    }

    /// Appends `n` elements copied from `source`.
    @inline(__always)
    func append(from source: UnsafePointer<Element>, count n: Int) {
        if count + n > capacity { grow(to: max(count + n, capacity * 2), keeping: count) }
        (base + count).update(from: source, count: n)
        count += n
    }

    @inline(__always)
    func removeAll() { count = 0 }

    /// Drops the elements from index `n` on (`n` at most `count`).
    @inline(__always)
    func removeLast(downTo n: Int) {
        assert(n >= 0 && n <= count)
        count = n
    }

    /// Takes back the elements up to index `n` (at most the capacity) as they were left by
    /// ``removeAll()`` or ``removeLast(downTo:)``: for a caller that knows they still hold what it wants.
    @inline(__always)
    func reclaim(upTo n: Int) {
        assert(n >= 0 && n <= capacity)
        count = n
    }

    /// Makes room for `n` elements; the contents are kept up to `count`.
    func reserve(_ n: Int) {
        if n > capacity { grow(to: max(n, capacity * 2), keeping: count) }
    }

    /// Makes room for `n` elements and sets the first `n` to `value` (count becomes `n`).
    func reset(count n: Int, to value: Element) {
        if n > capacity { grow(to: max(n, capacity * 2), keeping: 0) }
        base.update(repeating: value, count: n)
        count = n
    }

    /// Makes at least `n` elements available, all set to `value`, when fewer are (count becomes
    /// the capacity); otherwise leaves the contents alone. For buffers kept at `value` between uses.
    func ensureFilled(_ n: Int, with value: Element) {
        guard count < n else { return }
        if n > capacity { grow(to: max(n, capacity * 2), keeping: 0) }
        base.update(repeating: value, count: capacity)
        count = capacity
    }

    private func grow(to newCapacity: Int, keeping kept: Int) {
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        fresh.moveInitialize(from: base, count: kept)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }
}

// SampleRing: the last N values of a measurement, in storage allocated once.

/// A fixed-capacity ring of the most recent values. Appending overwrites the oldest value once
/// full and never allocates; storage is allocated once, at creation.
struct SampleRing<Element> {
    private var storage: [Element]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int, filler: Element) {
        storage = Array(repeating: filler, count: max(1, capacity))
    }

    var capacity: Int { storage.count }

    mutating func append(_ value: Element) {
        storage[head] = value
        head = head + 1 == storage.count ? 0 : head + 1
        count = min(count + 1, storage.count)
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The value `age` appends ago (0: the newest). Requires `age < count`.
    subscript(newestMinus age: Int) -> Element {
        var index = head - 1 - age
        if index < 0 { index += storage.count }
        return storage[index]
    }

    /// Changes the newest value in place. Requires `count > 0`.
    mutating func updateNewest(_ body: (inout Element) -> Void) {
        let index = head == 0 ? storage.count - 1 : head - 1
        body(&storage[index])
    }

    /// Visits the values from oldest to newest.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for age in stride(from: count - 1, through: 0, by: -1) {
            try body(self[newestMinus: age])
        }
    }
}

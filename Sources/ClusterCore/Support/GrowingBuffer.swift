/// A growable buffer for the hot loops of the index build (sweeps append millions of pairs):
/// unlike an `Array`'s append, an append checks nothing but the capacity. Owned by one loop,
/// freed with `deallocate`; for trivial element types.
struct GrowingBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always) mutating func append(_ v: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: v)
        count += 1
    }

    /// Lets a kernel write past `count` (up to `capacity`) and then records how many are valid:
    /// `body(base, capacity, count)` returns the new count; trivial element types only.
    mutating func fill(_ body: (UnsafeMutablePointer<Element>, Int, Int) -> Int) {
        let newCount = body(base, capacity, count)
        precondition(newCount >= count && newCount <= capacity, "a kernel wrote past the buffer")
        count = newCount
    }

    /// Doubles the capacity, keeping the elements.
    mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// The elements as an array (a copy).
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func deallocate() { base.deallocate() }
}

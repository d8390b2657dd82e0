import CIndexSweep

/// A growable buffer for the hot loops of the index build (sweeps append millions of pairs):
/// unlike an `Array`'s append, an append checks nothing but the capacity. Owned by one loop,
/// freed with `deallocate`; for trivial element types.
///
/// Big buffers (from `mappedBytes` on) are pages of their own that grow in place or are moved
/// by the kernel (`cis_remap`), not copied: a doubling then never holds the old and the new
/// buffer at once (at 10M points, two sweep parts doubling together added ~50 MB to the
/// build's peak), and costs no copy.
struct GrowingBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int
    /// Whether `base` is mapped pages (`cis_map`) rather than an allocation.
    private(set) var mapped = false

    /// Buffers of at least this many bytes are mapped pages (where the kernel is on Linux).
    static var mappedBytes: Int { 4 << 20 }

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        (base, mapped) = Self.allocate(self.capacity)
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
        let stride = MemoryLayout<Element>.stride
        let oldBytes = Self.pageRounded(capacity * stride), newBytes = Self.pageRounded(2 * capacity * stride)
        if mapped, let pages = cis_remap(base, oldBytes, newBytes) {
            base = pages.bindMemory(to: Element.self, capacity: 2 * capacity)
            capacity *= 2
            return
        }
        let (bigger, biggerMapped) = Self.allocate(2 * capacity)
        bigger.moveInitialize(from: base, count: count)
        deallocate()
        base = bigger
        mapped = biggerMapped
        capacity *= 2
    }

    /// The elements as an array (a copy).
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func deallocate() {
        if mapped {
            cis_unmap(base, Self.pageRounded(capacity * MemoryLayout<Element>.stride))
        } else {
            base.deallocate()
        }
    }

    /// Room for `capacity` elements: mapped pages when big (and the kernel gives them), else an allocation.
    private static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<Element>, mapped: Bool) {
        let bytes = capacity * MemoryLayout<Element>.stride
        if bytes >= mappedBytes, let pages = cis_map(pageRounded(bytes)) {
            return (pages.bindMemory(to: Element.self, capacity: capacity), true)
        }
        return (.allocate(capacity: capacity), false)
    }

    private static func pageRounded(_ bytes: Int) -> Int { (bytes + 4095) / 4096 * 4096 }
}

/// A set of node references (or cluster numbers) for one repair of a `LiveClusterIndex`:
/// members in insertion order, found through an open-addressing table with a multiplicative
/// hash.
///
/// A repair keeps a dozen such sets of a few thousand members and tests them for every
/// neighbour it meets; with Swift's `Set` (seeded SipHash per look-up) the bookkeeping cost more
/// than the geometry. Iterating in insertion order also makes a repair independent of hash
/// seeds. `removeAll()` costs the member count, not the table size, so a set can be reused.
struct RefSet: Sendable {
    /// Members in the order they were first inserted.
    private(set) var members: [UInt32] = []
    /// Open-addressing table of members (`empty` marks a free slot); the count is a power of two.
    private var slots: [UInt32] = []
    /// Per slot, the position of its member in `members`.
    private var position: [Int32] = []
    /// Per member, its slot (so clearing touches only those).
    private var slotOf: [Int32] = []
    /// `64 - log2(slots.count)`: the hash keeps the product's top bits.
    private var shift: UInt64 = 64

    /// Never a member: a cluster reference needs 2^31 − 1 clusters to reach it.
    private static let empty = UInt32.max

    init() {}

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    @inline(__always) private func home(_ r: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(r) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding r, or the free slot where it would go.
    @inline(__always) private func slot(_ r: UInt32) -> Int {
        let mask = slots.count - 1
        return slots.withUnsafeBufferPointer { s in
            var i = home(r)
            while s[i] != r && s[i] != Self.empty { i = (i + 1) & mask }
            return i
        }
    }

    /// Whether r is a member.
    @inline(__always) func contains(_ r: UInt32) -> Bool {
        !slots.isEmpty && slots[slot(r)] == r
    }

    /// The position of r in `members`, or nil.
    func index(of r: UInt32) -> Int? {
        guard !slots.isEmpty else { return nil }
        let s = slot(r)
        return slots[s] == r ? Int(position[s]) : nil
    }

    /// Adds r; returns whether it was new.
    @discardableResult
    mutating func insert(_ r: UInt32) -> Bool {
        if (members.count + 1) * 2 > slots.count { grow() }
        let s = slot(r)
        guard slots[s] != r else { return false }
        slots[s] = r
        position[s] = Int32(members.count)
        members.append(r)
        slotOf.append(Int32(s))
        return true
    }

    /// Empties the set, keeping its storage.
    mutating func removeAll() {
        for s in slotOf { slots[Int(s)] = Self.empty }
        members.removeAll(keepingCapacity: true)
        slotOf.removeAll(keepingCapacity: true)
    }

    /// Doubles the table and puts the members back.
    private mutating func grow() {
        let capacity = max(64, slots.count * 2)
        slots = [UInt32](repeating: Self.empty, count: capacity)
        position = [Int32](repeating: 0, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        slotOf.removeAll(keepingCapacity: true)
        for (k, r) in members.enumerated() {
            let s = slot(r)
            slots[s] = r
            position[s] = Int32(k)
            slotOf.append(Int32(s))
        }
    }
}

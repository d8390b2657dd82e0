/// A set of node references (or cluster numbers) for one repair of a `LiveClusterIndex`:
/// members in insertion order, found through an open-addressing table with a multiplicative
/// hash.
///
/// A repair keeps a dozen such sets of a few thousand members and tests them for every
/// neighbour it meets; with Swift's `Set` (seeded SipHash per look-up) the bookkeeping cost more
/// than the geometry. Iterating in insertion order also makes a repair independent of hash
/// seeds. `removeAll()` costs the member count, not the table size, so a set can be reused.
///
/// The table is one array (member and its position in one word) reached through a buffer
/// pointer: a repair makes ~100,000 insertions per 1,000 changes, and with four arrays each
/// paid four uniqueness and bounds checks, more than the hashing.
struct RefSet: Sendable {
    /// Members in the order they were first inserted.
    private(set) var members: [UInt32] = []
    /// Open-addressing table with linear probing: per slot `position << 32 | member`, or
    /// `empty`; the count is a power of two.
    private var table: [UInt64] = []
    /// `64 - log2(table.count)`: the hash keeps the product's top bits.
    private var shift: UInt64 = 64

    /// Never a slot's value: a member would be 2^32 − 1 at position 2^32 − 1.
    private static let empty = UInt64.max

    init() {}

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    /// The slot holding r, or the free slot where it would go (the table is never full).
    @inline(__always) private static func slot(_ r: UInt32, in t: UnsafeBufferPointer<UInt64>, shift: UInt64) -> Int {
        let mask = t.count - 1
        var i = Int(truncatingIfNeeded: (UInt64(r) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while t[i] != Self.empty && UInt32(truncatingIfNeeded: t[i]) != r { i = (i + 1) & mask }
        return i
    }

    /// Whether r is a member.
    @inline(__always) func contains(_ r: UInt32) -> Bool {
        table.withUnsafeBufferPointer { t in !t.isEmpty && t[Self.slot(r, in: t, shift: shift)] != Self.empty }
    }

    /// The position of r in `members`, or nil.
    func index(of r: UInt32) -> Int? {
        table.withUnsafeBufferPointer { t in
            guard !t.isEmpty else { return nil }
            let v = t[Self.slot(r, in: t, shift: shift)]
            return v == Self.empty ? nil : Int(v >> 32)
        }
    }

    /// Adds r; returns whether it was new.
    @inline(__always) @discardableResult
    mutating func insert(_ r: UInt32) -> Bool {
        if (members.count + 1) * 2 > table.count { grow() }
        let entry = UInt64(members.count) << 32 | UInt64(r), shift = shift
        let new = table.withUnsafeMutableBufferPointer { t in
            let s = Self.slot(r, in: UnsafeBufferPointer(t), shift: shift)
            guard t[s] == Self.empty else { return false }
            t[s] = entry
            return true
        }
        if new { members.append(r) }
        return new
    }

    /// Empties the set, keeping its storage.
    mutating func removeAll() {
        guard !members.isEmpty else { return }
        // Latest first: each member's probe path then still holds the earlier members that
        // pushed it along, so the probe finds it.
        let shift = shift
        table.withUnsafeMutableBufferPointer { t in
            for r in members.reversed() { t[Self.slot(r, in: UnsafeBufferPointer(t), shift: shift)] = Self.empty }
        }
        members.removeAll(keepingCapacity: true)
    }

    /// Doubles the table and puts the members back (in order, as `removeAll` needs).
    @inline(never) private mutating func grow() {
        let capacity = max(64, table.count * 2)
        let shift = UInt64(64 - capacity.trailingZeroBitCount)
        var grown = [UInt64](repeating: Self.empty, count: capacity)
        grown.withUnsafeMutableBufferPointer { t in
            for (k, r) in members.enumerated() { t[Self.slot(r, in: UnsafeBufferPointer(t), shift: shift)] = UInt64(k) << 32 | UInt64(r) }
        }
        self.shift = shift
        table = grown
    }
}

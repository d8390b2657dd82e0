/// A column of one `Int32` per point that costs no memory in the common cases: while every value
/// equals its index (feature and row numbers of a file without skips) or every value is the same
/// (no point has a category), nothing is stored; the first value that breaks the pattern
/// materialises the array.
public struct Int32Column: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral, Sendable {
    enum Storage: Sendable {
        /// Value `i` at index `i`.
        case identity
        /// The same value everywhere.
        case constant(Int32)
        case stored([Int32])
    }

    private(set) var storage: Storage
    public private(set) var count: Int

    /// An empty column whose values start as their indices.
    static var identity: Int32Column { Int32Column(storage: .identity, count: 0) }
    /// An empty column whose values start as `value`.
    static func constant(_ value: Int32) -> Int32Column { Int32Column(storage: .constant(value), count: 0) }

    init(storage: Storage, count: Int) {
        self.storage = storage
        self.count = count
    }

    public init(arrayLiteral elements: Int32...) { self.init(elements) }

    /// A column holding `values`.
    public init(_ values: [Int32]) { self.init(storage: .stored(values), count: values.count) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inline(__always)
    public subscript(i: Int) -> Int32 {
        switch storage {
        case .identity: return Int32(truncatingIfNeeded: i)
        case .constant(let v): return v
        case .stored(let a): return a[i]
        }
    }

    /// Whether every value is `value` (true for an empty column), without looking at each when
    /// nothing is stored.
    public func allEqual(_ value: Int32) -> Bool {
        switch storage {
        case .identity: return count == 0 || (count == 1 && value == 0)
        case .constant(let v): return count == 0 || v == value
        case .stored(let a): return a.allSatisfy { $0 == value }
        }
    }

    /// The values as an array (allocates when nothing is stored).
    public var array: [Int32] {
        if case .stored(let a) = storage { return a }
        return map { $0 }
    }

    @inline(__always)
    mutating func append(_ v: Int32) {
        switch storage {
        case .identity where v == Int32(truncatingIfNeeded: count): count += 1; return
        case .constant(let c) where v == c: count += 1; return
        default: break
        }
        appendStored(v)
    }

    /// Appends `values`; while they continue the indices, nothing is stored.
    mutating func append(contentsOf values: UnsafeBufferPointer<Int32>) {
        if case .identity = storage {
            let base = Int32(truncatingIfNeeded: count)
            var continues = true
            for k in values.indices where values[k] != base &+ Int32(truncatingIfNeeded: k) { continues = false }
            if continues {
                count += values.count
                return
            }
        }
        for v in values { append(v) }
    }

    /// Appends `value` `n` times; nothing is stored while every value is `value`.
    mutating func append(repeating value: Int32, count n: Int) {
        if case .constant(let c) = storage, c == value {
            count += n
            return
        }
        for _ in 0..<n { append(value) }
    }

    private mutating func appendStored(_ v: Int32) {
        var a: [Int32]
        if case .stored(let existing) = storage {
            a = existing
            storage = .identity   // drop the reference so the append below does not copy
        } else {
            a = Array(self)
        }
        a.append(v)
        storage = .stored(a)
        count += 1
    }

    /// Appends `other`'s values, each plus `offset`.
    mutating func append(_ other: Int32Column, adding offset: Int32) {
        guard other.count > 0 else { return }
        switch (storage, other.storage) {
        case (.identity, .identity) where offset == Int32(truncatingIfNeeded: count):
            count += other.count
            return
        case (.constant(let a), .constant(let b)) where a == b &+ offset:
            count += other.count
            return
        case (_, _) where count == 0:
            if offset == 0 { self = other; return }
        default: break
        }
        var a = array
        storage = .identity
        a.reserveCapacity(count + other.count)
        for v in other { a.append(v &+ offset) }
        count = a.count
        storage = .stored(a)
    }

    public static func == (a: Int32Column, b: Int32Column) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }
}

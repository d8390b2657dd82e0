/// Which of an index's input points are chosen (a filter's result): one bit per point, packed
/// 64 to a word, so that combining conditions and counting touch n/64 words.
public struct PointSelection: Equatable, Sendable {
    /// Bits, point `i` at bit `i % 64` of word `i / 64`; bits past `count` are always 0.
    public private(set) var words: [UInt64]
    /// The number of points (chosen or not).
    public let count: Int

    /// Every point chosen (`all`) or none.
    public init(count: Int, all: Bool) {
        self.count = max(0, count)
        words = [UInt64](repeating: all ? ~0 : 0, count: (self.count + 63) >> 6)
        clearTail()
    }

    /// Builds from the words (extra bits past `count` are cleared).
    public init(count: Int, words: [UInt64]) {
        precondition(words.count == (count + 63) >> 6, "one word per 64 points")
        self.count = count
        self.words = words
        clearTail()
    }

    /// Chooses the points for which `isChosen` is true.
    public init(count: Int, _ isChosen: (Int) -> Bool) {
        self.init(count: count, all: false)
        words.withUnsafeMutableBufferPointer { w in
            for k in 0..<w.count {
                var bits: UInt64 = 0
                let base = k << 6
                for b in 0..<min(64, count - base) where isChosen(base + b) { bits |= 1 << UInt64(b) }
                w[k] = bits
            }
        }
    }

    /// Chooses the given point indices (out-of-range ones are ignored).
    public init(count: Int, indices: some Sequence<Int>) {
        self.init(count: count, all: false)
        for i in indices where i >= 0 && i < count { words[i >> 6] |= 1 << UInt64(i & 63) }
    }

    private mutating func clearTail() {
        let rest = count & 63
        if rest != 0 { words[words.count - 1] &= (1 << UInt64(rest)) - 1 }
    }

    /// Whether point `i` is chosen.
    @inline(__always) public subscript(i: Int) -> Bool {
        get { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
        set {
            if newValue { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
        }
    }

    /// How many points are chosen.
    /// - Complexity: O(*n*/64).
    public var chosenCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether every point is chosen.
    public var isAll: Bool { chosenCount == count }

    /// Keeps only points chosen in both.
    public mutating func formIntersection(_ other: PointSelection) {
        precondition(other.count == count, "selections of different point sets")
        for k in words.indices { words[k] &= other.words[k] }
    }

    /// Chooses points chosen in either.
    public mutating func formUnion(_ other: PointSelection) {
        precondition(other.count == count, "selections of different point sets")
        for k in words.indices { words[k] |= other.words[k] }
    }

    /// Chooses exactly the points that were not chosen.
    public mutating func invert() {
        for k in words.indices { words[k] = ~words[k] }
        clearTail()
    }

    /// The points chosen in one selection and not the other (what changes between two filters).
    public func difference(_ other: PointSelection) -> (added: [Int], removed: [Int]) {
        precondition(other.count == count, "selections of different point sets")
        var added: [Int] = [], removed: [Int] = []
        for k in words.indices where words[k] != other.words[k] {
            var plus = words[k] & ~other.words[k], minus = other.words[k] & ~words[k]
            while plus != 0 { added.append(k << 6 | plus.trailingZeroBitCount); plus &= plus - 1 }
            while minus != 0 { removed.append(k << 6 | minus.trailingZeroBitCount); minus &= minus - 1 }
        }
        return (added, removed)
    }

    /// Calls `body` with each chosen index, ascending.
    @inline(__always) public func forEachChosen(_ body: (Int) -> Void) {
        for k in words.indices {
            var w = words[k]
            while w != 0 {
                body(k << 6 | w.trailingZeroBitCount)
                w &= w - 1
            }
        }
    }

    /// The chosen indices, ascending.
    public var chosenIndices: [Int] {
        var out: [Int] = []
        out.reserveCapacity(chosenCount)
        forEachChosen { out.append($0) }
        return out
    }
}

import Dispatch

/// A stored level's key directory: where each block of keys starts, so that a box query finds a
/// grid row's first cell with one lookup and a search over a few neighbouring entries instead of
/// galloping or bisecting the whole index (a dozen cache-missing probes per row: the cost of a
/// screen's query on a dense level, worse at 10M points where the columns leave the cache).
extension CellIndex {
    /// The fewest entries for which a directory pays (smaller levels stay in cache anyway).
    static let directoryMinimumCount = 1024

    /// Builds a directory from the keys of positions 0, 1, 2, … in turn: blocks of
    /// 2^`shift` keys, as few as keep it at most a quarter as long as the index (≤ 1 byte per
    /// entry), so that a block holds a few entries on average.
    struct DirectoryBuilder {
        let shift: UInt64
        private let blocks: Int
        private let starts: UnsafeMutablePointer<UInt32>
        /// Positions added so far.
        private(set) var count = 0
        /// The first block whose start is not known yet.
        private var next = 0

        /// For up to `capacity` positions; nil when too few to need a directory. Call
        /// `finished()` once to get the directory (it frees the builder's buffer).
        init?(capacity: Int, width: UInt64) {
            guard capacity >= CellIndex.directoryMinimumCount, capacity < Int(UInt32.max) else { return nil }
            let maxKey = width * width
            var shift: UInt64 = 0
            while (maxKey >> shift) + 2 > UInt64(capacity / 4) { shift += 1 }
            self.shift = shift
            blocks = Int(maxKey >> shift) + 2
            starts = .allocate(capacity: blocks)
        }

        /// The key of the next position (keys non-decreasing).
        @inline(__always) mutating func add(_ key: UInt64) {
            let b = Int(key >> shift)
            while next <= b {
                starts[next] = UInt32(truncatingIfNeeded: count)
                next += 1
            }
            count += 1
        }

        /// Adds positions 0..<n with the given keys (non-decreasing) to an empty builder, in `parts`
        /// parts on as many threads: the same directory as adding them in turn. A part's first
        /// block is the one after the previous part's last key's, so every block is set by one part.
        /// With `order`, position p's key is `keys[order[p]]` (a band's entries in stored order:
        /// no copy of the keys in that order is needed).
        mutating func addAll(_ keys: UnsafePointer<UInt64>, through order: UnsafePointer<UInt32>? = nil, count n: Int,
                             parts: Int) {
            precondition(count == 0 && next == 0, "addAll needs an empty builder")
            guard n > 0 else { return }
            let parts = max(1, min(parts, n))
            let shift = self.shift
            let out = SendablePointer(starts), k = SendableConstPointer(keys), o = SendableConstPointer(order)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                guard let starts = out.pointer, let keys = k.pointer else { return }
                // Two copies of the loop: keys in place, or read through the order.
                if let order = o.pointer {
                    Self.fill(starts, from: n * h / parts, to: n * (h + 1) / parts, shift: shift) { keys[Int(order[$0])] }
                } else {
                    Self.fill(starts, from: n * h / parts, to: n * (h + 1) / parts, shift: shift) { keys[$0] }
                }
            }
            count = n
            next = Int((order.map { keys[Int($0[n - 1])] } ?? keys[n - 1]) >> shift) + 1
        }

        /// Sets the starts of the blocks from the one after position `from − 1`'s key's through
        /// position `to − 1`'s key's (keys non-decreasing).
        @inline(__always)
        private static func fill(_ starts: UnsafeMutablePointer<UInt32>, from: Int, to: Int, shift: UInt64,
                                 key: (Int) -> UInt64) {
            guard from < to else { return }
            var next = from == 0 ? 0 : Int(key(from - 1) >> shift) + 1
            for p in from..<to {
                let b = Int(key(p) >> shift)
                while next <= b {
                    starts[next] = UInt32(truncatingIfNeeded: p)
                    next += 1
                }
            }
        }

        /// The directory (blocks past the last key start at the end); frees the buffer.
        func finished() -> [UInt32] {
            for b in next..<blocks { starts[b] = UInt32(count) }
            defer { starts.deallocate() }
            return Array(UnsafeBufferPointer(start: starts, count: blocks))
        }
    }

    /// Gives the index the directory `builder` made from all its positions' keys (finishing it).
    mutating func setDirectory(_ builder: DirectoryBuilder) {
        precondition(builder.count == count, "a directory for another index")
        directory = builder.finished()
        directoryShift = builder.shift
    }

    /// Builds the directory from the stored coordinates (unless it has one). Query results are
    /// unchanged; only how a row's first position is found.
    /// - Complexity: O(*n*).
    mutating func buildDirectory() {
        guard directory.isEmpty, var builder = DirectoryBuilder(capacity: count, width: width) else { return }
        for p in 0..<count { builder.add(key(at: p)) }
        setDirectory(builder)
    }

    /// Builds the directory from the positions' keys, already known (a band's), on two threads
    /// for big indexes (a dense level's directory was a serial step of the build); `parts` for tests.
    mutating func buildDirectory(keys: UnsafeBufferPointer<UInt64>, parts: Int? = nil) {
        guard var builder = DirectoryBuilder(capacity: count, width: width) else { return }
        precondition(keys.count >= count, "a key per position")
        builder.addAll(keys.baseAddress!, count: count, parts: parts ?? (count >= 131_072 ? 2 : 1))
        setDirectory(builder)
    }

    /// The first position whose key is at least `k` (keys from `key`), found in k's block.
    @inline(__always)
    static func directoryLowerBound(_ k: UInt64, _ dir: UnsafeBufferPointer<UInt32>, shift: UInt64,
                                    _ key: (Int) -> UInt64) -> Int {
        let b = Int(k >> shift)
        var lo = Int(dir[b]), hi = Int(dir[b + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            if key(mid) < k { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

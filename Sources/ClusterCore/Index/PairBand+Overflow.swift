import Dispatch

/// A band's new clusters (overflow entries) and the stored levels.
///
/// A level's new clusters are appended together: sorted by cell key, their candidate pairs are
/// found by walking the sorted entries, the earlier overflow entries and each other row by row
/// with forward-only pointers (the lower bound of a row moves forward as the keys grow), and
/// they are merged into the overflow entries, which stay in cell order for `finish`.
extension PairBand {
    /// Appends the new clusters of the band's lowest level (entries in the given order: slot
    /// `origins[k]`, reference `firstRef + k`, centre `centres[k]`, a cluster table row) and, while the band
    /// still serves a lower zoom, lists their candidate pairs with every entry on that level;
    /// returns the first new entry.
    mutating func appendClusters(origins: [UInt32], firstRef: UInt32,
                                 centres: ArraySlice<HierarchicalClusterer.ClusterTable.Row>) -> Int {
        let k = origins.count, e0 = keys.count
        guard k > 0 else { return e0 }
        var batch = [CellIndex.Entry]()
        batch.reserveCapacity(k)
        let level = UInt8(bottomLevel)
        for i in 0..<k {
            let centre = centres[centres.startIndex + i]
            let fx = Float(centre.x), fy = Float(centre.y)
            let key = CellIndex.key(fx, fy, cell: cell, width: width)
            keys.append(key)
            x.append(fx)
            y.append(fy)
            slots.append(origins[i])
            refs.append(firstRef + UInt32(i))
            highest.append(level)
            lowest.append(Self.onBottom)
            batch.append(CellIndex.Entry(key: key, x: fx, y: fy, item: UInt32(e0 + i)))
        }
        CellIndex.radixSort(&batch, maxKey: width * width)  // stable: entry order within a cell
        if bottomLevel - 1 >= lastZoom { listPairs(of: batch) }
        mergeIntoOverflow(batch)
        return e0
    }

    /// Lists the candidate pairs of the new entries `batch` (in cell order) with the entries on
    /// the band's lowest level: the sorted ones, the earlier overflow ones, and the new ones
    /// before them in `batch` (so each new pair once).
    private mutating func listPairs(of batch: [CellIndex.Entry]) {
        var main = (0, 0, 0), over = (0, 0, 0), own = (0, 0, 0)
        let sorted = sortedCount, overflowCount = overflowKeys.count
        for (b, entry) in batch.enumerated() {
            let e = Int(entry.item), fx = Double(entry.x), fy = Double(entry.y)
            let row = entry.key / width, column = entry.key % width
            @inline(__always) func consider(_ o: Int) {
                guard lowest[o] == Self.onBottom else { return }
                let d = max(abs(fx - Double(x[o])), abs(fy - Double(y[o])))
                if let z = pairZoom(d) {
                    extraA.append(UInt32(e))
                    extraB.append(UInt32(o))
                    extraZoom.append(z)
                }
            }
            for dr in 0..<3 where row + UInt64(dr) >= 1 {
                let r = row + UInt64(dr) - 1
                let lo = r * width + (column > 0 ? column - 1 : 0), hi = r * width + column + 1
                var p = CellIndex.gallop({ keys[$0] }, from: dr == 0 ? main.0 : dr == 1 ? main.1 : main.2, end: sorted, lo)
                if dr == 0 { main.0 = p } else if dr == 1 { main.1 = p } else { main.2 = p }
                while p < sorted && keys[p] <= hi {
                    consider(p)
                    p += 1
                }
                var q = CellIndex.gallop({ overflowKeys[$0] }, from: dr == 0 ? over.0 : dr == 1 ? over.1 : over.2,
                                    end: overflowCount, lo)
                if dr == 0 { over.0 = q } else if dr == 1 { over.1 = q } else { over.2 = q }
                while q < overflowCount && overflowKeys[q] <= hi {
                    consider(Int(overflowEntries[q]))
                    q += 1
                }
                var t = CellIndex.gallop({ batch[$0].key }, from: dr == 0 ? own.0 : dr == 1 ? own.1 : own.2, end: b, lo)
                if dr == 0 { own.0 = t } else if dr == 1 { own.1 = t } else { own.2 = t }
                while t < b && batch[t].key <= hi {
                    consider(Int(batch[t].item))
                    t += 1
                }
            }
        }
    }

    /// Merges the new entries (in cell order) into the overflow entries (cell order, then entry order).
    private mutating func mergeIntoOverflow(_ batch: [CellIndex.Entry]) {
        let old = overflowKeys.count, total = old + batch.count
        var keysOut = [UInt64](), entriesOut = [UInt32]()
        keysOut.reserveCapacity(total)
        entriesOut.reserveCapacity(total)
        var i = 0, j = 0
        while i < old || j < batch.count {
            if j == batch.count || (i < old && overflowKeys[i] <= batch[j].key) {
                keysOut.append(overflowKeys[i])
                entriesOut.append(overflowEntries[i])
                i += 1
            } else {
                keysOut.append(batch[j].key)
                entriesOut.append(batch[j].item)
                j += 1
            }
        }
        overflowKeys = keysOut
        overflowEntries = entriesOut
    }

    /// The stored levels, highest first: the entries merged into cell order (overflow entries
    /// after the sorted ones of their cell), each level with the entries on it. In two parts on
    /// two threads for big bands (`parts` for tests): a part takes the entries of a range of
    /// keys, which the merge puts together, so the levels are the same.
    func finish(parts: Int? = nil) -> [HierarchicalClusterer.Level] {
        let top = topLevel, bottom = bottomLevel
        if top == bottom && keys.count == sortedCount {
            // One level holding every entry, already in cell order.
            var index = CellIndex(cell: cell, width: width, x: x, y: y, items: refs)
            keys.withUnsafeBufferPointer { index.buildDirectory(keys: $0) }
            return [HierarchicalClusterer.Level(index: index, level: UInt8(top))]
        }
        let filtered = top != bottom
        let total = keys.count, sorted = sortedCount, overflow = overflowKeys.count
        let parts = max(1, min(parts ?? Self.forcedFinishParts ?? (total >= 131_072 ? 2 : 1), sorted))
        // Part h merges sorted entries sortedFrom[h]..<sortedFrom[h + 1] and overflow entries
        // overflowFrom[h]..<overflowFrom[h + 1]: those with keys from the h-th split key on.
        var sortedFrom = [Int](repeating: 0, count: parts + 1), overflowFrom = sortedFrom
        sortedFrom[parts] = sorted
        overflowFrom[parts] = overflow
        for h in 1..<max(parts, 1) {
            let split = keys[sorted * h / parts]
            sortedFrom[h] = CellIndex.gallop({ keys[$0] }, from: 0, end: sorted, split)
            overflowFrom[h] = CellIndex.gallop({ overflowKeys[$0] }, from: 0, end: overflow, split)
        }
        let sortedStarts = sortedFrom, overflowStarts = overflowFrom
        // The stored entries in cell order (a level this band does not store left out): each part
        // writes from its first entry's place on, then they are moved together. Their keys are
        // read through it (a copy of them in this order was 8 bytes per entry at the 10M build's peak).
        // From the pool when the build has one; else an ordinary allocation (a huge-page buffer
        // here added ~10 MB to the full 10M build's peak).
        let order = scratchPool.map { LargeBuffer.allocate(UInt32.self, count: max(total, 1), pool: $0) }
            ?? .allocate(capacity: max(total, 1))
        defer {
            if let scratchPool { LargeBuffer.free(order, count: max(total, 1), pool: scratchPool) } else { order.deallocate() }
        }
        let storedIn = UnsafeMutablePointer<Int>.allocate(capacity: parts)
        defer { storedIn.deallocate() }
        let out = FinishPointers(order: order, stored: storedIn)
        keys.withUnsafeBufferPointer { keys in
        overflowKeys.withUnsafeBufferPointer { overflowKeys in
        overflowEntries.withUnsafeBufferPointer { overflowEntries in
        highest.withUnsafeBufferPointer { highest in
        lowest.withUnsafeBufferPointer { lowest in
            let input = FinishInput(keys: keys.baseAddress!, overflowKeys: overflowKeys.baseAddress,
                                    overflowEntries: overflowEntries.baseAddress, highest: highest.baseAddress!,
                                    lowest: lowest.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                var i = sortedStarts[h], j = overflowStarts[h]
                let iEnd = sortedStarts[h + 1], jEnd = overflowStarts[h + 1]
                let first = i + j
                var at = first
                while i < iEnd || j < jEnd {
                    let e: Int
                    if j == jEnd || (i < iEnd && input.keys[i] <= input.overflowKeys![j]) {
                        e = i
                        i += 1
                    } else {
                        e = Int(input.overflowEntries![j])
                        j += 1
                    }
                    let low = input.lowest[e] == Self.onBottom ? bottom : Int(input.lowest[e])
                    if low <= Int(input.highest[e]) {
                        out.order[at] = UInt32(e)
                        at += 1
                    }
                }
                out.stored[h] = at - first
            }
        }}}}}
        var moved = storedIn[0]
        for h in 1..<max(parts, 1) {
            let first = sortedStarts[h] + overflowStarts[h]
            if first != moved {
                (order + moved).update(from: order + first, count: storedIn[h])
            }
            moved += storedIn[h]
        }
        let stored = moved
        // The query directory from the stored entries' keys (room as for every entry, as before).
        var directory = CellIndex.DirectoryBuilder(capacity: total, width: width)
        keys.withUnsafeBufferPointer { directory?.addAll($0.baseAddress!, through: order, count: stored, parts: parts) }
        // Levels' entry counts: per part, a difference array (+1 at an entry's highest level,
        // −1 below its lowest), summed.
        let levels = top - bottom + 2
        var partCounts = [Int](repeating: 0, count: parts * levels)
        var oy = [Float](), orefs = [UInt32](), ohigh = [UInt8](), olow = [UInt8]()
        let ox = [Float](unsafeUninitializedCapacity: stored) { ox, oxc in
        oy = [Float](unsafeUninitializedCapacity: stored) { oy, oyc in
        orefs = [UInt32](unsafeUninitializedCapacity: stored) { orefs, orc in
        ohigh = [UInt8](unsafeUninitializedCapacity: filtered ? stored : 0) { ohigh, ohc in
        olow = [UInt8](unsafeUninitializedCapacity: filtered ? stored : 0) { olow, olc in
        partCounts.withUnsafeMutableBufferPointer { counts in
        x.withUnsafeBufferPointer { x in
        y.withUnsafeBufferPointer { y in
        refs.withUnsafeBufferPointer { refs in
        highest.withUnsafeBufferPointer { highest in
        lowest.withUnsafeBufferPointer { lowest in
            let g = FinishGather(order: order, ox: ox.baseAddress, oy: oy.baseAddress, orefs: orefs.baseAddress,
                                 ohigh: ohigh.baseAddress, olow: olow.baseAddress, counts: counts.baseAddress!,
                                 x: x.baseAddress!, y: y.baseAddress!, refs: refs.baseAddress!,
                                 highest: highest.baseAddress!, lowest: lowest.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                let counts = g.counts + h * levels
                for k in (stored * h / parts)..<(stored * (h + 1) / parts) {
                    let e = Int(g.order[k])
                    let high = Int(g.highest[e]), low = g.lowest[e] == Self.onBottom ? bottom : Int(g.lowest[e])
                    g.ox![k] = g.x[e]
                    g.oy![k] = g.y[e]
                    g.orefs![k] = g.refs[e]
                    if filtered {
                        g.ohigh![k] = UInt8(high)
                        g.olow![k] = UInt8(low)
                    }
                    counts[top - high] += 1
                    counts[top - low + 1] -= 1
                }
            }
        }}}}}}
            olc = filtered ? stored : 0 }
            ohc = filtered ? stored : 0 }
            orc = stored }
            oyc = stored }
            oxc = stored }
        var counts = [Int](repeating: 0, count: levels)
        for h in 0..<parts {
            for l in 0..<levels { counts[l] += partCounts[h * levels + l] }
        }
        var index = CellIndex(cell: cell, width: width, x: ox, y: oy, items: orefs)
        if let directory { index.setDirectory(directory) }
        return HierarchicalClusterer.Level.stack(index: index, top: top, bottom: bottom, counts: counts,
                                                 highest: ohigh, lowest: olow)
    }

    /// The parts every `finish` uses when set (tests compare builds in one and in several parts).
    nonisolated(unsafe) static var forcedFinishParts: Int? = nil

    /// What `finish`'s merge threads read (disjoint parts).
    private struct FinishInput: @unchecked Sendable {
        let keys: UnsafePointer<UInt64>
        let overflowKeys: UnsafePointer<UInt64>?
        let overflowEntries: UnsafePointer<UInt32>?
        let highest: UnsafePointer<UInt8>
        let lowest: UnsafePointer<UInt8>
    }

    /// What `finish`'s merge threads write (disjoint parts).
    private struct FinishPointers: @unchecked Sendable {
        let order: UnsafeMutablePointer<UInt32>
        let stored: UnsafeMutablePointer<Int>
    }

    /// What `finish`'s gather threads read and write (disjoint parts).
    private struct FinishGather: @unchecked Sendable {
        let order: UnsafeMutablePointer<UInt32>
        let ox: UnsafeMutablePointer<Float>?
        let oy: UnsafeMutablePointer<Float>?
        let orefs: UnsafeMutablePointer<UInt32>?
        let ohigh: UnsafeMutablePointer<UInt8>?
        let olow: UnsafeMutablePointer<UInt8>?
        let counts: UnsafeMutablePointer<Int>
        let x: UnsafePointer<Float>
        let y: UnsafePointer<Float>
        let refs: UnsafePointer<UInt32>
        let highest: UnsafePointer<UInt8>
        let lowest: UnsafePointer<UInt8>
    }
}

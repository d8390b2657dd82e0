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
    /// after the sorted ones of their cell), each level with the entries on it.
    func finish() -> [HierarchicalClusterer.Level] {
        let top = topLevel, bottom = bottomLevel
        if top == bottom && keys.count == sortedCount {
            // One level holding every entry, already in cell order.
            var index = CellIndex(cell: cell, width: width, x: x, y: y, items: refs)
            keys.withUnsafeBufferPointer { index.buildDirectory(keys: $0) }
            return [HierarchicalClusterer.Level(index: index, level: UInt8(top))]
        }
        let filtered = top != bottom
        let total = keys.count, sorted = sortedCount, overflow = overflowKeys.count
        // The entries in cell order (a merge of the sorted ones and the overflow ones), without
        // those of a level this band does not store.
        let order = UnsafeMutablePointer<UInt32>.allocate(capacity: max(total, 1))
        defer { order.deallocate() }
        var stored = 0
        // The stored entries' keys come in order here: the query directory is built on the way.
        var directory = CellIndex.DirectoryBuilder(capacity: total, width: width)
        keys.withUnsafeBufferPointer { keys in
        overflowKeys.withUnsafeBufferPointer { overflowKeys in
        overflowEntries.withUnsafeBufferPointer { overflowEntries in
        highest.withUnsafeBufferPointer { highest in
        lowest.withUnsafeBufferPointer { lowest in
            var i = 0, j = 0
            while i < sorted || j < overflow {
                let e: Int, key: UInt64
                if j == overflow || (i < sorted && keys[i] <= overflowKeys[j]) {
                    (e, key) = (i, keys[i])
                    i += 1
                } else {
                    (e, key) = (Int(overflowEntries[j]), overflowKeys[j])
                    j += 1
                }
                let low = lowest[e] == Self.onBottom ? bottom : Int(lowest[e])
                if low <= Int(highest[e]) {
                    order[stored] = UInt32(e)
                    stored += 1
                    directory?.add(key)
                }
            }
        }}}}}
        var counts = [Int](repeating: 0, count: top - bottom + 2)
        var oy = [Float](), orefs = [UInt32](), ohigh = [UInt8](), olow = [UInt8]()
        let ox = [Float](unsafeUninitializedCapacity: stored) { ox, oxc in
        oy = [Float](unsafeUninitializedCapacity: stored) { oy, oyc in
        orefs = [UInt32](unsafeUninitializedCapacity: stored) { orefs, orc in
        ohigh = [UInt8](unsafeUninitializedCapacity: filtered ? stored : 0) { ohigh, ohc in
        olow = [UInt8](unsafeUninitializedCapacity: filtered ? stored : 0) { olow, olc in
        counts.withUnsafeMutableBufferPointer { counts in
        x.withUnsafeBufferPointer { x in
        y.withUnsafeBufferPointer { y in
        refs.withUnsafeBufferPointer { refs in
        highest.withUnsafeBufferPointer { highest in
        lowest.withUnsafeBufferPointer { lowest in
            for k in 0..<stored {
                let e = Int(order[k])
                let high = Int(highest[e]), low = lowest[e] == Self.onBottom ? bottom : Int(lowest[e])
                ox[k] = x[e]
                oy[k] = y[e]
                orefs[k] = refs[e]
                if filtered {
                    ohigh[k] = UInt8(high)
                    olow[k] = UInt8(low)
                }
                counts[top - high] += 1
                counts[top - low + 1] -= 1
            }
        }}}}}}
            olc = filtered ? stored : 0 }
            ohc = filtered ? stored : 0 }
            orc = stored }
            oyc = stored }
            oxc = stored }
        var index = CellIndex(cell: cell, width: width, x: ox, y: oy, items: orefs)
        if let directory { index.setDirectory(directory) }
        return HierarchicalClusterer.Level.stack(index: index, top: top, bottom: bottom, counts: counts,
                                                 highest: ohigh, lowest: olow)
    }
}

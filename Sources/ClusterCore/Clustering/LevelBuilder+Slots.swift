import Dispatch
import Foundation

/// The level builder for `minPoints ≤ 2` (supercluster's default and the app's): the same
/// clusters as `build`, with every level's work proportional to what changes on it.
///
/// - Items live in *slots*: a valid point's position among the valid inputs; a cluster takes
///   its origin's slot. Slot order is every level's visiting order (supercluster's `data`
///   order: carried items keep their order and a cluster takes its origin's place), so no
///   level is copied or renumbered: a merged item's slot is marked dead in a bit set, and a
///   visiting position (a cluster id's origin index) is a rank in that bit set.
/// - With `minPoints ≤ 2` an item makes a cluster exactly when it has an unvisited neighbour,
///   so a level is decided by its neighbour edges alone, taken in slot order: an origin i takes
///   each neighbour j > i not taken yet. Items without an edge cost nothing.
/// - Edges come from `PairBand`s: one sort and one sweep serve several zooms while few items
///   merge; dense levels get a band (sort and exact sweep) each.
extension LevelBuilder {
    /// The most edges (8 bytes each) whose buffers a build keeps from level to level: reusing
    /// small ones saves allocations, big ones would add to the peak.
    static let edgesKeptForReuse = 1 << 21

    /// Whether `buildBySlots` drops dead slots between bands (tests compare builds without).
    nonisolated(unsafe) static var compactsSlots = true

    /// Builds the levels as `build` does, for `options.minPoints ≤ 2`.
    mutating func buildBySlots() -> [Level] {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        // Renumbered by `compact` between bands: each level reads it through a `let` copy.
        let prepared = self.prepared
        // A filtered build of prepared points takes its large scratch from their pool (pages the
        // previous build of the data set wrote, not fresh ones the kernel must zero).
        let pool = prepared?.points.scratchPool
        var slotState = prepared.map { Slots(prepared: $0.points, chosen: $0.chosen, pool: pool) } ?? Slots(points: points)
        defer { slotState.deallocate() }
        let n0 = slotState.n
        validCount = n0
        let maxBandLength = self.maxBandLength, inputCount = self.inputCount
        let radiusOption = options.radius, extent = options.extent
        func radius(atZoom z: Int) -> Double { radiusOption / (extent * pow(2, Double(z))) }
        var table = self.table, aggregates = self.aggregates
        defer {
            self.table = table
            self.aggregates = aggregates
        }
        table.reserve(forValidPoints: n0)
        buildTrace("slots filled")
        let scratch = CellIndex.SortScratch(capacity: n0, pool: pool)
        var aggregateBuilder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        var builtLevels: [Level] = []  // maxZoom + 1 first
        builtLevels.reserveCapacity(maxZoom - minZoom + 2)
        table.childStart.append(0)
        var aliveCount = n0
        // Each slot's entry in the current band, while that band stores several levels (where
        // merged items' entries are marked).
        var entryOf: UnsafeMutablePointer<UInt32>? = nil
        var entryCapacity = 0
        /// Called once a band is done with: its entries are not looked up any more.
        func releaseEntries() {
            if let entries = entryOf {
                if let pool { LargeBuffer.free(entries, count: entryCapacity, pool: pool) } else { entries.deallocate() }
            }
            entryOf = nil
        }
        defer { releaseEntries() }
        /// Before a new band is sorted (nothing holds a slot number then): drops the dead slots
        /// once a quarter of them are dead, so that the per-slot items don't stay at their
        /// first size through the low zooms (see `Slots.compact`).
        func compactSlots() {
            if Self.compactsSlots && aliveCount <= slotState.n - slotState.n / 4 {
                slotState.compact()
                buildTrace("slots compacted to \(aliveCount)")
            }
        }

        /// A band of the items of `level` (the alive slots) whose pairs serve zooms level − 1…lastZoom;
        /// with `fromPrepared`, the prepared points' first band (its zooms, cells and order).
        func makeBand(level: Int, lastZoom: Int, fromPrepared: Bool = false) -> PairBand {
            let slots = slotState
            var lastZoom = lastZoom
            // Fewer zooms for a band whose sweep would likely fail (dense data), before sorting.
            while !fromPrepared && level - 1 > lastZoom && !Self.sweepLikelyFits(slots, count: aliveCount,
                                                                cell: NeighborGraph.cellSize(radius: radius(atZoom: lastZoom))) {
                lastZoom = level - (level - lastZoom) / 2
            }
            let cell = NeighborGraph.cellSize(radius: radius(atZoom: lastZoom))
            let searchDistance = { (z: Int) in NeighborGraph.searchDistance(radius: radius(atZoom: z)) }
            var band: PairBand
            // Centres in cell order only for an exact sweep (a band of one zoom).
            if fromPrepared, let prepared, let sorted = Self.sortPrepared(slots, prepared, centres: level - 1 <= lastZoom,
                                                                          scratch: scratch) {
                band = PairBand(cell: sorted.cell, width: sorted.width, columns: sorted.columns, level: level,
                                lastZoom: lastZoom, searchDistance: searchDistance)
            } else if let sorted = Self.sortAlive(slots, count: aliveCount, cell: cell, centres: level - 1 <= lastZoom,
                                                  scratch: scratch) {
                band = PairBand(cell: sorted.cell, width: sorted.width, columns: sorted.columns, level: level,
                                lastZoom: lastZoom, searchDistance: searchDistance)
            } else {
                band = Self.compactAndSort(slots, count: aliveCount, cell: cell, level: level, lastZoom: lastZoom,
                                      scratch: scratch, searchDistance: searchDistance)
            }
            band.scratchPool = pool
            let m = band.entryCount
            buildTrace("band \(level)-\(lastZoom) made")
            // Entries are looked up by slot to mark merged items: in bands of several levels.
            if level - 1 > lastZoom {
                if entryOf == nil { entryCapacity = max(slots.n, 1) }
                // From the pool when the build has one; else an ordinary allocation, as the full build's peak was measured with.
                let entries = entryOf ?? pool.map { LargeBuffer.allocate(UInt32.self, count: entryCapacity, pool: $0) }
                    ?? .allocate(capacity: entryCapacity)
                entryOf = entries
                band.slots.withUnsafeBufferPointer { bandSlots in
                    for e in 0..<bandSlots.count { entries[Int(bandSlots[e])] = UInt32(e) }
                }
            } else {
                releaseEntries()
            }
            buildTrace("band \(level)-\(lastZoom) sorted")
            if level - 1 > lastZoom && !band.sweepPairs(budget: 4 * m) {
                return makeBand(level: level, lastZoom: level - (level - lastZoom) / 2)  // denser than expected: fewer zooms
            }
            buildTrace("band \(level)-\(lastZoom) swept")
            return band
        }

        var band = if let prepared, prepared.points.lastZoom >= maxZoom + 1 - maxBandLength {
            makeBand(level: maxZoom + 1, lastZoom: prepared.points.lastZoom, fromPrepared: true)
        } else {
            makeBand(level: maxZoom + 1, lastZoom: max(minZoom, maxZoom + 1 - maxBandLength))
        }
        var edges: [UInt64] = [], spare: [UInt64] = []
        var merges = LevelMerges()

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            let slots = slotState
            table.zoomStart.append(table.rows.count)
            let r = radius(atZoom: z), r2 = r * r
            edges.removeAll(keepingCapacity: true)
            var work = 0
            // The level's neighbour edges (slot << 32 | slot), in any order.
            if band.topLevel - 1 > band.lastZoom {
                // Only from the lower slot to the higher one: an origin takes only items after it.
                band.forEachCandidate(zoom: z) { sa, sb, fxa, fya, fxb, fyb in
                    if sa < sb {
                        let dx = fxb - slots.item[sa].x, dy = fyb - slots.item[sa].y
                        if dx * dx + dy * dy <= r2 { edges.append(UInt64(sa) << 32 | UInt64(sb)) }
                    } else {
                        let dx = fxa - slots.item[sb].x, dy = fya - slots.item[sb].y
                        if dx * dx + dy * dy <= r2 { edges.append(UInt64(sb) << 32 | UInt64(sa)) }
                    }
                }
                work = band.sweepWork
            } else if let found = sweepEdges(band, radius: r, scratch: scratch, budget: 48 * max(aliveCount, 1)) {
                (edges, work) = found
            } else {
                edges = queryEdges(band, slots: slots, radius: r)
                work = Int.max / 2
            }
            // Only the exact sweep reads the centres in cell order: not resident through the merges.
            scratch.discardCentreContents()
            buildTrace("z\(z) edges \(edges.count) work \(work) alive \(aliveCount)")
            // Merged entries are marked in bands that store more than one level.
            let multiLevel = band.topLevel - 1 > band.lastZoom

            // Origins in slot order take their untaken neighbours after them (in slot order:
            // centres are summed, and children listed, origin first, then in visiting order).
            if !edges.isEmpty { slots.snapshot() }
            Self.resolve(&edges, spare: &spare, slots: slots, into: &merges)
            // Big edge lists go back now: kept for reuse, they sat in the next level's sweep with
            // the new list being copied together (the build's peak at 10M points).
            if edges.capacity >= Self.edgesKeptForReuse {
                edges = []
                spare = []
            }
            buildTrace("z\(z) resolved")
            let c0 = table.rows.count
            Self.commit(merges, slots: slots, zoom: z, inputCount: inputCount, table: &table)
            aliveCount -= merges.taken.count
            if var builder = aggregateBuilder {
                for c in c0..<table.rows.count {
                    for k in Int(table.childStart[c])..<Int(table.childStart[c + 1]) {
                        builder.add(table.childItems[k], inputCount: inputCount, table: aggregates)
                    }
                    builder.commit(to: &aggregates)
                }
                aggregateBuilder = builder
            }
            if multiLevel, let entryOf {
                for k in 0..<merges.count {
                    band.retire(Int(entryOf[Int(merges.origins[k])]))
                    for m in merges.takenRange(k) { band.retire(Int(entryOf[Int(merges.taken[m])])) }
                }
            }

            buildTrace("z\(z) committed \(merges.count)")
            // Carry a band of several levels down while its pairs serve the next zoom and few
            // entries are dead; otherwise store it and sort the new level into a new band.
            if multiLevel && (z == minZoom || (z - 1 >= band.lastZoom && band.deadCount <= aliveCount / 4)) {
                band.extend(toLevel: z)
                let first = band.appendClusters(origins: merges.origins, firstRef: UInt32(inputCount + c0),
                                                centres: table.rows[c0...])
                if let entryOf {
                    for (k, i) in merges.origins.enumerated() { entryOf[Int(i)] = UInt32(first + k) }
                }
                if z == minZoom {
                    releaseEntries()
                    builtLevels += band.finish()
                }
                buildTrace("z\(z) carried")
            } else if z == minZoom {
                releaseEntries()
                builtLevels += band.finish()
                band.release()
                compactSlots()
                builtLevels += makeBand(level: z, lastZoom: z).finish()
            } else {
                releaseEntries()
                builtLevels += band.finish()
                let perItem = Double(work) / Double(max(band.aliveCount, 1)), seenCell = band.cell
                band.release()
                buildTrace("z\(z) finished")
                var k = 1
                if work < Int.max / 2 {
                    // Candidate checks grow with the cell's area: as many zooms as keep them few.
                    while k < maxBandLength && z - 1 - k >= minZoom {
                        let ratio = NeighborGraph.cellSize(radius: radius(atZoom: z - 1 - k)) / seenCell
                        if perItem * ratio * ratio > 0.5 { break }
                        k += 1
                    }
                }
                compactSlots()
                band = makeBand(level: z, lastZoom: z - k)
            }
        }
        table.zoomStart.append(table.rows.count)
        return builtLevels.reversed()
    }

    /// A band of the alive slots' items through a compacted copy and a `CellIndex` (for cells
    /// too fine to pack a key and a slot in 64 bits).
    static func compactAndSort(_ slots: Slots, count: Int, cell: Double, level: Int, lastZoom: Int,
                        scratch: CellIndex.SortScratch, searchDistance: (Int) -> Double) -> PairBand {
        let capacity = max(count, 1)
        let cx = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let cy = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let cslot = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let cref = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { cx.deallocate(); cy.deallocate(); cslot.deallocate(); cref.deallocate() }
        var m = 0
        for w in 0..<slots.words {
            var bits = slots.alive[w]
            while bits != 0 {
                let s = w << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                cx[m] = slots.item[s].x; cy[m] = slots.item[s].y; cslot[m] = UInt32(s); cref[m] = slots.item[s].ref
                m += 1
            }
        }
        let index = CellIndex(xs: cx, ys: cy, count: m, cell: cell, scratch: scratch)
        return PairBand(index: index, scratch: scratch, slotOf: cslot, refOf: cref, level: level, lastZoom: lastZoom,
                        searchDistance: searchDistance)
    }

    /// The exact neighbour edges (lower slot to higher) of a freshly sorted one-zoom band, by a sweep on two threads
    /// (`NeighborGraph.sweep`); nil past the budget.
    func sweepEdges(_ band: PairBand, radius r: Double, scratch: CellIndex.SortScratch,
                    budget: Int) -> (edges: [UInt64], candidates: Int)? {
        let n = band.entryCount
        guard n > 0 else { return ([], 0) }
        return band.x.withUnsafeBufferPointer { xs in
        band.y.withUnsafeBufferPointer { ys in
        band.slots.withUnsafeBufferPointer { item in
        band.keys.withUnsafeBufferPointer { keys in
            var input = NeighborGraph.SweepInput(entries: n, xs: xs.baseAddress!, ys: ys.baseAddress!, item: item.baseAddress!,
                                                 keys: keys.baseAddress!, shift: 0, width: band.width, cell: band.cell,
                                                 cx: UnsafePointer(scratch.cx), cy: UnsafePointer(scratch.cy))
            input.forwardOnly = true
            // The centres are read by the sweep only: not resident while the edges are gathered.
            return NeighborGraph.sweepEdges(input, radius: r, budget: budget) { scratch.discardCentreContents() }
        }}}}
    }

    /// The edges the greedy pass will use, for a freshly sorted one-zoom band too dense for a
    /// sweep (a pile of points on one spot): a radius query per slot in slot order, as
    /// supercluster does, skipping slots an earlier origin takes. Each slot is taken at most
    /// once, so a pile costs one query, not one edge per pair.
    func queryEdges(_ band: PairBand, slots: Slots, radius r: Double) -> [UInt64] {
        let index = band.slotIndex
        var edges: [UInt64] = []
        var claimed = [UInt64](repeating: 0, count: slots.words)
        for w in 0..<slots.words {
            var bits = slots.alive[w]
            while bits != 0 {
                let s = w << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                if claimed[s >> 6] & (1 << UInt64(s & 63)) != 0 { continue }
                index.forEachWithin(qx: slots.item[s].x, qy: slots.item[s].y, r: r) { p in
                    let t = Int(index.items[p])
                    if t > s && claimed[t >> 6] & (1 << UInt64(t & 63)) == 0 {
                        claimed[t >> 6] |= 1 << UInt64(t & 63)
                        edges.append(UInt64(s) << 32 | UInt64(t))
                    }
                }
            }
        }
        return edges
    }
}

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
    /// Per-slot state: the item's reference, Double centre, point count and band entry, and
    /// whether it is on the level being read.
    struct Slots {
        /// One slot's item, in one cache line's part: a merge reads its neighbours' at random.
        struct Item {
            var x: Double
            var y: Double
            var ref: UInt32
            var count: UInt32
            var entry: UInt32
        }

        let n: Int
        let item: UnsafeMutablePointer<Item>
        let alive: UnsafeMutablePointer<UInt64>
        /// The alive bits as they were before this level's merges, and the rank of each word.
        let before: UnsafeMutablePointer<UInt64>
        let wordRank: UnsafeMutablePointer<UInt32>
        var words: Int { (n + 63) >> 6 }

        init(_ n: Int) {
            self.n = n
            let m = max(n, 1), w = (m + 63) >> 6
            item = .allocate(capacity: m)
            alive = .allocate(capacity: w); before = .allocate(capacity: w); wordRank = .allocate(capacity: w)
            alive.initialize(repeating: 0, count: w)
            for s in 0..<n { alive[s >> 6] |= 1 << UInt64(s & 63) }
        }

        func deallocate() {
            item.deallocate()
            alive.deallocate(); before.deallocate(); wordRank.deallocate()
        }

        @inline(__always) func isAlive(_ s: Int) -> Bool { alive[s >> 6] & (1 << UInt64(s & 63)) != 0 }
        @inline(__always) func kill(_ s: Int) { alive[s >> 6] &= ~(1 << UInt64(s & 63)) }

        /// Remembers the alive bits, so that `rank` gives visiting positions on this level.
        func snapshot() {
            var total: UInt32 = 0
            for w in 0..<words {
                before[w] = alive[w]
                wordRank[w] = total
                total &+= UInt32(alive[w].nonzeroBitCount)
            }
        }

        /// The visiting position of slot s on the level of the last `snapshot`.
        @inline(__always) func rank(_ s: Int) -> UInt32 {
            let below = before[s >> 6] & ((1 << UInt64(s & 63)) &- 1)
            return wordRank[s >> 6] &+ UInt32(below.nonzeroBitCount)
        }
    }

    /// Builds the levels as `build` does, for `options.minPoints ≤ 2`.
    mutating func buildBySlots(validIndices: [UInt32]) -> [Level] {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        let n0 = validIndices.count
        let maxBandLength = self.maxBandLength, inputCount = self.inputCount
        let radiusOption = options.radius, extent = options.extent
        func radius(atZoom z: Int) -> Double { radiusOption / (extent * pow(2, Double(z))) }
        var table = self.table, aggregates = self.aggregates
        defer {
            self.table = table
            self.aggregates = aggregates
        }
        let slots = Slots(n0)
        defer { slots.deallocate() }
        projected.withUnsafeBufferPointer { pr in
            for (s, r) in validIndices.enumerated() {
                slots.item[s] = Slots.Item(x: Double(pr[2 * Int(r)]), y: Double(pr[2 * Int(r) + 1]), ref: r, count: 1, entry: 0)
            }
        }
        let scratch = CellIndex.SortScratch(capacity: n0)
        var aggregateBuilder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        var builtLevels: [Level] = []  // maxZoom + 1 first
        builtLevels.reserveCapacity(maxZoom - minZoom + 2)
        table.childStart.append(0)
        var aliveCount = n0

        /// A band of the items of `level` (the alive slots) whose pairs serve zooms level − 1…lastZoom.
        func makeBand(level: Int, lastZoom: Int) -> PairBand {
            // The level's items compacted in slot order, for the sort (freed before the sweep:
            // the dense levels' edges need the room).
            let capacity = max(aliveCount, 1)
            let cx = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
            let cy = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
            let cslot = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            let cref = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
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
            let index = CellIndex(xs: cx, ys: cy, count: m, cell: NeighborGraph.cellSize(radius: radius(atZoom: lastZoom)),
                                  scratch: scratch)
            var band = PairBand(index: index, scratch: scratch, slotOf: cslot, refOf: cref, level: level,
                                lastZoom: lastZoom) { NeighborGraph.searchDistance(radius: radius(atZoom: $0)) }
            cx.deallocate(); cy.deallocate(); cslot.deallocate(); cref.deallocate()
            // Entries are looked up by slot to mark merged items: in bands of several levels.
            if level - 1 > lastZoom {
                for e in 0..<band.entryCount { slots.item[Int(band.slots[e])].entry = UInt32(e) }
            }
            if level - 1 > lastZoom && !band.sweepPairs(budget: 4 * m) {
                return makeBand(level: level, lastZoom: level - (level - lastZoom) / 2)  // denser than expected: fewer zooms
            }
            return band
        }

        var band = makeBand(level: maxZoom + 1, lastZoom: max(minZoom, maxZoom + 1 - maxBandLength))
        var edges: [UInt64] = [], spare: [UInt64] = []
        var taken: [Int] = []
        var origins: [(slot: Int, cluster: Int)] = []

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            table.zoomStart.append(table.x.count)
            let r = radius(atZoom: z), r2 = r * r
            edges.removeAll(keepingCapacity: true)
            var work = 0
            // The level's neighbour edges (slot << 32 | slot), in any order.
            if band.topLevel - 1 > band.lastZoom {
                band.forEachCandidate(zoom: z) { sa, sb, fxa, fya, fxb, fyb in
                    var dx = fxb - slots.item[sa].x, dy = fyb - slots.item[sa].y
                    if dx * dx + dy * dy <= r2 { edges.append(UInt64(sa) << 32 | UInt64(sb)) }
                    dx = fxa - slots.item[sb].x
                    dy = fya - slots.item[sb].y
                    if dx * dx + dy * dy <= r2 { edges.append(UInt64(sb) << 32 | UInt64(sa)) }
                }
                work = band.sweepWork
            } else if let found = sweepEdges(band, radius: r, scratch: scratch, budget: 48 * max(aliveCount, 1)) {
                (edges, work) = found
            } else {
                edges = queryEdges(band, slots: slots, radius: r)
                work = Int.max / 2
            }
            // Merged entries are marked in bands that store more than one level.
            let multiLevel = band.topLevel - 1 > band.lastZoom

            // Origins in slot order take their untaken neighbours after them (in slot order:
            // centres are summed, and children listed, origin first, then in visiting order).
            if !edges.isEmpty { slots.snapshot() }
            origins.removeAll(keepingCapacity: true)
            let clusterBase = UInt32(inputCount)
            Self.forEachOrigin(&edges, spare: &spare, slots: n0) { i, targets in
                guard slots.isAlive(i) else { return }
                taken.removeAll(keepingCapacity: true)
                for t in targets {
                    let j = Int(t & 0xFFFF_FFFF)
                    if j > i && slots.isAlive(j) {
                        slots.kill(j)
                        taken.append(j)
                    }
                }
                if taken.isEmpty { return }
                if taken.count > 1 { taken.sort() }
                let c = table.x.count
                let origin = slots.item[i]
                var numPoints = origin.count
                var wx = origin.x * Double(origin.count), wy = origin.y * Double(origin.count)
                aggregateBuilder?.add(origin.ref, inputCount: inputCount, table: aggregates)
                table.childItems.append(origin.ref)
                for j in taken {
                    let other = slots.item[j]
                    numPoints += other.count
                    wx += other.x * Double(other.count)
                    wy += other.y * Double(other.count)
                    aggregateBuilder?.add(other.ref, inputCount: inputCount, table: aggregates)
                    table.childItems.append(other.ref)
                    if multiLevel { band.retire(Int(other.entry)) }
                }
                table.childStart.append(UInt32(table.childItems.count))
                let ccx = wx / Double(numPoints), ccy = wy / Double(numPoints)
                table.x.append(ccx)
                table.y.append(ccy)
                table.count.append(numPoints)
                table.origin.append(slots.rank(i))
                table.zoom.append(UInt8(z))
                aggregateBuilder?.commit(to: &aggregates)
                if multiLevel { band.retire(Int(origin.entry)) }
                slots.item[i] = Slots.Item(x: ccx, y: ccy, ref: clusterBase + UInt32(c), count: numPoints, entry: origin.entry)
                aliveCount -= taken.count
                origins.append((i, c))
            }

            // Carry a band of several levels down while its pairs serve the next zoom and few
            // entries are dead; otherwise store it and sort the new level into a new band.
            if multiLevel && (z == minZoom || (z - 1 >= band.lastZoom && band.deadCount <= aliveCount / 4)) {
                band.extend(toLevel: z)
                for (i, c) in origins {
                    slots.item[i].entry = band.append(slot: UInt32(i), ref: clusterBase + UInt32(c), x: table.x[c], y: table.y[c])
                }
                if z == minZoom { builtLevels += band.finish() }
            } else if z == minZoom {
                builtLevels += band.finish()
                builtLevels += makeBand(level: z, lastZoom: z).finish()
            } else {
                builtLevels += band.finish()
                var k = 1
                if work < Int.max / 2 {
                    // Candidate checks grow with the cell's area: as many zooms as keep them few.
                    let perItem = Double(work) / Double(max(band.aliveCount, 1))
                    let seenCell = band.cell
                    while k < maxBandLength && z - 1 - k >= minZoom {
                        let ratio = NeighborGraph.cellSize(radius: radius(atZoom: z - 1 - k)) / seenCell
                        if perItem * ratio * ratio > 0.5 { break }
                        k += 1
                    }
                }
                band = makeBand(level: z, lastZoom: z - k)
            }
        }
        table.zoomStart.append(table.x.count)
        return builtLevels.reversed()
    }

    /// The exact neighbour edges of a freshly sorted one-zoom band, by a sweep on two threads
    /// (`NeighborGraph.sweep`); nil past the budget.
    func sweepEdges(_ band: PairBand, radius r: Double, scratch: CellIndex.SortScratch,
                    budget: Int) -> (edges: [UInt64], candidates: Int)? {
        let n = band.entryCount
        guard n > 0 else { return ([], 0) }
        return band.x.withUnsafeBufferPointer { xs in
        band.y.withUnsafeBufferPointer { ys in
        band.slots.withUnsafeBufferPointer { item in
        band.keys.withUnsafeBufferPointer { keys in
            let input = NeighborGraph.SweepInput(entries: n, xs: xs.baseAddress!, ys: ys.baseAddress!, item: item.baseAddress!,
                                                 keys: keys.baseAddress!, shift: 0, width: band.width, cell: band.cell,
                                                 cx: UnsafePointer(scratch.cx), cy: UnsafePointer(scratch.cy))
            return NeighborGraph.sweepEdges(input, radius: r, budget: budget)
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

    /// Calls `body(origin, edges)` for each slot with edges (`slot << 32 | neighbour`), in slot
    /// order; a group's neighbours come in any order. Few edges are sorted; many get an LSD
    /// radix sort on the origin's bits (`spare`: a reusable buffer).
    static func forEachOrigin(_ edges: inout [UInt64], spare: inout [UInt64], slots n: Int,
                              _ body: (Int, UnsafeBufferPointer<UInt64>) -> Void) {
        let m = edges.count
        if m == 0 { return }
        if m < 4096 {
            edges.sort()
        } else {
            let slotBits = 64 - (max(n, 2) - 1).leadingZeroBitCount
            let passes = (slotBits + 10) / 11
            let digitBits = (slotBits + passes - 1) / passes
            let buckets = 1 << digitBits, mask = UInt64(buckets - 1)
            // The spare takes the edges' length (keeping its capacity): the two swap per pass.
            if spare.count < m {
                spare.append(contentsOf: repeatElement(0, count: m - spare.count))
            } else if spare.count > m {
                spare.removeLast(spare.count - m)
            }
            var counts = [Int](repeating: 0, count: buckets)
            for pass in 0..<passes {
                let shift = UInt64(32 + pass * digitBits)
                edges.withUnsafeBufferPointer { src in
                spare.withUnsafeMutableBufferPointer { dst in
                counts.withUnsafeMutableBufferPointer { cnt in
                    for i in 0..<buckets { cnt[i] = 0 }
                    for v in src { cnt[Int((v >> shift) & mask)] += 1 }
                    var sum = 0
                    for i in 0..<buckets {
                        let c = cnt[i]
                        cnt[i] = sum
                        sum += c
                    }
                    for v in src {
                        let d = Int((v >> shift) & mask)
                        dst[cnt[d]] = v
                        cnt[d] += 1
                    }
                }}}
                swap(&edges, &spare)
            }
        }
        edges.withUnsafeBufferPointer { ed in
            var k = 0
            while k < m {
                let i = ed[k] >> 32
                var g = k + 1
                while g < m && ed[g] >> 32 == i { g += 1 }
                body(Int(i), UnsafeBufferPointer(rebasing: ed[k..<g]))
                k = g
            }
        }
    }
}

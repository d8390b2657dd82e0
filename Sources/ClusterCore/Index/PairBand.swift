import CIndexSweep
import Dispatch

/// The items of consecutive levels of a `HierarchicalClusterer` in one cell-sorted store, with
/// the candidate neighbour pairs of all those levels found by one sweep (the slot builder's
/// counterpart of `LevelBand`).
///
/// Items are identified by *slot*: a point's position among the valid inputs, which a cluster
/// inherits from its origin. Slot order is every level's visiting order, so nothing in the band
/// is renumbered when items merge: a merged item's entry gets the last level it is on, a
/// level's new clusters are appended as overflow entries (kept in cell order beside the sorted
/// ones), and the stored levels are merged into cell order once, by `finish`
/// (`PairBand+Overflow.swift`).
///
/// The pairs: the band's cells fit the radius of its lowest zoom `lastZoom`, and one sweep
/// lists every pair of entries within that zoom's search distance on both axes, with the
/// highest zoom whose search distance still covers it. Listed by that zoom, highest first, the
/// candidates of zoom z are a prefix: a level costs its candidates, not its items.
struct PairBand {
    /// `lowest` of an entry still on the band's lowest level.
    static let onBottom = UInt8.max

    let cell: Double
    let width: UInt64
    /// The band's first (highest) level and its lowest one so far.
    let topLevel: Int
    private(set) var bottomLevel: Int
    /// The lowest zoom whose neighbours the pairs cover (the band serves zooms topLevel − 1…lastZoom).
    let lastZoom: Int
    /// Per entry: cell key, Float coordinates, slot, item reference, highest and lowest level
    /// (`onBottom` while on the band's lowest level). Entries `0..<sortedCount` are in cell order.
    var keys: [UInt64]
    var x: [Float]
    var y: [Float]
    var slots: [UInt32]
    var refs: [UInt32]
    var highest: [UInt8]
    var lowest: [UInt8]
    let sortedCount: Int
    private(set) var deadCount = 0
    /// Candidate pairs (entry, entry) and the highest zoom each serves, highest zoom first.
    private var pairA: [UInt32] = [], pairB: [UInt32] = [], pairZoom: [UInt8] = []
    /// How many pairs serve the zoom being built.
    private var pairEnd = 0
    /// Pairs with an overflow entry, unordered.
    var extraA: [UInt32] = [], extraB: [UInt32] = [], extraZoom: [UInt8] = []
    /// The overflow entries' keys and entry numbers, in cell order (then entry order).
    var overflowKeys: [UInt64] = [], overflowEntries: [UInt32] = []
    /// Search distance per zoom, indexed by `zoom - lastZoom`.
    private let eps: [Double]
    /// Candidate checks of the sweep (for choosing band lengths).
    private(set) var sweepWork = 0
    /// Where `finish` takes its large scratch from (nil: the system; see `LargeBuffer`).
    var scratchPool: BuildScratchPool?

    var entryCount: Int { keys.count }
    var aliveCount: Int { keys.count - deadCount }

    /// A band's entries in cell order: cell key, Float coordinates, slot and item reference.
    struct Columns {
        var keys: [UInt64]
        var x: [Float]
        var y: [Float]
        var slots: [UInt32]
        var refs: [UInt32]
    }

    /// Entries from a sorted `CellIndex` whose items index `slotOf`/`refOf` (the compacted items
    /// of level `level`); `scratch` holds the sort's keys. Pairs are not listed yet (`sweepPairs`).
    init(index: CellIndex, scratch: CellIndex.SortScratch, slotOf: UnsafePointer<UInt32>, refOf: UnsafePointer<UInt32>,
         level: Int, lastZoom: Int, searchDistance: (Int) -> Double) {
        let n = index.count
        let sorted = scratch.sorted, shift = scratch.shift
        let keys = [UInt64](unsafeUninitializedCapacity: n) { b, c in
            for p in 0..<n { b[p] = sorted[p] >> shift }
            c = n
        }
        let (slots, refs) = index.items.withUnsafeBufferPointer { items in
            let s = [UInt32](unsafeUninitializedCapacity: n) { b, c in
                for p in 0..<n { b[p] = slotOf[Int(items[p])] }
                c = n
            }
            let r = [UInt32](unsafeUninitializedCapacity: n) { b, c in
                for p in 0..<n { b[p] = refOf[Int(items[p])] }
                c = n
            }
            return (s, r)
        }
        self.init(cell: index.cell, width: index.width, columns: Columns(keys: keys, x: index.x, y: index.y, slots: slots, refs: refs),
                  level: level, lastZoom: lastZoom, searchDistance: searchDistance)
    }

    /// Entries from columns in cell order (cells of side `cell`, `width` per row) of level
    /// `level`'s items. A band of one level keeps no level range per entry (it never retires
    /// or appends entries).
    init(cell: Double, width: UInt64, columns: Columns, level: Int, lastZoom: Int, searchDistance: (Int) -> Double) {
        let n = columns.keys.count
        self.cell = cell
        self.width = width
        topLevel = level
        bottomLevel = level
        self.lastZoom = lastZoom
        keys = columns.keys
        x = columns.x
        y = columns.y
        slots = columns.slots
        refs = columns.refs
        let multiLevel = level - 1 > lastZoom
        highest = multiLevel ? [UInt8](repeating: UInt8(level), count: n) : []
        lowest = multiLevel ? [UInt8](repeating: Self.onBottom, count: n) : []
        if multiLevel {
            // Room for the clusters appended later (see `appendClusters`).
            highest.reserveCapacity(n + n / 4)
            lowest.reserveCapacity(n + n / 4)
        }
        sortedCount = n
        eps = (lastZoom..<max(level, lastZoom + 1)).map(searchDistance)
    }

    /// The entries as a `CellIndex` whose items are slots (for radius queries; dead entries
    /// included: callers check the slot is still alive).
    var slotIndex: CellIndex { CellIndex(cell: cell, width: width, x: x, y: y, items: slots) }

    /// The highest zoom in `lastZoom…topLevel − 1` whose search distance covers `d`, nil for none.
    @inline(__always) func pairZoom(_ d: Double) -> UInt8? {
        if d > eps[0] { return nil }
        var z = eps.count - 1
        while eps[z] < d { z -= 1 }
        return UInt8(lastZoom + z)
    }

    /// Lists the candidate pairs of the sorted entries with a sweep in `parts` parts, on two
    /// threads for big bands (the list doesn't depend on the parts: tests compare); false when
    /// the candidate checks would exceed `budget`.
    mutating func sweepPairs(budget: Int, parts: Int? = nil) -> Bool {
        let n = sortedCount
        let halves = parts ?? (n >= 65_536 ? 2 : 1)
        // Each part's pairs (entry a << 32 | entry b) and zooms, and its checks (−1: past the budget).
        let pairs = UnsafeMutablePointer<GrowingBuffer<UInt64>>.allocate(capacity: halves)
        let zooms = UnsafeMutablePointer<GrowingBuffer<UInt8>>.allocate(capacity: halves)
        let works = UnsafeMutablePointer<Int>.allocate(capacity: halves)
        for h in 0..<halves {
            (pairs + h).initialize(to: GrowingBuffer(capacity: n / halves))
            (zooms + h).initialize(to: GrowingBuffer(capacity: n / halves))
        }
        defer {
            for h in 0..<halves {
                pairs[h].deallocate()
                zooms[h].deallocate()
            }
            pairs.deinitialize(count: halves); zooms.deinitialize(count: halves)
            pairs.deallocate(); zooms.deallocate(); works.deallocate()
        }
        let out = SweepParts(pairs: pairs, zooms: zooms, works: works)
        let band = self
        DispatchQueue.concurrentPerform(iterations: halves) { h in
            out.works[h] = band.sweep(from: n * h / halves, to: n * (h + 1) / halves, budget: budget / halves,
                                      pairs: &out.pairs[h], zooms: &out.zooms[h]) ?? -1
        }
        for h in 0..<halves {
            if works[h] < 0 { return false }
            sweepWork += works[h]
        }
        // Highest zoom first (a stable counting sort over the band's few zooms), straight from
        // the parts, in part order.
        var counts = [Int](repeating: 0, count: eps.count + 1)
        for h in 0..<halves {
            for k in 0..<zooms[h].count { counts[eps.count - 1 - (Int(zooms[h].base[k]) - lastZoom) + 1] += 1 }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        let total = counts[eps.count]
        pairA = [UInt32](repeating: 0, count: total)
        pairB = pairA
        pairZoom = [UInt8](repeating: 0, count: total)
        for h in 0..<halves {
            let p = pairs[h].base, z = zooms[h].base
            for k in 0..<pairs[h].count {
                let bucket = eps.count - 1 - (Int(z[k]) - lastZoom)
                let at = counts[bucket]
                counts[bucket] += 1
                pairA[at] = UInt32(truncatingIfNeeded: p[k] >> 32)
                pairB[at] = UInt32(truncatingIfNeeded: p[k])
                pairZoom[at] = z[k]
            }
        }
        return true
    }

    /// The buffers `sweepPairs`'s threads write (one of each per part).
    private struct SweepParts: @unchecked Sendable {
        let pairs: UnsafeMutablePointer<GrowingBuffer<UInt64>>
        let zooms: UnsafeMutablePointer<GrowingBuffer<UInt8>>
        let works: UnsafeMutablePointer<Int>
    }

    /// Pairs (a, b), a in `from..<to`, b after a in the same cell or the next one in the row, or
    /// in the three cells below, within the search distance of `lastZoom` on both axes, with
    /// the highest zoom that serves each; the candidate checks, nil past the budget. The loop
    /// runs over every candidate of the band: it is C (`cis_sweep_pairs`), branch-free per
    /// candidate, writing into `GrowingBuffer`s that grow between entries.
    private func sweep(from: Int, to: Int, budget: Int, pairs: inout GrowingBuffer<UInt64>,
                       zooms: inout GrowingBuffer<UInt8>) -> Int? {
        let n = sortedCount, width = self.width, lastZoom = self.lastZoom
        guard from < to else { return 0 }
        // The kernel finds a pair's zoom by counting the distances that cover it: they must decrease.
        precondition(zip(eps, eps.dropFirst()).allSatisfy { $0 > $1 }, "search distances decrease with the zoom")
        return keys.withUnsafeBufferPointer { kb in
        x.withUnsafeBufferPointer { xb in
        y.withUnsafeBufferPointer { yb in
        eps.withUnsafeBufferPointer { eb in
            let k = kb.baseAddress!
            var state = cis_sweep_state(a: from, p: CellIndex.firstPosition(k, count: n, atLeast: k[from] + width - 1),
                                        work: 0, count: pairs.count)
            while true {
                var status: Int32 = 0
                pairs.fill { pairBase, pairCapacity, _ in
                    zooms.fill { zoomBase, zoomCapacity, _ in
                        status = cis_sweep_pairs(k, xb.baseAddress!, yb.baseAddress!, n, width, eb.baseAddress!,
                                                 Int32(eb.count), Int32(lastZoom), from, to, budget, pairBase, zoomBase,
                                                 min(pairCapacity, zoomCapacity), &state)
                        return state.count
                    }
                    return state.count
                }
                switch status {
                case 0: return state.work
                case 1:  // room for the next entry's candidates in both
                    let room = min(pairs.capacity, zooms.capacity)
                    if pairs.capacity == room { pairs.grow() }
                    if zooms.capacity == room { zooms.grow() }
                default: return nil
                }
            }
        }}}}
    }

    /// The candidate pairs (entry, entry, highest zoom served) in the order levels use them.
    var candidatePairs: [(UInt32, UInt32, UInt8)] {
        (0..<pairA.count).map { (pairA[$0], pairB[$0], pairZoom[$0]) } + (0..<extraA.count).map { (extraA[$0], extraB[$0], extraZoom[$0]) }
    }

    /// Calls `body(slotA, slotB, xa, ya, xb, yb)` (Float coordinates as Double) for each
    /// candidate pair of zoom `zoom` whose entries are both on the band's lowest level.
    mutating func forEachCandidate(zoom: Int, _ body: (Int, Int, Double, Double, Double, Double) -> Void) {
        let z = UInt8(zoom)
        while pairEnd < pairZoom.count && pairZoom[pairEnd] >= z { pairEnd += 1 }
        @inline(__always) func visit(_ a: Int, _ b: Int) {
            if lowest[a] == Self.onBottom && lowest[b] == Self.onBottom {
                body(Int(slots[a]), Int(slots[b]), Double(x[a]), Double(y[a]), Double(x[b]), Double(y[b]))
            }
        }
        for k in 0..<pairEnd { visit(Int(pairA[k]), Int(pairB[k])) }
        for k in 0..<extraZoom.count where extraZoom[k] >= z { visit(Int(extraA[k]), Int(extraB[k])) }
    }

    /// Marks the entry as last on the band's lowest level (its item merged, or became a cluster).
    mutating func retire(_ e: Int) {
        lowest[e] = UInt8(bottomLevel)
        deadCount += 1
    }

    /// Gives back the band's storage once its levels are finished (the stored levels keep
    /// what they share with it).
    mutating func release() {
        keys = []; x = []; y = []; slots = []; refs = []; highest = []; lowest = []
        pairA = []; pairB = []; pairZoom = []
        extraA = []; extraB = []; extraZoom = []
        overflowKeys = []; overflowEntries = []
    }

    /// Moves the band's lowest level down by one (call `retire` for the level's merged items first).
    mutating func extend(toLevel level: Int) {
        precondition(level == bottomLevel - 1, "levels are added one at a time, downwards")
        bottomLevel = level
    }
}

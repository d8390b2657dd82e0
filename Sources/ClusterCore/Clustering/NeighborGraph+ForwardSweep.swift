import Dispatch

/// The sweep of the slot builder's one-zoom bands (`forwardOnly`, centres by position, keys
/// unshifted), written for its inner loop: it is the build's costliest loop (a fifth of the
/// CPU at a million points, more with clustered data).
///
/// Same candidates, same test and same edges in the same order as `sweep`; it differs only in
/// how the loop is written:
/// - the first entry's Float position, item and centre are read once per entry, not per candidate;
/// - every pointer is a local, so nothing is reloaded after a store;
/// - edges go to a `GrowingBuffer` (no uniqueness check per append).
extension NeighborGraph {
    /// `sweepEdges` through `sweepForward`: the parts' edges copied once into one array.
    static func sweepEdgesForward(_ input: SweepInput, halves: Int, eps: Double, r2: Double, budget: Int,
                                  afterSweep: () -> Void) -> (edges: [UInt64], candidates: Int)? {
        let entries = input.entries
        let buffers = UnsafeMutablePointer<GrowingBuffer<UInt64>>.allocate(capacity: halves)
        let works = UnsafeMutablePointer<Int>.allocate(capacity: halves)
        for h in 0..<halves {
            (buffers + h).initialize(to: GrowingBuffer<UInt64>(capacity: entries / halves))
            works[h] = -1
        }
        var copied = 0  // parts already copied out and freed
        defer {
            for h in copied..<halves { buffers[h].deallocate() }
            buffers.deinitialize(count: halves)
            buffers.deallocate()
            works.deallocate()
        }
        let parts = ForwardParts(buffers: buffers, works: works)
        DispatchQueue.concurrentPerform(iterations: halves) { h in
            parts.works[h] = sweepForward(input, from: entries * h / halves, to: entries * (h + 1) / halves, eps: eps,
                                          r2: r2, budget: budget / halves, into: &parts.buffers[h]) ?? -1
        }
        afterSweep()
        var total = 0, candidates = 0
        for h in 0..<halves {
            if works[h] < 0 { return nil }
            total += buffers[h].count
            candidates += works[h]
        }
        // Each part is freed once copied: at most one and a half lists are resident at once, not
        // two (the build's peak at 10M points is here).
        let edges = [UInt64](unsafeUninitializedCapacity: total) { out, count in
            var at = 0
            for h in 0..<halves {
                (out.baseAddress! + at).update(from: buffers[h].base, count: buffers[h].count)
                at += buffers[h].count
                buffers[h].deallocate()
                copied = h + 1
            }
            count = total
        }
        return (edges, candidates)
    }

    /// The per-part results `sweepEdgesForward`'s threads write (one slot each).
    private struct ForwardParts: @unchecked Sendable {
        let buffers: UnsafeMutablePointer<GrowingBuffer<UInt64>>
        let works: UnsafeMutablePointer<Int>
    }

    /// `sweep` for `input.forwardOnly` with centres given and `shift == 0`; nil past the budget.
    /// The edges are left in `out` (the caller frees it).
    static func sweepForward(_ input: SweepInput, from: Int, to: Int, eps: Double, r2: Double, budget: Int,
                             into out: inout GrowingBuffer<UInt64>) -> Int? {
        let n = input.entries, k = input.keys, width = input.width
        let xs = input.xs, ys = input.ys, item = input.item
        guard let cx = input.cx, let cy = input.cy else { preconditionFailure("sweepForward needs the centres") }
        let dead = LevelBand.dead
        var work = 0
        guard from < to else { return 0 }
        // First position of the rows below, found by binary search for this part's start.
        var p = CellIndex.firstPosition(k, count: n, atLeast: k[from] + width - 1)
        for a in from..<to {
            let ka = k[a]
            let fxa = Double(xs[a]), fya = Double(ys[a]), ia = item[a]
            let cxa = cx[a], cya = cy[a]
            // The test of `check` with `forwardOnly`: from the lower item's centre to the
            // higher item's Float position.
            @inline(__always) func check(_ b: Int) {
                let fxb = Double(xs[b]), fyb = Double(ys[b])
                guard abs(fxa - fxb) <= eps && abs(fya - fyb) <= eps else { return }
                let ib = item[b]
                guard ia != dead && ib != dead else { return }
                if ia < ib {
                    let dx = fxb - cxa, dy = fyb - cya
                    if dx * dx + dy * dy <= r2 { out.append(UInt64(ia) << 32 | UInt64(ib)) }
                } else {
                    let dx = fxa - cx[b], dy = fya - cy[b]
                    if dx * dx + dy * dy <= r2 { out.append(UInt64(ib) << 32 | UInt64(ia)) }
                }
            }
            var b = a + 1
            while b < n && k[b] <= ka + 1 {  // same cell and the next one in the row
                check(b)
                b += 1
            }
            let lo = ka + width - 1, hi = ka + width + 1  // the three cells below
            while p < n && k[p] < lo { p += 1 }
            var q = p
            while q < n && k[q] <= hi {
                check(q)
                q += 1
            }
            work += (b - a - 1) + (q - p)
            if work + (a - from + 1) > budget { return nil }  // the budget counts each item once too
        }
        return work
    }
}

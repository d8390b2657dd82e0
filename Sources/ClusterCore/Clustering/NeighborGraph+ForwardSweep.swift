import CIndexSweep
import Dispatch

/// The sweep of the slot builder's one-zoom bands (`forwardOnly`, centres by position, keys
/// unshifted), written for its inner loop: it is the build's costliest loop (a fifth of the
/// CPU at a million points, more with clustered data).
///
/// Same candidates, same test and same edges in the same order as `sweep`; it differs only in
/// how the loop is written: in C, branch-free per candidate (`Sources/CIndexSweep`), the first
/// entry's Float position, item and centre read once per entry, edges written to a
/// `GrowingBuffer` that grows between entries.
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

    /// Which sweep kernel runs: the portable one when `portable`, else the best for the processor
    /// (AVX2 where it has it). For tests that compare the two; not while an index is built.
    static func usePortableSweep(_ portable: Bool) { cis_force_portable(portable ? 1 : 0) }

    /// Whether the AVX2 sweep kernel runs.
    static var sweepUsesAVX2: Bool { cis_simd_level() == 2 }

    /// `sweep` for `input.forwardOnly` with centres given and `shift == 0`; nil past the budget.
    /// The edges are left in `out` (the caller frees it). The loop is C (`cis_sweep_forward`):
    /// branch-free per candidate (the Swift loop branched on each candidate's tests, whose
    /// outcomes on dense levels are close to coin tosses); it took 1.6–1.8× less CPU at 1M points.
    static func sweepForward(_ input: SweepInput, from: Int, to: Int, eps: Double, r2: Double, budget: Int,
                             into out: inout GrowingBuffer<UInt64>) -> Int? {
        let n = input.entries
        guard let cx = input.cx, let cy = input.cy else { preconditionFailure("sweepForward needs the centres") }
        guard from < to else { return 0 }
        precondition(LevelBand.dead == 0xFFFF_FFFF, "the kernel's dead mark")
        var c = cis_sweep_input(keys: input.keys, xs: input.xs, ys: input.ys, item: input.item, cx: cx, cy: cy,
                                entries: n, width: input.width)
        // First position of the rows below, found by binary search for this part's start.
        var state = cis_sweep_state(a: from, p: CellIndex.firstPosition(input.keys, count: n, atLeast: input.keys[from] + input.width - 1),
                                    work: 0, count: out.count)
        while true {
            var status: Int32 = 0
            out.fill { base, capacity, _ in
                status = cis_sweep_forward(&c, from, to, eps, r2, budget, base, capacity, &state)
                return state.count
            }
            switch status {
            case 0: return state.work
            case 1: out.grow()
            default: return nil
            }
        }
    }
}

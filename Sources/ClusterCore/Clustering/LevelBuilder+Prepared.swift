import Dispatch
import Foundation

extension LevelBuilder {
    /// The first band's columns for a subset of prepared points (`slots` made by
    /// `Slots(prepared:chosen:)`), without sorting or gathering: the prepared cell order,
    /// filtered to the chosen points, is the order `sortAlive` would produce (the same cell
    /// keys; within a cell input order, which is slot order), and its columns are copied in one
    /// sequential pass (a slot and a reference are ranks in the selection's bits, which stay in
    /// cache). Leaves the Double centres in `scratch.cx/cy` with `centres`. Nil when the prepared
    /// points have no order. Two threads for big inputs.
    static func sortPrepared(_ slots: Slots, _ subset: PreparedSubset, centres: Bool,
                             scratch: CellIndex.SortScratch) -> (cell: Double, width: UInt64, columns: PairBand.Columns)? {
        let p = subset.points
        let m = slots.n
        guard !p.order.isEmpty || m == 0 else { return nil }
        guard m > 0 else { return (p.cell, p.width, PairBand.Columns(keys: [], x: [], y: [], slots: [], refs: [])) }
        if centres { scratch.fit(m, centres: true) } else { scratch.releaseCentres() }
        // The chosen (valid) points' bits, and each word's rank: the chosen points before it (a
        // reference) and the chosen valid ones (a slot).
        let words = p.valid.count
        var chosenValid = [UInt64](repeating: 0, count: words)
        var slotRank = [UInt32](repeating: 0, count: words), refRank = [UInt32](repeating: 0, count: words)
        var slotTotal: UInt32 = 0, refTotal: UInt32 = 0
        for w in 0..<words {
            let c = subset.chosen?[w] ?? ~0
            chosenValid[w] = c & p.valid[w]
            slotRank[w] = slotTotal
            refRank[w] = refTotal
            slotTotal &+= UInt32(chosenValid[w].nonzeroBitCount)
            refTotal &+= UInt32(c.nonzeroBitCount)
        }
        precondition(Int(slotTotal) == m, "chosen count")
        buildTrace("prepared ranks")
        let parts = p.order.count >= 131_072 ? 2 : 1
        // A band of several levels gets room for the clusters it will append, as `gatherSorted`
        // gives (without it the first append copied all five columns to bigger ones).
        let capacity = centres ? m : m + m / 4
        var x: [Float] = [], y: [Float] = [], slotColumn: [UInt32] = [], refs: [UInt32] = []
        let keys = [UInt64](unsafeUninitializedCapacity: capacity) { keys, kc in
            x = [Float](unsafeUninitializedCapacity: capacity) { xs, xc in
                y = [Float](unsafeUninitializedCapacity: capacity) { ys, yc in
                    slotColumn = [UInt32](unsafeUninitializedCapacity: capacity) { ss, sc in
                        refs = [UInt32](unsafeUninitializedCapacity: capacity) { rs, rc in
                            let out = PreparedOutput(keys: keys.baseAddress, x: xs.baseAddress, y: ys.baseAddress,
                                                     slots: ss.baseAddress, refs: rs.baseAddress, cx: scratch.cx, cy: scratch.cy)
                            copyChosen(p, subset.chosen, chosenValid, slotRank, refRank, to: out, parts: parts, centres: centres)
                            rc = m
                        }
                        sc = m
                    }
                    yc = m
                }
                xc = m
            }
            kc = m
        }
        buildTrace("prepared columns")
        preparedBands.add()
        return (p.cell, p.width, PairBand.Columns(keys: keys, x: x, y: y, slots: slotColumn, refs: refs))
    }

    /// Copies the chosen entries of the prepared order to `out`, in `parts` parts on as many threads.
    private static func copyChosen(_ p: PreparedPoints, _ chosen: [UInt64]?, _ chosenValid: [UInt64], _ slotRank: [UInt32],
                                   _ refRank: [UInt32], to out: PreparedOutput, parts: Int, centres: Bool) {
        let n = p.order.count
        let cell = p.cell, width = p.width
        let allChosen = [UInt64](repeating: ~0, count: chosen == nil ? 1 : 0)
        p.order.withUnsafeBufferPointer { order in
        p.orderX.withUnsafeBufferPointer { ox in
        p.orderY.withUnsafeBufferPointer { oy in
        chosenValid.withUnsafeBufferPointer { cv in
        (chosen ?? allChosen).withUnsafeBufferPointer { chosenWords in
        slotRank.withUnsafeBufferPointer { slotRank in
        refRank.withUnsafeBufferPointer { refRank in
            let input = PreparedPointers(order: order.baseAddress!, x: ox.baseAddress!, y: oy.baseAddress!,
                                         chosenValid: cv.baseAddress!, chosen: chosen == nil ? nil : chosenWords.baseAddress,
                                         slotRank: slotRank.baseAddress!, refRank: refRank.baseAddress!)
            // How many chosen entries each part has; then each part writes from its start.
            let counts = SendablePointer(UnsafeMutablePointer<Int>.allocate(capacity: parts))
            defer { counts.pointer!.deallocate() }
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                var c = 0
                for k in (n * h / parts)..<(n * (h + 1) / parts) {
                    let i = Int(input.order[k])
                    c &+= Int((input.chosenValid[i >> 6] >> UInt64(i & 63)) & 1)
                }
                counts.pointer![h] = c
            }
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                var o = 0
                for q in 0..<h { o += counts.pointer![q] }
                let end = o + counts.pointer![h]
                // Two copies of the loop, with and without centres (a constant each).
                if centres {
                    copyChosen(input, out, from: n * h / parts, to: n * (h + 1) / parts, at: o, end: end, cell: cell,
                               width: width, centres: true)
                } else {
                    copyChosen(input, out, from: n * h / parts, to: n * (h + 1) / parts, at: o, end: end, cell: cell,
                               width: width, centres: false)
                }
            }
        }}}}}}}
    }

    /// Copies the chosen entries of prepared positions `from..<to` to the columns `at..<end`.
    /// Without a branch per entry (whether an entry is chosen is as hard to predict as the
    /// filter): each entry is written at the next position, which advances only when it is
    /// chosen; the part stops at its last chosen entry, so it never writes past `end`.
    @inline(__always)
    private static func copyChosen(_ input: PreparedPointers, _ out: PreparedOutput, from: Int, to: Int, at start: Int,
                                   end: Int, cell: Double, width: UInt64, centres: Bool) {
        guard let keys = out.keys, let xs = out.x, let ys = out.y, let ss = out.slots, let rs = out.refs else { return }
        var o = start
        var k = from
        while k < to && o < end {
            let i = Int(input.order[k])
            let w = i >> 6, bit = UInt64(i & 63)
            let word = input.chosenValid[w]
            let below = (UInt64(1) << bit) &- 1
            let fx = input.x[k], fy = input.y[k]
            keys[o] = CellIndex.key(fx, fy, cell: cell, width: width)
            xs[o] = fx
            ys[o] = fy
            ss[o] = input.slotRank[w] &+ UInt32((word & below).nonzeroBitCount)
            // A reference counts every chosen point before it, valid or not (every point without a selection).
            if let chosen = input.chosen {
                rs[o] = input.refRank[w] &+ UInt32((chosen[w] & below).nonzeroBitCount)
            } else {
                rs[o] = UInt32(truncatingIfNeeded: i)
            }
            if centres {
                out.cx[o] = Double(fx)
                out.cy[o] = Double(fy)
            }
            o &+= Int((word >> bit) & 1)
            k += 1
        }
    }

    /// How many bands were made from prepared points (tests check that the path is taken).
    static let preparedBands = UseCount()

    /// A count that builds on any thread may add to.
    final class UseCount: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func add() {
            lock.lock()
            value += 1
            lock.unlock()
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    /// What `sortPrepared`'s threads read.
    private struct PreparedPointers: @unchecked Sendable {
        let order: UnsafePointer<UInt32>
        let x: UnsafePointer<Float>
        let y: UnsafePointer<Float>
        let chosenValid: UnsafePointer<UInt64>
        /// The selection's words (nil: every point chosen).
        let chosen: UnsafePointer<UInt64>?
        let slotRank: UnsafePointer<UInt32>
        let refRank: UnsafePointer<UInt32>
    }

    /// The columns `sortPrepared`'s threads write (disjoint parts).
    private struct PreparedOutput: @unchecked Sendable {
        let keys: UnsafeMutablePointer<UInt64>?
        let x: UnsafeMutablePointer<Float>?
        let y: UnsafeMutablePointer<Float>?
        let slots: UnsafeMutablePointer<UInt32>?
        let refs: UnsafeMutablePointer<UInt32>?
        let cx: UnsafeMutablePointer<Double>
        let cy: UnsafeMutablePointer<Double>
    }
}

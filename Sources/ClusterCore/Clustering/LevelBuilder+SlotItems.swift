import Dispatch
import Foundation

extension LevelBuilder {
    /// Per-slot state: the item's reference, Double centre and point count, and whether it is
    /// on the level being read.
    struct Slots: @unchecked Sendable {
        /// One slot's item, in one cache line's part: a merge reads its neighbours' at random.
        struct Item {
            var x: Double
            var y: Double
            var ref: UInt32
            var count: UInt32
        }

        /// How many slots there are: the valid points at first, the alive items after `compact`.
        private(set) var n: Int
        /// How many items `item` has room for (the valid points).
        let capacity: Int
        let item: UnsafeMutablePointer<Item>
        let alive: UnsafeMutablePointer<UInt64>
        /// The alive bits as they were before this level's merges, and the rank of each word.
        let before: UnsafeMutablePointer<UInt64>
        let wordRank: UnsafeMutablePointer<UInt32>
        /// Where `item` comes from and goes back to (nil: the system; see `LargeBuffer`).
        let pool: BuildScratchPool?
        var words: Int { (n + 63) >> 6 }

        /// The valid points, projected to Float unit coordinates (held as Double), in input
        /// order; in parallel chunks for large inputs.
        init(points: [GeoCoordinate]) {
            let count = points.count
            let chunks = count >= 200_000 ? 8 : 1
            let ends = UnsafeMutablePointer<Int>.allocate(capacity: chunks)
            defer { ends.deallocate() }
            let endsp = SendablePointer(ends)
            points.withUnsafeBufferPointer { src in
                let srcp = SendableConstPointer(src.baseAddress)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    var valid = 0
                    if let s = srcp.pointer {
                        for i in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) where s[i].isValid { valid += 1 }
                    }
                    endsp.pointer![chunk] = valid
                }
            }
            for chunk in 1..<chunks { ends[chunk] += ends[chunk - 1] }
            let n = ends[chunks - 1]
            self.n = n
            capacity = n
            pool = nil
            let m = max(n, 1), w = (m + 63) >> 6
            item = LargeBuffer.allocate(Item.self, count: m)
            alive = .allocate(capacity: w); before = .allocate(capacity: w); wordRank = .allocate(capacity: w)
            alive.initialize(repeating: ~0, count: w)
            if n & 63 != 0 { alive[w - 1] = (1 << UInt64(n & 63)) - 1 }
            if n == 0 { alive[0] = 0 }
            let itemp = SendablePointer(item)
            points.withUnsafeBufferPointer { src in
                let srcp = SendableConstPointer(src.baseAddress)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    guard let src = srcp.pointer, let out = itemp.pointer else { return }
                    var slot = chunk == 0 ? 0 : endsp.pointer![chunk - 1]
                    for i in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) where src[i].isValid {
                        let x = Float(WebMercator.x(longitude: src[i].longitude))
                        let y = Float(WebMercator.y(latitude: src[i].latitude))
                        out[slot] = Item(x: Double(x), y: Double(y), ref: UInt32(i), count: 1)
                        slot += 1
                    }
                }
            }
        }

        /// The chosen valid points of `prepared` (all when `chosen` is nil), in input order, with
        /// references counting every chosen point (as `init(points:)` over the chosen points
        /// numbers them): no projection, a copy of the prepared coordinates. The items come from
        /// `pool` when given.
        init(prepared p: PreparedPoints, chosen: [UInt64]?, pool: BuildScratchPool? = nil) {
            let words = p.valid.count
            precondition(chosen == nil || chosen!.count == words, "one selection bit per prepared point")
            let parts = p.count >= 200_000 ? 2 : 1
            // Per part: its first word, chosen points and chosen valid points before it.
            var firstRef = [Int](repeating: 0, count: parts + 1), firstSlot = [Int](repeating: 0, count: parts + 1)
            for h in 0..<parts {
                var refs = 0, slots = 0
                for w in (words * h / parts)..<(words * (h + 1) / parts) {
                    let c = chosen?[w] ?? ~0
                    refs += c.nonzeroBitCount
                    slots += (c & p.valid[w]).nonzeroBitCount
                }
                firstRef[h + 1] = firstRef[h] + refs
                firstSlot[h + 1] = firstSlot[h] + slots
            }
            let n = firstSlot[parts]
            self.n = n
            capacity = n
            self.pool = pool
            let m = max(n, 1), w = (m + 63) >> 6
            item = LargeBuffer.allocate(Item.self, count: m, pool: pool)
            alive = .allocate(capacity: w); before = .allocate(capacity: w); wordRank = .allocate(capacity: w)
            alive.initialize(repeating: ~0, count: w)
            if n & 63 != 0 { alive[w - 1] = (1 << UInt64(n & 63)) - 1 }
            if n == 0 { alive[0] = 0 }
            let out = SendablePointer(item)
            let total = p.count, refStart = firstRef, slotStart = firstSlot
            p.x.withUnsafeBufferPointer { xs in
            p.y.withUnsafeBufferPointer { ys in
            p.valid.withUnsafeBufferPointer { valid in
                let xs = SendableConstPointer(xs.baseAddress), ys = SendableConstPointer(ys.baseAddress)
                let valid = SendableConstPointer(valid.baseAddress)
                DispatchQueue.concurrentPerform(iterations: parts) { h in
                    guard let item = out.pointer, let xs = xs.pointer, let ys = ys.pointer, let valid = valid.pointer else { return }
                    var ref = UInt32(refStart[h]), slot = slotStart[h]
                    for w in (words * h / parts)..<(words * (h + 1) / parts) {
                        var c = chosen?[w] ?? ~0
                        if w == words - 1 && total & 63 != 0 { c &= (1 << UInt64(total & 63)) - 1 }
                        let v = valid[w]
                        while c != 0 {
                            let b = c.trailingZeroBitCount
                            c &= c &- 1
                            if v & (1 << UInt64(b)) != 0 {
                                let i = w << 6 | b
                                item[slot] = Item(x: Double(xs[i]), y: Double(ys[i]), ref: ref, count: 1)
                                slot += 1
                            }
                            ref &+= 1
                        }
                    }
                }
            }}}
        }

        func deallocate() {
            LargeBuffer.free(item, count: max(capacity, 1), pool: pool)
            alive.deallocate(); before.deallocate(); wordRank.deallocate()
        }

        @inline(__always) func isAlive(_ s: Int) -> Bool { alive[s >> 6] & (1 << UInt64(s & 63)) != 0 }
        @inline(__always) func kill(_ s: Int) { alive[s >> 6] &= ~(1 << UInt64(s & 63)) }

        /// Renumbers the slots: the alive ones' items move to the front in slot order (slot s
        /// becomes its rank among the alive slots, so slot order, visiting order and ranks are
        /// unchanged) and the dead ones are dropped; the pages past them go back to the system.
        /// At low zooms most slots are dead (at 10M points, 3M of 10M are alive at zoom 8 and
        /// 1M at zoom 7): their 24 bytes each were the largest dead weight at the build's peak.
        /// In place and serial (an item only moves down); nothing may hold a slot number over it.
        mutating func compact() {
            var k = 0
            for w in 0..<words {
                var bits = alive[w]
                if bits == ~0 && k == w << 6 {
                    k += 64  // a full word already in place
                    continue
                }
                while bits != 0 {
                    let s = w << 6 | bits.trailingZeroBitCount
                    bits &= bits &- 1
                    item[k] = item[s]
                    k += 1
                }
            }
            let newWords = (k + 63) >> 6
            for w in 0..<newWords { alive[w] = ~0 }
            if k & 63 != 0 { alive[newWords - 1] = (1 << UInt64(k & 63)) - 1 }
            if k == 0 { alive[0] = 0 }
            n = k
            LargeBuffer.discardContents(item, from: max(k, 1), count: max(capacity, 1), pool: pool)
        }

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
}

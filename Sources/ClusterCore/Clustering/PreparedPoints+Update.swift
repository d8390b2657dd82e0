import Dispatch
import Foundation

/// Live updates (SPEC §3.4): a few points added, removed or moved. The new point set's prepared
/// points are made from the old one's — only the changed points are projected and sorted, and
/// merged into the old order — instead of projecting and sorting every point again (2.6 s at
/// 10M points on one thread). The result equals `PreparedPoints(points:options:)` of the new
/// points with the old first band's zooms, column for column (`PreparedPointsTests`).
extension PreparedPoints {
    /// How many updates merged into an old order (tests check that the path is taken).
    static let updatesMerged = LevelBuilder.UseCount()

    /// Changes past this share of the points make a fresh preparation (on two threads) instead.
    static let updateShare = 4

    /// The prepared points of `points`, the new version of `oldPoints` (those this was prepared
    /// from): points whose coordinates differ (bit for bit) are prepared again, points past
    /// the old count are new. Removed places may stay as invalid or unchosen points.
    /// - Complexity: O(*n*) sequential passes (two threads), plus O(*k* log *k*) for *k* changes.
    public func updated(points: [GeoCoordinate], from oldPoints: [GeoCoordinate]) -> PreparedPoints {
        precondition(oldPoints.count == count, "the points this was prepared from")
        return updated(points: points, changed: Self.changes(from: oldPoints, to: points))
    }

    /// As above with the changed indices below `count` given (any order, repeats allowed);
    /// indices from `count` on are new.
    public func updated(points: [GeoCoordinate], changed: [Int]) -> PreparedPoints {
        updated(points: points, changed: changed, parts: nil)
    }

    /// As above in `parts` parts on as many threads (nil: two for big inputs); tests compare.
    func updated(points: [GeoCoordinate], changed: [Int], parts wanted: Int?) -> PreparedPoints {
        let n = points.count
        let parts = wanted ?? (n >= Self.parallelFrom ? 2 : 1)
        let fresh = { PreparedPoints(points: points, options: self.options, parts: parts) }  // zooms chosen again
        let newCount = max(0, n - count)
        guard n >= count, changed.count + newCount <= max(n / Self.updateShare, 1024) else { return fresh() }
        let words = (n + 63) >> 6
        var dirty = [UInt64](repeating: 0, count: words)
        var x = self.x, y = self.y, valid = self.valid
        x.append(contentsOf: repeatElement(.nan, count: newCount))
        y.append(contentsOf: repeatElement(.nan, count: newCount))
        valid.append(contentsOf: repeatElement(0, count: words - valid.count))
        func prepareAgain(_ i: Int) {
            let bit = UInt64(1) << UInt64(i & 63)
            dirty[i >> 6] |= bit
            let p = points[i]
            if p.isValid {
                x[i] = Float(WebMercator.x(longitude: p.longitude))
                y[i] = Float(WebMercator.y(latitude: p.latitude))
                valid[i >> 6] |= bit
            } else {
                x[i] = .nan
                y[i] = .nan
                valid[i >> 6] &= ~bit
            }
        }
        for i in changed where i >= 0 && i < count { prepareAgain(i) }
        for i in count..<n { prepareAgain(i) }
        let m = valid.reduce(0) { $0 + $1.nonzeroBitCount }
        // The first band keeps its zooms. Choosing them again from a sample of the new points
        // (as a fresh preparation does) could pick others for a change of a few points — the
        // sample's estimate is rough, and then every cell would change (seen at 10M points:
        // 2.8 s instead of a merge). Any zooms serve (bands change no cluster; a band the data
        // outgrew fails its sweep's budget and the build sorts its own). Keys that no longer
        // fit in 64 bits with an index: not this order's cells.
        guard Self.keysFit(count: n, width: width), m > 0, !order.isEmpty else { return fresh() }
        let lastZoom = self.lastZoom
        let inputBits = Self.inputBits(count: n)
        let cell = self.cell, width = self.width
        // The changed points that are valid now, packed and sorted as the band sorts them.
        var added: [UInt64] = []
        for w in 0..<words {
            var bits = dirty[w] & valid[w]
            while bits != 0 {
                let i = w << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                added.append(CellIndex.key(x[i], y[i], cell: cell, width: width) << inputBits | UInt64(i))
            }
        }
        added.sort()
        Self.updatesMerged.add()
        let merged = merge(added, x: x, y: y, dirty: dirty, inputBits: inputBits, total: m, parts: max(1, min(parts, order.count)))
        return PreparedPoints(count: n, options: options, x: x, y: y, valid: valid, validCount: m, lastZoom: lastZoom,
                              order: merged.order, orderX: merged.x, orderY: merged.y)
    }

    /// The old order without its dirty entries, merged with `added` (packed, ascending; their
    /// coordinates in `x`, `y`) by packed value: `total` entries. In `parts` parts of the old
    /// order, each merging the added entries below the next part's first packed value, on as
    /// many threads.
    private func merge(_ added: [UInt64], x: [Float], y: [Float], dirty: [UInt64], inputBits: Int, total m: Int,
                       parts: Int) -> (order: [UInt32], x: [Float], y: [Float]) {
        let old = order.count, cell = self.cell, width = self.width
        let mask = (UInt64(1) << inputBits) &- 1
        @inline(__always) func packed(_ k: Int) -> UInt64 {
            CellIndex.key(orderX[k], orderY[k], cell: cell, width: width) << inputBits | UInt64(order[k])
        }
        // Part h merges old entries oldStart[h]..<oldStart[h + 1] with added addedStart[h]..<addedStart[h + 1].
        var oldStart = [0], addedStart = [0], outStart = [0]
        for h in 1..<parts {
            let k = old * h / parts
            oldStart.append(k)
            let pivot = packed(k)
            var lo = addedStart[h - 1], hi = added.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if added[mid] < pivot { lo = mid + 1 } else { hi = mid }
            }
            addedStart.append(lo)
        }
        oldStart.append(old)
        addedStart.append(added.count)
        // Clean (kept) old entries per part: where each part writes.
        for h in 0..<parts {
            var clean = 0
            for k in oldStart[h]..<oldStart[h + 1] {
                let i = Int(order[k])
                clean &+= Int(1 &- ((dirty[i >> 6] >> UInt64(i & 63)) & 1))
            }
            outStart.append(outStart[h] + clean + addedStart[h + 1] - addedStart[h])
        }
        precondition(outStart[parts] == m, "merged count")
        var ox: [Float] = [], oy: [Float] = []
        let result = [UInt32](unsafeUninitializedCapacity: m) { ob, oc in
            ox = [Float](unsafeUninitializedCapacity: m) { xb, xc in
                oy = [Float](unsafeUninitializedCapacity: m) { yb, yc in
                    let out = (SendablePointer(ob.baseAddress), SendablePointer(xb.baseAddress), SendablePointer(yb.baseAddress))
                    let me = self
                    let ranges = (oldStart, addedStart, outStart)
                    DispatchQueue.concurrentPerform(iterations: parts) { h in
                        guard let o = out.0.pointer, let xo = out.1.pointer, let yo = out.2.pointer else { return }
                        me.mergePart(added, x: x, y: y, dirty: dirty, old: ranges.0[h]..<ranges.0[h + 1],
                                     added: ranges.1[h]..<ranges.1[h + 1], at: ranges.2[h], mask: mask,
                                     inputBits: inputBits, into: (o, xo, yo))
                    }
                    yc = m
                }
                xc = m
            }
            oc = m
        }
        return (result, ox, oy)
    }

    /// One part of `merge`: writes from `at` on.
    private func mergePart(_ added: [UInt64], x: [Float], y: [Float], dirty: [UInt64], old: Range<Int>, added addedRange: Range<Int>, at: Int,
                           mask: UInt64, inputBits: Int,
                           into out: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let cell = self.cell, width = self.width
        var o = at, a = addedRange.lowerBound
        @inline(__always) func emitAdded(_ v: UInt64) {
            let i = Int(v & mask)
            out.0[o] = UInt32(truncatingIfNeeded: i)
            out.1[o] = x[i]
            out.2[o] = y[i]
            o += 1
        }
        for k in old {
            let i = Int(order[k])
            if (dirty[i >> 6] >> UInt64(i & 63)) & 1 != 0 { continue }
            let fx = orderX[k], fy = orderY[k]
            let v = CellIndex.key(fx, fy, cell: cell, width: width) << inputBits | UInt64(i)
            while a < addedRange.upperBound && added[a] < v {
                emitAdded(added[a])
                a += 1
            }
            out.0[o] = UInt32(truncatingIfNeeded: i)
            out.1[o] = fx
            out.2[o] = fy
            o += 1
        }
        while a < addedRange.upperBound {
            emitAdded(added[a])
            a += 1
        }
    }

    /// The indices below `old.count` whose coordinates differ bit for bit (on two threads for
    /// big inputs).
    static func changes(from old: [GeoCoordinate], to new: [GeoCoordinate]) -> [Int] {
        let n = min(old.count, new.count)
        let parts = n >= parallelFrom ? 2 : 1
        let found = ChangedIndices(parts)
        old.withUnsafeBufferPointer { a in
        new.withUnsafeBufferPointer { b in
            let a = SendableConstPointer(a.baseAddress), b = SendableConstPointer(b.baseAddress)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                guard let a = a.pointer, let b = b.pointer else { return }
                var list: [Int] = []
                for i in (n * h / parts)..<(n * (h + 1) / parts)
                where a[i].latitude.bitPattern != b[i].latitude.bitPattern || a[i].longitude.bitPattern != b[i].longitude.bitPattern {
                    list.append(i)
                }
                found.set(h, list)
            }
        }}
        return found.lists.flatMap { $0 }
    }
}

/// Per-part lists of changed indices, written under a lock.
private final class ChangedIndices: @unchecked Sendable {
    private(set) var lists: [[Int]]
    private let lock = NSLock()

    init(_ parts: Int) { lists = Array(repeating: [], count: parts) }

    func set(_ h: Int, _ list: [Int]) {
        lock.lock()
        lists[h] = list
        lock.unlock()
    }
}

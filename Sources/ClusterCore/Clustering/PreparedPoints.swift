import Dispatch
import Foundation

/// The part of a hierarchical build that every filtered build of one point set shares, done
/// once: the points projected to the unit Web Mercator square (as the build projects them) and
/// sorted into the cells of the build's first band. `SubsetClusterer(…, prepared:)` then builds
/// a subset without projecting its points or sorting its first (largest) band: it filters this
/// order, which keeps it sorted (the subset's slots are in input order, as here).
///
/// Only how fast a subset builds depends on it, never a cluster: the subset's levels are the
/// same whatever its bands (`FilteredClusteringTests` compares them with fresh builds).
/// About 20 bytes per point; immutable, so any thread may use it. Made on two threads for big
/// inputs (the same columns as on one: `PreparedPointsTests`); after a live update,
/// `updated(points:from:)` makes the new set's from the old one's without sorting again.
public final class PreparedPoints: @unchecked Sendable {
    /// The number of points it was prepared from (a subset's selection must have as many).
    public let count: Int
    /// The options it was prepared for (normalised as the build normalises them).
    let options: HierarchicalClusterer.Options
    /// Per input point: projected Float coordinates (NaN for an invalid point).
    let x: [Float]
    let y: [Float]
    /// Valid input points, one bit each (as `PointSelection` packs them).
    let valid: [UInt64]
    let validCount: Int
    /// The first band's lowest zoom and cells (as a build of all the points would choose them).
    let lastZoom: Int
    let cell: Double
    let width: UInt64
    /// The valid points in the first band's cell order (within a cell, input order): input index
    /// and Float coordinates; empty when a cell key and an input index don't fit in 64 bits
    /// together (then subsets sort their band themselves).
    let order: [UInt32]
    let orderX: [Float]
    let orderY: [Float]
    /// The large scratch the subset builds of these points reuse from one build to the next
    /// (empty until the first build; see `BuildScratchPool`). `release()` it when no filter is
    /// shown: it holds about what one build of the largest subset needed.
    public let scratchPool = BuildScratchPool()

    /// Inputs from this many points are prepared on two threads.
    static let parallelFrom = 65_536

    /// Projects and sorts `points` for hierarchical builds with `options` (subsets built with
    /// other options, or by the grid, ignore it).
    /// - Complexity: O(*n*), about the cost of a build's first band; two threads for big inputs.
    public convenience init(points: [GeoCoordinate], options: HierarchicalClusterer.Options = HierarchicalClusterer.Options()) {
        self.init(points: points, options: options, parts: nil)
    }

    /// As above in `parts` parts on as many threads (nil: two for big inputs, else one); the
    /// result doesn't depend on them (tests compare). `lastZoom` forces the first band's lowest
    /// zoom (nil: chosen as a build of all the points chooses it).
    init(points: [GeoCoordinate], options: HierarchicalClusterer.Options, parts wanted: Int?, lastZoom forced: Int? = nil) {
        let options = options.normalized
        self.options = options
        let n = points.count
        count = n
        let projected = Self.project(points, parts: wanted ?? (n >= Self.parallelFrom ? 2 : 1))
        (x, y, valid) = (projected.x, projected.y, projected.valid)
        let m = projected.validBefore.last!
        validCount = m
        lastZoom = forced ?? Self.firstBandZoom(options, x: x, y: y, valid: valid, validCount: m)
        (cell, width) = Self.cells(options, lastZoom: lastZoom)
        guard Self.keysFit(count: n, width: width), m > 0 else {
            (order, orderX, orderY) = ([], [], [])
            return
        }
        (order, orderX, orderY) = Self.sortedOrder(x: x, y: y, valid: valid, validBefore: projected.validBefore,
                                                   count: n, cell: cell, width: width)
    }

    /// All fields given (`updated`).
    init(count: Int, options: HierarchicalClusterer.Options, x: [Float], y: [Float], valid: [UInt64], validCount: Int,
         lastZoom: Int, order: [UInt32], orderX: [Float], orderY: [Float]) {
        self.count = count
        self.options = options
        self.x = x
        self.y = y
        self.valid = valid
        self.validCount = validCount
        self.lastZoom = lastZoom
        (cell, width) = Self.cells(options, lastZoom: lastZoom)
        self.order = order
        self.orderX = orderX
        self.orderY = orderY
    }

    /// Whether a build with `options` can use it (the same zooms and radius; `minPoints ≤ 2`,
    /// the slot builder's case).
    func serves(_ options: HierarchicalClusterer.Options) -> Bool {
        let o = options.normalized
        return o.minPoints <= 2 && o.minZoom == self.options.minZoom && o.maxZoom == self.options.maxZoom
            && o.radius == self.options.radius && o.extent == self.options.extent
    }

    // MARK: - Steps (shared with `updated`)

    /// Bits of an input index among `count` points.
    static func inputBits(count n: Int) -> Int { n <= 1 ? 0 : 64 - UInt64(n - 1).leadingZeroBitCount }

    /// Whether a cell key (of a grid `width` wide) and an input index fit in 64 bits together.
    static func keysFit(count n: Int, width: UInt64) -> Bool {
        64 - (width * width).leadingZeroBitCount + inputBits(count: n) <= 64
    }

    /// The first band's cells for its lowest zoom `lastZoom`.
    static func cells(_ options: HierarchicalClusterer.Options, lastZoom: Int) -> (cell: Double, width: UInt64) {
        let r = options.radius / (options.extent * pow(2, Double(lastZoom)))
        let cell = CellIndex.cellSize(minimum: NeighborGraph.cellSize(radius: r))
        return (cell, UInt64(1 / cell) + 3)
    }

    /// The first band's lowest zoom, as `buildBySlots` chooses it for all the valid points (the
    /// same sample: every `step`-th valid point, in input order).
    static func firstBandZoom(_ options: HierarchicalClusterer.Options, x: [Float], y: [Float], valid: [UInt64],
                              validCount m: Int) -> Int {
        func radius(_ z: Int) -> Double { options.radius / (options.extent * pow(2, Double(z))) }
        let level = options.maxZoom + 1
        var lastZoom = max(options.minZoom, options.maxZoom + 1 - 8)
        while level - 1 > lastZoom && !LevelBuilder.sweepLikelyFits(slots: m, count: m,
                                                                    cell: NeighborGraph.cellSize(radius: radius(lastZoom)),
                                                                    sample: { step, add in
            var slot = 0, target = 0
            for w in 0..<valid.count where target < m {
                let bits = valid[w], c = bits.nonzeroBitCount
                while target < slot + c {
                    var b = bits
                    for _ in 0..<(target - slot) { b &= b &- 1 }
                    let i = w << 6 | b.trailingZeroBitCount
                    add(x[i], y[i])
                    target += step
                }
                slot += c
            }
        }) {
            lastZoom = level - (level - lastZoom) / 2
        }
        return lastZoom
    }

    /// The points projected as `Slots(points:)` projects them (NaN when invalid), their valid
    /// bits, and the valid points before each part (the last: all of them). Parts are whole
    /// words of the bits, each on its own thread.
    static func project(_ points: [GeoCoordinate], parts wanted: Int)
        -> (x: [Float], y: [Float], valid: [UInt64], validBefore: [Int]) {
        let n = points.count, words = (n + 63) >> 6
        let parts = max(1, min(wanted, words))
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: parts)
        defer { counts.deallocate() }
        let countsp = SendablePointer(counts)
        var y: [Float] = [], valid: [UInt64] = []
        let x = [Float](unsafeUninitializedCapacity: n) { xs, xc in
            y = [Float](unsafeUninitializedCapacity: n) { ys, yc in
                valid = [UInt64](unsafeUninitializedCapacity: words) { vs, vc in
                    points.withUnsafeBufferPointer { src in
                        let s = SendableConstPointer(src.baseAddress), xo = SendablePointer(xs.baseAddress)
                        let yo = SendablePointer(ys.baseAddress), vo = SendablePointer(vs.baseAddress)
                        DispatchQueue.concurrentPerform(iterations: parts) { h in
                            var c = 0
                            for w in (words * h / parts)..<(words * (h + 1) / parts) {
                                guard let s = s.pointer, let xo = xo.pointer, let yo = yo.pointer else { break }
                                var bits: UInt64 = 0
                                for i in (w << 6)..<min(n, (w + 1) << 6) {
                                    let p = s[i]
                                    if p.isValid {
                                        xo[i] = Float(WebMercator.x(longitude: p.longitude))
                                        yo[i] = Float(WebMercator.y(latitude: p.latitude))
                                        bits |= 1 << UInt64(i & 63)
                                    } else {
                                        xo[i] = .nan
                                        yo[i] = .nan
                                    }
                                }
                                vo.pointer![w] = bits
                                c += bits.nonzeroBitCount
                            }
                            countsp.pointer![h] = c
                        }
                    }
                    vc = words
                }
                yc = n
            }
            xc = n
        }
        var before = [0]
        for h in 0..<parts { before.append(before[h] + counts[h]) }
        return (x, y, valid, before)
    }

    /// The valid points in cell order (then input order): input index and Float coordinates.
    /// Keys are packed and sorted as a build's band sorts them; filling and reading them runs in
    /// the parts of `validBefore` (whole words), each on its own thread.
    static func sortedOrder(x: [Float], y: [Float], valid: [UInt64], validBefore: [Int], count n: Int, cell: Double,
                            width: UInt64) -> (order: [UInt32], x: [Float], y: [Float]) {
        let m = validBefore.last!, parts = validBefore.count - 1, words = valid.count
        let keyBits = 64 - (width * width).leadingZeroBitCount
        let inputBits = Self.inputBits(count: n)
        let scratch = CellIndex.SortScratch(capacity: m)
        let sorted = SendablePointer(scratch.sorted)
        x.withUnsafeBufferPointer { xs in
        y.withUnsafeBufferPointer { ys in
        valid.withUnsafeBufferPointer { vs in
            let xs = SendableConstPointer(xs.baseAddress), ys = SendableConstPointer(ys.baseAddress)
            let vs = SendableConstPointer(vs.baseAddress)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                guard let xs = xs.pointer, let ys = ys.pointer, let vs = vs.pointer, let out = sorted.pointer else { return }
                var s = validBefore[h]
                for w in (words * h / parts)..<(words * (h + 1) / parts) {
                    var bits = vs[w]
                    while bits != 0 {
                        let i = w << 6 | bits.trailingZeroBitCount
                        bits &= bits &- 1
                        out[s] = CellIndex.key(xs[i], ys[i], cell: cell, width: width) << inputBits | UInt64(i)
                        s += 1
                    }
                }
            }
        }}}
        CellIndex.radixSortPacked(scratch, count: m, lowBit: inputBits, bits: keyBits)
        let mask = (UInt64(1) << inputBits) &- 1
        let done = SendableConstPointer(UnsafePointer(scratch.sorted))
        var ox: [Float] = [], oy: [Float] = []
        let order = [UInt32](unsafeUninitializedCapacity: m) { ob, oc in
            ox = [Float](unsafeUninitializedCapacity: m) { xb, xc in
                oy = [Float](unsafeUninitializedCapacity: m) { yb, yc in
                    x.withUnsafeBufferPointer { xs in
                    y.withUnsafeBufferPointer { ys in
                        let xs = SendableConstPointer(xs.baseAddress), ys = SendableConstPointer(ys.baseAddress)
                        let o = SendablePointer(ob.baseAddress), xo = SendablePointer(xb.baseAddress)
                        let yo = SendablePointer(yb.baseAddress)
                        DispatchQueue.concurrentPerform(iterations: parts) { h in
                            guard let xs = xs.pointer, let ys = ys.pointer, let sorted = done.pointer, let o = o.pointer,
                                  let xo = xo.pointer, let yo = yo.pointer else { return }
                            for k in (m * h / parts)..<(m * (h + 1) / parts) {
                                let i = Int(sorted[k] & mask)
                                o[k] = UInt32(truncatingIfNeeded: i)
                                xo[k] = xs[i]
                                yo[k] = ys[i]
                            }
                        }
                    }}
                    yc = m
                }
                xc = m
            }
            oc = m
        }
        return (order, ox, oy)
    }
}

extension HierarchicalClusterer.Options {
    /// The options as a build uses them: zooms within 0…30, `minZoom ≤ maxZoom`, node size 2…65535.
    var normalized: Self {
        var o = self
        o.maxZoom = min(max(o.maxZoom, 0), 30)
        o.minZoom = min(max(o.minZoom, 0), o.maxZoom)
        o.nodeSize = min(max(o.nodeSize, 2), 65535)
        return o
    }
}

extension LevelBuilder {
    /// A subset of prepared points to build: the chosen input points (nil: all), of which the
    /// build's input is exactly the chosen ones in input order.
    struct PreparedSubset {
        let points: PreparedPoints
        let chosen: [UInt64]?
    }
}

import Foundation

/// The part of a hierarchical build that every filtered build of one point set shares, done
/// once: the points projected to the unit Web Mercator square (as the build projects them) and
/// sorted into the cells of the build's first band. `SubsetClusterer(…, prepared:)` then builds
/// a subset without projecting its points or sorting its first (largest) band: it filters this
/// order, which keeps it sorted (the subset's slots are in input order, as here).
///
/// Only how fast a subset builds depends on it, never a cluster: the subset's levels are the
/// same whatever its bands (`FilteredClusteringTests` compares them with fresh builds).
/// About 20 bytes per point; immutable, so any thread may use it.
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

    /// Projects and sorts `points` for hierarchical builds with `options` (subsets built with
    /// other options, or by the grid, ignore it).
    /// - Complexity: O(*n*), about the cost of a build's first band.
    public init(points: [GeoCoordinate], options: HierarchicalClusterer.Options = HierarchicalClusterer.Options()) {
        let options = options.normalized
        self.options = options
        let n = points.count
        count = n
        let slots = LevelBuilder.Slots(points: points)
        defer { slots.deallocate() }
        var x = [Float](repeating: .nan, count: n), y = [Float](repeating: .nan, count: n)
        var valid = [UInt64](repeating: 0, count: (n + 63) >> 6)
        for s in 0..<slots.n {
            let item = slots.item[s], i = Int(item.ref)
            x[i] = Float(item.x)
            y[i] = Float(item.y)
            valid[i >> 6] |= 1 << UInt64(i & 63)
        }
        self.x = x
        self.y = y
        self.valid = valid
        validCount = slots.n
        // The first band's zooms, as `buildBySlots` chooses them for all the points.
        func radius(_ z: Int) -> Double { options.radius / (options.extent * pow(2, Double(z))) }
        let level = options.maxZoom + 1
        var lastZoom = max(options.minZoom, options.maxZoom + 1 - 8)
        while level - 1 > lastZoom
            && !LevelBuilder.sweepLikelyFits(slots, count: slots.n, cell: NeighborGraph.cellSize(radius: radius(lastZoom))) {
            lastZoom = level - (level - lastZoom) / 2
        }
        self.lastZoom = lastZoom
        let cell = CellIndex.cellSize(minimum: NeighborGraph.cellSize(radius: radius(lastZoom)))
        let width = UInt64(1 / cell) + 3
        self.cell = cell
        self.width = width
        let keyBits = 64 - (width * width).leadingZeroBitCount
        let inputBits = n <= 1 ? 0 : 64 - UInt64(n - 1).leadingZeroBitCount
        let m = slots.n
        guard keyBits + inputBits <= 64, m > 0 else {
            (order, orderX, orderY) = ([], [], [])
            return
        }
        let scratch = CellIndex.SortScratch(capacity: m)
        for s in 0..<m {
            let item = slots.item[s]
            scratch.sorted[s] = CellIndex.key(Float(item.x), Float(item.y), cell: cell, width: width) << inputBits
                | UInt64(item.ref)
        }
        CellIndex.radixSortPacked(scratch, count: m, lowBit: inputBits, bits: keyBits)
        let mask = (UInt64(1) << inputBits) &- 1
        let order = [UInt32](unsafeUninitializedCapacity: m) { b, c in
            for k in 0..<m { b[k] = UInt32(truncatingIfNeeded: scratch.sorted[k] & mask) }
            c = m
        }
        self.order = order
        orderX = order.map { x[Int($0)] }
        orderY = order.map { y[Int($0)] }
    }

    /// Whether a build with `options` can use it (the same zooms and radius; `minPoints ≤ 2`,
    /// the slot builder's case).
    func serves(_ options: HierarchicalClusterer.Options) -> Bool {
        let o = options.normalized
        return o.minPoints <= 2 && o.minZoom == self.options.minZoom && o.maxZoom == self.options.maxZoom
            && o.radius == self.options.radius && o.extent == self.options.extent
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

/// A static 2-D index of points (a flat kd-tree in the manner of Mapbox `kdbush`).
///
/// Build it once from all points, then query it. Items are stored in two flat arrays, the
/// kd-sorted ids and their interleaved coordinates; a node is a range of those arrays, so the
/// tree itself takes no memory. Leaves of up to `nodeSize` items are scanned linearly.
///
/// `Scalar` is the coordinate storage: `Double` (``KDTree``) or `Float` (half the memory, the
/// precision supercluster's indexes use).
public struct StaticKDTree<Scalar: BinaryFloatingPoint & Sendable>: Sendable {
    /// The largest number of items in a leaf that is scanned linearly.
    public let nodeSize: Int
    /// Item ids in tree order: `ids[position]` is the index the item had in the input.
    public internal(set) var ids: [UInt32]
    /// Coordinates in tree order, interleaved: `coords[2 * position]` is x, `+ 1` is y.
    public private(set) var coords: [Scalar]

    /// The number of items.
    public var count: Int { ids.count }

    /// Indexes points given as separate x and y arrays of equal length.
    /// - Complexity: O(*n* log *n*).
    public init(x: [Double], y: [Double], nodeSize: Int = 64) {
        precondition(x.count == y.count, "x and y must have the same length")
        var coords = [Scalar](repeating: 0, count: 2 * x.count)
        for i in 0..<x.count {
            coords[2 * i] = Scalar(x[i])
            coords[2 * i + 1] = Scalar(y[i])
        }
        self.init(interleaved: coords, nodeSize: nodeSize)
    }

    /// Indexes points given as interleaved coordinates (`x0, y0, x1, y1, …`); ids are 0, 1, 2, ….
    /// - Complexity: O(*n* log *n*).
    public init(interleaved coords: [Scalar], nodeSize: Int = 64, parallel: Bool = false) {
        precondition(coords.count % 2 == 0, "interleaved coordinates come in pairs")
        let n = coords.count / 2
        precondition(n < Int(UInt32.max), "too many items for 32-bit ids")
        self.nodeSize = min(max(nodeSize, 2), 65535)
        var ids = [UInt32](repeating: 0, count: n)
        for i in 0..<n { ids[i] = UInt32(truncatingIfNeeded: i) }
        var coords = coords
        let nodeSize = self.nodeSize
        ids.withUnsafeMutableBufferPointer { idp in
            coords.withUnsafeMutableBufferPointer { cp in
                guard n > 0 else { return }
                let buffers = KDBuffers(ids: idp.baseAddress!, coords: cp.baseAddress!)
                if parallel {
                    buffers.parallelSort(nodeSize: nodeSize, left: 0, right: n - 1, axis: 0, depth: 1)
                } else {
                    buffers.sort(nodeSize: nodeSize, left: 0, right: n - 1, axis: 0)
                }
            }
        }
        self.ids = ids
        self.coords = coords
    }

    /// The ids of the items inside the box (edges included), in tree order.
    /// - Complexity: O(√*n* + *k*) for *k* results.
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int] {
        var result: [Int] = []
        forEachPosition(inRangeMinX: minX, minY: minY, maxX: maxX, maxY: maxY) { result.append(Int(ids[$0])) }
        return result
    }

    /// The ids of the items within `radius` of (x, y) (boundary included), in tree order.
    /// - Complexity: O(√*n* + *k*) for *k* results.
    public func within(x: Double, y: Double, radius: Double) -> [Int] {
        var result: [Int] = []
        forEachPosition(withinRadius: radius, ofX: x, y: y) { result.append(Int(ids[$0])) }
        return result
    }

    /// Appends the ids of the items inside the box to `buffer` (no allocation once it has capacity).
    /// - Complexity: O(√*n* + *k*) for *k* results.
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double, into buffer: inout [UInt32]) {
        ids.withUnsafeBufferPointer { idp in
            forEachPosition(inRangeMinX: minX, minY: minY, maxX: maxX, maxY: maxY) { buffer.append(idp[$0]) }
        }
    }

    /// Appends the ids of the items within `radius` of (x, y) to `buffer`.
    /// - Complexity: O(√*n* + *k*) for *k* results.
    public func within(x: Double, y: Double, radius: Double, into buffer: inout [UInt32]) {
        ids.withUnsafeBufferPointer { idp in
            forEachPosition(withinRadius: radius, ofX: x, y: y) { buffer.append(idp[$0]) }
        }
    }

    /// Calls `body` with the tree position of each item inside the box; `ids[position]` and
    /// `coords[2 * position]` describe it. Allocation-free.
    /// - Complexity: O(√*n* + *k*) for *k* results.
    public func forEachPosition(inRangeMinX minX: Double, minY: Double, maxX: Double, maxY: Double,
                                _ body: (Int) -> Void) {
        let n = count
        let nodeSize = self.nodeSize
        coords.withUnsafeBufferPointer { cp in
            guard n > 0 else { return }
            KDCoords(cp.baseAddress!)
                .forEachInRange(count: n, nodeSize: nodeSize, minX: minX, minY: minY, maxX: maxX, maxY: maxY, body)
        }
    }

    /// Calls `body` with the tree position of each item within `radius` of (x, y). Allocation-free.
    /// - Complexity: O(√*n* + *k*) for *k* results.
    public func forEachPosition(withinRadius radius: Double, ofX x: Double, y: Double, _ body: (Int) -> Void) {
        let n = count
        let nodeSize = self.nodeSize
        coords.withUnsafeBufferPointer { cp in
            guard n > 0 else { return }
            KDCoords(cp.baseAddress!)
                .forEachWithin(count: n, nodeSize: nodeSize, qx: x, qy: y, r: radius, body)
        }
    }
}

/// A static kd-tree with `Double` coordinates.
public typealias KDTree = StaticKDTree<Double>

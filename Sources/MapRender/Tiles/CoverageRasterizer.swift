import CCairo
import CTileRaster

/// A scanline rasterizer with exact area coverage (the signed-area accumulation method of
/// font-rs / stb_truetype), used to paint vector tiles and the base map's wide lines.
///
/// Why not cairo: on this project's 2-core machine cairo needs about 15 µs per small shape
/// (1,434 buildings of a Leipzig tile take 20 ms to fill and 40 ms more to outline), which puts a
/// dense street tile at 60–120 ms against a 15 ms budget. Accumulating the signed area each edge
/// adds to the pixels it crosses, then a running sum per row, costs a few operations per edge
/// per row plus one pass over the pixels touched, whatever the number of shapes.
///
/// Edges are collected first and accumulated one band of rows at a time when compositing: the
/// band's cells and pixels stay in the processor's cache, where accumulating into a whole-tile
/// buffer in the order edges arrive missed the cache on most rows (a third of a tile's paint).
///
/// Shapes added between two `composite` calls form one union (coverage is |winding| clamped to 1,
/// so holes wound the other way — as MVT requires — cut out, and overlaps don't darken).
final class CoverageRasterizer {
    let width: Int
    let height: Int

    /// An edge as collected: its top (`y0`, clipped to the surface, and `x0` there), its bottom,
    /// slope and direction, and the rows it covers (`firstRow`, whose band is `firstRow >> bandShift`,
    /// and ⌈bottom⌉ − 1). Floats: tile coordinates need far less than their precision, and half the
    /// bytes stream faster through the band buffers. x is computed afresh on every row from the top
    /// (no error carried from row to row or band to band). A C struct: `accumulate.c` reads them.
    typealias Edge = ctr_edge

    static let bandShift = 4
    static let bandRows = 1 << bandShift
    static let blockShift = 3

    // Raw buffers rather than arrays: the inner loops run millions of times per tile, and array
    // properties of a class pay an exclusivity check on every access.
    /// Per band, the edges whose top row lies in it, in the order added (`bandFill` of them, room
    /// for `bandRoom`): filed as they are added, so compositing needs no sort.
    let bandEdges: UnsafeMutablePointer<UnsafeMutablePointer<Edge>>
    let bandFill: UnsafeMutablePointer<Int>
    let bandRoom: UnsafeMutablePointer<Int>
    /// Edges added since the last composite.
    var edgeCount = 0
    /// The edges still reaching into the band being composited, from the bands above it.
    var carried: UnsafeMutablePointer<Edge>
    var carriedRoom: Int
    let bandCount: Int
    /// One band of cells (`bandRows` rows of `width + 2`: an edge at the right border writes one
    /// cell past it), with the span of cells written per row.
    let cells: UnsafeMutablePointer<Float>
    /// Per band row, a bit per 8-cell block that some edge wrote to (`wordsPerRow` words):
    /// compositing visits only those, by their set bits, and fills or skips the stretches
    /// between them without reading cells (most of a row, on a tile of small shapes).
    let touched: UnsafeMutablePointer<UInt64>
    let wordsPerRow: Int

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        bandCount = (self.height + Self.bandRows - 1) >> Self.bandShift
        bandEdges = .allocate(capacity: bandCount)
        bandFill = .allocate(capacity: bandCount)
        bandFill.initialize(repeating: 0, count: bandCount)
        bandRoom = .allocate(capacity: bandCount)
        bandRoom.initialize(repeating: 256, count: bandCount)
        for b in 0..<bandCount { bandEdges[b] = .allocate(capacity: 256) }
        carriedRoom = 256
        carried = .allocate(capacity: carriedRoom)
        let cellCount = (self.width + 2) * Self.bandRows
        cells = .allocate(capacity: cellCount)
        cells.initialize(repeating: 0, count: cellCount)
        wordsPerRow = ((self.width + 1) >> Self.blockShift) >> 6 + 1
        touched = .allocate(capacity: wordsPerRow * Self.bandRows)
        touched.initialize(repeating: 0, count: wordsPerRow * Self.bandRows)
    }

    deinit {
        for b in 0..<bandCount { bandEdges[b].deallocate() }
        bandEdges.deallocate()
        bandFill.deallocate()
        bandRoom.deallocate()
        carried.deallocate()
        cells.deallocate()
        touched.deallocate()
    }

    /// Adds a directed edge (device pixels). Closed shapes must add all their edges.
    @inline(__always)
    func addEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        // One test for the four coordinates: a sum of finite numbers is finite (or overflows,
        // which coordinates of a tile never come near).
        guard y0 != y1, (x0 + y0 + x1 + y1).isFinite else { return }
        let (ax, ay, bx, by, dir): (Double, Double, Double, Double, Float) = y0 < y1 ? (x0, y0, x1, y1, 1) : (x1, y1, x0, y0, -1)
        // Above, below or wholly right of the raster: no visible pixel sees it (the running sum
        // of a row goes left to right, so cells right of the last column only feed the spare one).
        // Left of it is kept: column 0 accumulates its winding.
        guard by > 0, ay < Double(height), min(ax, bx) < Double(width) else { return }
        let dxdy = (bx - ax) / (by - ay)
        let top = max(0, ay), bottom = min(by, Double(height))
        // ⌈bottom⌉ − 1 without `rounded(.up)` (a libm call on baseline x86-64); bottom is above 0.
        var lastRow = Int(bottom)
        if Double(lastRow) == bottom { lastRow -= 1 }
        let firstRow = Int(top)
        let band = firstRow &>> Self.bandShift
        let n = bandFill[band]
        if n == bandRoom[band] { growBand(band) }
        bandEdges[band][n] = Edge(x0: Float(ax + (top - ay) * dxdy), y0: Float(top), bottom: Float(bottom),
                                  dxdy: Float(dxdy), dir: dir, firstRow: Int32(truncatingIfNeeded: firstRow),
                                  lastRow: Int32(truncatingIfNeeded: max(firstRow, lastRow)))
        bandFill[band] = n &+ 1
        edgeCount &+= 1
    }

    private func growBand(_ band: Int) {
        bandEdges[band] = Self.moved(bandEdges[band], count: bandFill[band], toCapacity: bandRoom[band] * 2)
        bandRoom[band] *= 2
    }

    /// Makes room for `n` carried edges, keeping the first `count`.
    func reserveCarried(_ n: Int, keeping count: Int) {
        guard n > carriedRoom else { return }
        carriedRoom = max(n, carriedRoom * 2)
        carried = Self.moved(carried, count: count, toCapacity: carriedRoom)
    }

    /// A new buffer of `capacity` edges holding the first `count` of `old`, which is freed.
    private static func moved(_ old: UnsafeMutablePointer<Edge>, count: Int, toCapacity capacity: Int) -> UnsafeMutablePointer<Edge> {
        let e = UnsafeMutablePointer<Edge>.allocate(capacity: capacity)
        e.moveInitialize(from: old, count: count)
        old.deallocate()
        return e
    }

    /// Adds a closed polygon ring.
    func addRing(_ xs: [Double], _ ys: [Double]) {
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                guard let xb = x.baseAddress, let yb = y.baseAddress else { return }
                addRing(xb, yb, count: min(x.count, y.count))
            }
        }
    }

    /// Adds a closed polygon ring of `count` points.
    func addRing(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, count: Int) {
        guard count >= 3 else { return }
        var px = xs[count - 1], py = ys[count - 1]
        for i in 0..<count {
            addEdge(px, py, xs[i], ys[i])
            px = xs[i]; py = ys[i]
        }
    }

    /// Adds a convex quadrilateral given in either orientation (always counted positively, so
    /// stroke pieces of one line never cancel each other).
    func addQuad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                 _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        let area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        if area >= 0 {
            addEdge(x0, y0, x1, y1); addEdge(x1, y1, x2, y2); addEdge(x2, y2, x3, y3); addEdge(x3, y3, x0, y0)
        } else {
            addEdge(x0, y0, x3, y3); addEdge(x3, y3, x2, y2); addEdge(x2, y2, x1, y1); addEdge(x1, y1, x0, y0)
        }
    }

    /// Drops the edges collected so far (nothing is drawn).
    func discard() {
        bandFill.update(repeating: 0, count: bandCount)
        edgeCount = 0
    }
}

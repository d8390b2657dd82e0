import Foundation

/// What painting a vector tile needs besides the tile, kept per thread between tiles: the
/// coverage and hairline rasterisers (megabytes of cells, cleared as they composite) and point buffers.
///
/// Why: allocating and zeroing a 512² rasteriser and two arrays per feature part for every tile
/// cost more than a tenth of a dense tile's paint. Not thread-safe; `forCurrentThread` gives each
/// loader thread its own.
final class TilePaintScratch {
    private var rasters: [Int: CoverageRasterizer] = [:]
    private var hairlines: [Int: HairlineRasterizer] = [:]
    /// Dashes of thin lines, collected per rule and deposited band by band (`TileDashes`).
    let dashes = TileDashes()
    /// Device x and y of the part being added (capacity grows as needed, never shrinks).
    private(set) var xs: UnsafeMutablePointer<Double>
    private(set) var ys: UnsafeMutablePointer<Double>
    private(set) var capacity: Int

    init() {
        capacity = 1024
        xs = .allocate(capacity: capacity)
        ys = .allocate(capacity: capacity)
    }

    deinit {
        xs.deallocate()
        ys.deallocate()
    }

    /// The scratch of the calling thread.
    static var forCurrentThread: TilePaintScratch { Thread.perThread("clustermap.TilePaintScratch") { TilePaintScratch() } }

    /// A cleared rasteriser of this size (a few sizes kept: tiles at scale 1 and 2, and over-zoom).
    func raster(width: Int, height: Int) -> CoverageRasterizer {
        Self.kept(in: &rasters, width, height) { CoverageRasterizer(width: width, height: height) }
    }

    /// A cleared hairline rasteriser of this size (dashes of thin lines; kept like `raster`).
    func hairline(width: Int, height: Int) -> HairlineRasterizer {
        Self.kept(in: &hairlines, width, height) { HairlineRasterizer(width: width, height: height) }
    }

    /// The entry of `table` for this size, made when missing (the table emptied past four sizes).
    private static func kept<R>(in table: inout [Int: R], _ width: Int, _ height: Int, make: () -> R) -> R {
        let key = width << 32 | height
        if let r = table[key] { return r }
        if table.count >= 4 { table.removeAll() }
        let r = make()
        table[key] = r
        return r
    }

    /// Makes room for `n` points (plus one, for closing a ring).
    func reserve(_ n: Int) {
        guard n + 1 > capacity else { return }
        let c = max(n + 1, capacity * 2)
        xs.deallocate(); ys.deallocate()
        xs = .allocate(capacity: c)
        ys = .allocate(capacity: c)
        capacity = c
    }
}

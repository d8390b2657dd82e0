import CCairo
import GeoData

/// Rendered base-map tiles for one device scale, palette and data set, at any number of zooms.
///
/// A tile is `tileSize` logical pixels square, anchored to the world-pixel grid of its zoom, so its
/// pixels don't depend on where the camera is: panning at one zoom only renders the tiles that
/// scroll into view and re-blits the others. Tiles of several zooms live side by side — the exact
/// zoom the map rests at, and the integer levels a zoom animation draws scaled — and the least
/// recently used are evicted beyond a byte budget.
final class BaseMapTileCache {
    /// Everything a tile's pixels depend on besides its zoom and position.
    struct Generation: Hashable {
        var deviceScale: Double
        var palette: MapPalette
        var dataVersion: Int
    }

    struct Key: Hashable, Sendable {
        var zoom: Double
        var level: BaseMap.Level
        var i: Int
        var j: Int
    }

    final class Tile {
        let image: ImageSurface
        var lastUsed: Int
        init(image: ImageSurface, lastUsed: Int) { self.image = image; self.lastUsed = lastUsed }
    }

    /// Logical pixels per tile side.
    let tileSize: Double
    /// Upper bound on the memory held by tiles.
    var byteLimit: Int
    private(set) var generation: Generation?
    private var tiles: [Key: Tile] = [:]
    private var clock = 0
    /// Tiles rendered in frames since creation (for tests and benchmarks).
    private(set) var renderedTileCount = 0
    /// Tiles rendered elsewhere and added (for tests).
    private(set) var insertedTileCount = 0

    init(tileSize: Double = 256, byteLimit: Int = 64 << 20) {
        self.tileSize = tileSize
        self.byteLimit = byteLimit
    }

    var count: Int { tiles.count }

    func removeAll() {
        tiles.removeAll()
        generation = nil
    }

    /// Starts a frame for a generation, dropping tiles of any other generation.
    func beginFrame(_ g: Generation) {
        if g != generation {
            tiles.removeAll(keepingCapacity: true)
            generation = g
        }
        clock += 1
    }

    /// The cached tile for `key`, if any (marked as used).
    func cachedTile(_ key: Key) -> ImageSurface? {
        guard let t = tiles[key] else { return nil }
        t.lastUsed = clock
        return t.image
    }

    /// Whether `key` is cached (without marking it used).
    func contains(_ key: Key) -> Bool { tiles[key] != nil }

    /// The tile at `key`, rendered with `render` if it isn't cached.
    func tile(_ key: Key, render: (ImageSurface) -> Void) -> ImageSurface {
        if let image = cachedTile(key) { return image }
        let scale = generation?.deviceScale ?? 1
        let image = ImageSurface(width: Int(tileSize), height: Int(tileSize), scale: scale, opaque: true)
        render(image)
        renderedTileCount += 1
        tiles[key] = Tile(image: image, lastUsed: clock)
        evictIfNeeded(scale: scale)
        return image
    }

    /// Adds a tile rendered elsewhere (see `BaseMapTileWorker`).
    func insert(_ key: Key, image: ImageSurface) {
        tiles[key] = Tile(image: image, lastUsed: clock)
        insertedTileCount += 1
        evictIfNeeded(scale: generation?.deviceScale ?? 1)
    }

    private func evictIfNeeded(scale: Double) {
        let side = Int((tileSize * scale).rounded())
        let maxTiles = max(64, byteLimit / max(1, side * side * 4))
        guard tiles.count > maxTiles else { return }
        // Drop the oldest quarter (never tiles used in this frame).
        let victims = tiles.filter { $0.value.lastUsed < clock }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
            .prefix(max(1, tiles.count - maxTiles * 3 / 4))
        for (k, _) in victims { tiles.removeValue(forKey: k) }
    }
}

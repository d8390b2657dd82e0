/// One tile of the XYZ pyramid: zoom `z`, column `x` (west → east) and row `y` (north → south).
///
/// `x` may lie outside `0..<2^z` for tiles of a wrapped world copy; `wrapped` brings it back.
/// Rows are never wrapped (the world does not repeat north–south).
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    /// Zoom level (0 = one tile for the world).
    public var z: Int
    /// Column, possibly outside `0..<2^z` for a wrapped copy of the world.
    public var x: Int
    /// Row in the XYZ (Google/OSM) convention: 0 is the northernmost row.
    public var y: Int

    /// The deepest zoom the tile math supports; 2^26 tiles per side keeps ids and
    /// PMTiles Hilbert ids well inside 64 bits.
    public static let maxZoom = 26

    /// Creates a tile id (not validated; see `isValid`).
    public init(z: Int, x: Int, y: Int) {
        self.z = z; self.x = x; self.y = y
    }

    public var description: String { "\(z)/\(x)/\(y)" }

    /// Tiles per side at this zoom.
    public var tilesPerSide: Int { 1 << z }

    /// Whether the zoom is supported and the column and row are inside the world.
    public var isValid: Bool {
        z >= 0 && z <= Self.maxZoom && x >= 0 && y >= 0 && x < tilesPerSide && y < tilesPerSide
    }

    /// The same tile in the canonical world copy (column in `0..<2^z`).
    public var wrapped: TileID {
        let n = tilesPerSide
        return TileID(z: z, x: ((x % n) + n) % n, y: y)
    }

    /// Which world copy the column belongs to (0 for the canonical one, −1 west of it, …).
    public var worldCopy: Int {
        let n = tilesPerSide
        return x >= 0 ? x / n : -((-x - 1) / n) - 1
    }

    /// The row in the TMS convention (MBTiles): 0 is the southernmost row. The flip is its own inverse.
    public var tmsRow: Int { tilesPerSide - 1 - y }

    /// A tile from a TMS row (as stored in MBTiles).
    public static func fromTMS(z: Int, x: Int, tmsRow: Int) -> TileID {
        TileID(z: z, x: x, y: (1 << z) - 1 - tmsRow)
    }

    /// The tile one zoom up that contains this one, or nil at zoom 0.
    public var parent: TileID? {
        z > 0 ? ancestor(atZoom: z - 1) : nil
    }

    /// The tile at a shallower (or equal) zoom that contains this one; nil if `zoom` is deeper or negative.
    public func ancestor(atZoom zoom: Int) -> TileID? {
        guard zoom >= 0, zoom <= z else { return nil }
        let shift = z - zoom
        // Arithmetic shift floors, so columns of western world copies keep their copy.
        return TileID(z: zoom, x: x >> shift, y: y >> shift)
    }

    /// The four tiles one zoom down, in reading order (NW, NE, SW, SE).
    public var children: [TileID] {
        let cx = x * 2, cy = y * 2, cz = z + 1
        return [TileID(z: cz, x: cx, y: cy), TileID(z: cz, x: cx + 1, y: cy),
                TileID(z: cz, x: cx, y: cy + 1), TileID(z: cz, x: cx + 1, y: cy + 1)]
    }

    /// The part of `ancestor` this tile covers, as fractions of the ancestor's side;
    /// nil if `ancestor` does not contain this tile.
    ///
    /// Used both for a parent that stands in until a child arrives and for over-zoom past a
    /// source's deepest tiles: draw `rect` of the ancestor's image scaled up to this tile's frame.
    public func rect(in ancestor: TileID) -> TileRect? {
        guard let a = self.ancestor(atZoom: ancestor.z), a == ancestor else { return nil }
        let shift = z - ancestor.z
        let n = 1 << shift
        let size = 1 / Double(n)
        return TileRect(x: Double(x - (ancestor.x << shift)) * size,
                        y: Double(y - (ancestor.y << shift)) * size, size: size)
    }
}

/// A square part of a tile, in fractions of the tile's side (0…1).
public struct TileRect: Hashable, Sendable {
    /// Left edge (fraction of the tile's width).
    public var x: Double
    /// Top edge (fraction of the tile's height).
    public var y: Double
    /// Side (fraction of the tile's side).
    public var size: Double

    /// Creates a sub-rectangle.
    public init(x: Double, y: Double, size: Double) {
        self.x = x; self.y = y; self.size = size
    }

    /// The whole tile.
    public static let whole = TileRect(x: 0, y: 0, size: 1)
}

/// PMTiles v3 tile ids: tiles numbered zoom by zoom, and within a zoom along a Hilbert curve, so
/// that tiles near each other on the map are near each other in the file.
public enum HilbertTileID {
    /// Number of tiles on all zooms shallower than `z`: (4^z − 1) / 3.
    static func firstID(atZoom z: Int) -> UInt64 {
        ((UInt64(1) << UInt64(2 * z)) - 1) / 3
    }

    /// The id of tile z/x/y; nil if the tile is outside the world or deeper than `TileID.maxZoom`.
    public static func id(for tile: TileID) -> UInt64? {
        guard tile.isValid else { return nil }
        var x = UInt64(tile.x), y = UInt64(tile.y)
        var d: UInt64 = 0
        var s = UInt64(1) << UInt64(max(0, tile.z - 1))
        if tile.z == 0 { s = 0 }
        while s > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0
            let ry: UInt64 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            rotate(s, &x, &y, rx, ry)
            s >>= 1
        }
        return firstID(atZoom: tile.z) + d
    }

    /// The tile with a given id; nil past `TileID.maxZoom`.
    public static func tile(for id: UInt64) -> TileID? {
        var first: UInt64 = 0
        for z in 0...TileID.maxZoom {
            let count = UInt64(1) << UInt64(2 * z)
            if id - first < count { return tile(z: z, position: id - first) }
            first += count
        }
        return nil
    }

    private static func tile(z: Int, position: UInt64) -> TileID {
        let n = UInt64(1) << UInt64(z)
        var x: UInt64 = 0, y: UInt64 = 0
        var t = position
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            rotate(s, &x, &y, rx, ry)
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return TileID(z: z, x: Int(x), y: Int(y))
    }

    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = n &- 1 &- x
            y = n &- 1 &- y
        }
        swap(&x, &y)
    }
}

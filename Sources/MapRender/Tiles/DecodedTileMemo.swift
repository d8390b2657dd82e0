import Foundation
import Tiles

/// The last few vector tiles decoded for over-zoom, shared by the loader threads.
///
/// Past a source's deepest zoom every display tile is painted from the same ancestor: at zoom 17
/// over a zoom-14 source 64 display tiles share one, and a view shows 6–12 of them. Decoding a
/// dense tile costs several milliseconds; this keeps it once per ancestor instead of once per
/// display tile. Thread-safe.
public final class DecodedTileMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(tile: TileID, decoded: VectorTile)] = []
    private let capacity: Int

    /// A memo of the `capacity` tiles decoded last.
    public init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
    }

    /// The decoded `tile`, from the memo or from `decode` (whose result is kept; nil is not).
    public func tile(_ tile: TileID, decode: () -> VectorTile?) -> VectorTile? {
        lock.lock()
        if let k = entries.firstIndex(where: { $0.tile == tile }) {
            let hit = entries.remove(at: k)
            entries.append(hit)
            lock.unlock()
            return hit.decoded
        }
        lock.unlock()
        // Decoded outside the lock: two threads may decode one tile at once (both get it right).
        guard let decoded = decode() else { return nil }
        lock.lock()
        if !entries.contains(where: { $0.tile == tile }) {
            entries.append((tile, decoded))
            if entries.count > capacity { entries.removeFirst() }
        }
        lock.unlock()
        return decoded
    }

    /// How many tiles are kept now.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}

import AppSupport
import Foundation
import Tiles

/// A clustered tile file open as data (issue 31.7): ours (`clustermap tiles … --output`) or
/// tippecanoe's `--cluster-distance` output. Each view reads the tiles at the camera's zoom
/// (`ClusterTileReader.tiles(in:zoom:)`) and shows them as a `RemoteView`, as a PostGIS table's
/// views are shown. Touched only on the GTK thread.
final class ClusterTileLink {
    let path: String
    let reader: ClusterTileReader
    /// The tiles shown now (a camera change reading the same tiles reads nothing).
    private(set) var shownTiles: [TileID] = []
    /// Whether a read is queued for the loop's next turn.
    private(set) var readPending = false
    /// Views shown so far.
    private(set) var views = 0

    /// Queues a read for the loop's next turn; false when one is queued already.
    func queueRead() -> Bool {
        guard !readPending else { return false }
        readPending = true
        return true
    }

    /// The queued read runs now.
    func readStarted() { readPending = false }

    /// `tiles` are shown now (one more view).
    func show(_ tiles: [TileID]) {
        shownTiles = tiles
        views += 1
    }

    /// The file's name as the header and cards say it.
    var name: String { (path as NSString).lastPathComponent }

    init(path: String) throws {
        self.path = path
        reader = ClusterTileReader(source: try ClusterTileLink.source(path))
    }

    private nonisolated static func source(_ path: String) throws -> any TileSource {
        path.lowercased().hasSuffix(".pmtiles") ? try PMTilesSource(path: path) : try MBTilesSource(path: path)
    }

    /// Whether `path` names a tile file (by its ending).
    nonisolated static func isTileFile(_ path: String) -> Bool { FileOpeningPlan.isTileFile(path) }

    /// Whether `path` is a tile file of clustered points (opened as data); a street-map tile
    /// file, or one that cannot be read, is not (it stays a base map, which says its own problem).
    nonisolated static func isClusterTileFile(_ path: String) -> Bool {
        guard isTileFile(path), let source = try? source(path) else { return false }
        return ClusterTileReader.isClustered(source)
    }

    /// A tile view's items as the presentation takes them: bubbles keyed by their feature id
    /// (their split zoom when the file gives it), places with their properties as their card.
    nonisolated static func remoteItems(_ items: [ClusterTileReader.Item]) -> [RemoteView.Item] {
        items.map {
            RemoteView.Item(coordinate: $0.coordinate, count: $0.count, isCluster: $0.isCluster, key: $0.key,
                            expansionZoom: $0.expansionZoom, properties: $0.isCluster ? nil : $0.propertiesJSON,
                            detail: $0.isCluster ? detail(of: $0.properties) : nil)
                .with(facts: $0.isCluster ? ClusterTileLink.facts($0.properties) : [])
        }
    }

    /// A bubble's words from its feature (`clustermap tiles` writes `category` and `NAME_sum`).
    nonisolated static func detail(of properties: [(String, VectorTileValue)]) -> String? {
        let category = properties.first { $0.0 == "category" }?.1.stringValue
        let total = properties.first { $0.0.hasSuffix("_sum") && $0.1.doubleValue != nil }
            .map { (name: String($0.0.dropLast(4)), sum: $0.1.doubleValue!) }
        return RemoteView.detail(category: category, total: total)
    }
}

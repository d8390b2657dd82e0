import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel
import PostGIS

// `clustermap render postgresql://…?table=…`: the table's view drawn as the window draws it — the
// same view (`PostGISViewPlanner`), the same query (fetched points or server cells), the same
// filter (`--where/--since/--until/--time` as WHERE) and total; a fault is one line and status 1.

/// A launch's data sources that can't be shown together: a table opens alone (the window shows one
/// table, and a file would replace it), so a file beside it is refused rather than dropped.
/// - Returns: the one-line reason, or nil when they can be shown.
func mixedSourcesProblem(_ files: [String]) -> String? {
    let tables = files.filter(PostGISAddress.looksLikeAddress)
    guard let table = tables.first else { return nil }
    if tables.count > 1 { return "one database table at a time (\(tables.count) postgresql:// addresses given)" }
    // A tile file may be the street map under the table; a data file would be dropped.
    let others = files.filter { !PostGISAddress.looksLikeAddress($0) && !ClusterTileLink.isTileFile($0) }
    guard !others.isEmpty else { return nil }
    let name = (try? PostGISAddress(table).qualifiedName) ?? "the table"
    return "a database table opens alone: \(name) and \(others.map(PointSetLoader.displayName(of:)).joined(separator: ", ")) "
        + "can't be shown together (open the file in a window of its own)"
}

/// The table's view for `camera` (fitted to the table's extent when the launch gives no
/// `--center/--zoom`), as a session the still renderer draws.
/// - Throws: `ClustersCommandError` (status 2) for an option the table can't answer; the
///   source's error (a connection failure, a missing table) otherwise.
func renderTableSession(_ address: String, options: LaunchOptions, camera: inout Camera) throws -> MapDataSession {
    try refuseGroupingOnATable(options.filters)
    let source = try openPostGISSource(address, statementTimeout: MapViewController.databaseStatementTimeoutMs, program: "clustermap render")
    var view = MapViewController.databaseViewOptions()
    view.filter = try tableWhere(options.filters, on: source.table)
    let total = try tableTotal(options.filters.total, on: source.table)
    view.total = total?.property
    view.totalIsMostCommon = total?.kind == .mostCommon
    if options.opensFittedToData, let extent = source.estimatedExtent() {
        camera = camera.fitting(extent, paddingPixels: 60, maxZoom: 14)
    }
    let asked = PostGISViewPlanner.view(visible: camera.visibleBounds, zoom: camera.zoom)
    var result = try source.clusters(in: asked.bounds, zoom: Double(asked.zoom), options: view)
    let ids = result.items.lazy.filter { !$0.isCluster }.compactMap(\.id).prefix(DatabaseLink.placeCards)
    result.placeProperties = try source.rowProperties(ids: Array(ids))
    return MapDataSession.remote(DatabaseLink.items(of: result, total: total), zoom: asked.zoom, name: source.table.displayName,
                                 total: total)
}

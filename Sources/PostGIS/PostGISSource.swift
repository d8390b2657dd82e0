import ClusterCore
import Foundation

/// A PostGIS table as a data source asked per view: the server counts (SPEC §4.2). Queries run on
/// the caller's thread (a background one); `cancel()` from any thread stops the one in flight.
public final class PostGISSource: @unchecked Sendable {
    /// The table's address (without secrets beyond what the user typed).
    public let address: PostGISAddress
    /// The table as discovered.
    public let table: PostGISTable
    let connection: PostgresConnection
    /// The password the source connected with, kept in memory only (the change watcher opens a
    /// second connection with it); never written anywhere.
    let password: String?
    /// The table's pyramid, when one was built (used for unfiltered grid views it fits).
    public internal(set) var pyramid: PostGISPyramid?
    /// Whole-world cells kept for coarser grid views (`rolledUpCells`).
    let rollUps = PostGISRollUpCache()
    /// The last grid view's cells per zoom and rows (`askedCells`: a pan asks only for the new strip).
    let lastViews = PostGISRollUpCache()

    /// Connects and finds the table's geometry column; `statementTimeoutMilliseconds` > 0 makes the
    /// server stop longer queries.
    public init(address text: String, password: String? = nil, statementTimeoutMilliseconds: Int = 0) throws {
        address = try PostGISAddress(text)
        self.password = password
        connection = try PostgresConnection(uri: address.connectionURI, password: password)
        if statementTimeoutMilliseconds > 0 { try connection.setStatementTimeout(milliseconds: statementTimeoutMilliseconds) }
        table = try PostGISTable.discover(address, on: connection)
        pyramid = try PostGISPyramid.find(for: table, schema: table.schema, name: address.table, on: connection)
    }

    /// Removes the table's pyramid, if any (for measuring views without it).
    public func dropPyramidForBenchmark() { try? PostGISPyramid.drop(for: self) }

    /// Stops the query in flight (a superseded view); it throws `PostGISError.cancelled`.
    public func cancel() { connection.cancel() }

    /// Reconnects after the server went away; true when the connection works again.
    public func reconnect() -> Bool {
        if connection.isConnected { return true }
        guard connection.reset() else { return false }
        // A new server session: the statement timeout is set again.
        let ms = connection.statementTimeoutMilliseconds
        if ms > 0 { try? connection.setStatementTimeout(milliseconds: ms) }
        return true
    }

    /// The clusters and places of a view at a zoom.
    public func clusters(in bounds: GeoBounds, zoom: Double, options: PostGISViewOptions = PostGISViewOptions()) throws -> PostGISViewResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let sql = try ViewSQL(table: table, conditions: options.conditions, filter: options.filter, total: options.total,
                              mostCommon: options.totalIsMostCommon, quote: connection.quoted)
        var result: PostGISViewResult
        switch options.algorithm {
        case .grid:
            result = try gridClusters(in: bounds, zoom: zoom, options: options, sql: sql)
        case .hierarchical:
            // With a pyramid for these cells, its cells say how many points the view holds (one
            // index range scan); dense views are those cells. So do the cells of a kept
            // whole-world pass (no query at all; counting a big box's rows took 0.5 s at 10M).
            var grid = options
            grid.gridMaxZoom = options.hierarchical.maxZoom
            if usesPyramid(grid, zoom: zoom) || hasKeptCells(grid, zoom: zoom, sql: sql) {
                let cells = try gridClusters(in: bounds, zoom: zoom, options: grid, sql: sql)
                if cells.items.reduce(0, { $0 + $1.count }) > options.fetchLimit {
                    result = cells
                    result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    return result
                }
            }
            // Points the view (plus a margin of one radius) holds, counted up to the limit.
            let z = max(0, min(Int(zoom.rounded(.down)), 30))
            let margin = options.hierarchical.radius / options.hierarchical.extent / Double(1 << z) * 360
            let padded = bounds.coversAllLongitudes ? GeoBounds.world
                : GeoBounds(west: bounds.west - margin, south: max(-90, bounds.south - margin * 0.75),
                            east: bounds.east + margin, north: min(90, bounds.north + margin * 0.75))
            var count = 0
            try forEachBox(padded) { w, s, e, n in
                let r = try connection.query(sql.countSQL(limit: options.fetchLimit + 1),
                                             ViewSQL.boxValues(w, s, e, n) + sql.filterValues)
                count += Int(r.integer(0, 0) ?? 0)
            }
            if count <= options.fetchLimit {
                result = try fetchedClusters(in: bounds, padded: padded, zoom: zoom, options: options, sql: sql)
            } else {
                // The grid algorithm's cells (same cell size as `clusters --algorithm grid`, so a
                // pyramid built for the grid serves these views too).
                result = try gridClusters(in: bounds, zoom: zoom, options: grid, sql: sql)
            }
        }
        result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return result
    }

    func forEachBox(_ bounds: GeoBounds, _ body: (Double, Double, Double, Double) throws -> Void) throws {
        var boxes: [(Double, Double, Double, Double)] = []
        bounds.forEachQueryBox { boxes.append(($0, $1, $2, $3)) }
        for b in boxes { try body(b.0, b.1, b.2, b.3) }
    }

    /// Fetches the padded view's points and clusters them with the exact hierarchical algorithm.
    func fetchedClusters(in bounds: GeoBounds, padded: GeoBounds, zoom: Double, options: PostGISViewOptions,
                         sql: ViewSQL) throws -> PostGISViewResult {
        var points: [GeoCoordinate] = [], values: [Double] = [], ids: [Int64?] = [], texts: [String?] = []
        try forEachBox(padded) { w, s, e, n in
            let r = try connection.query(sql.fetchSQL(limit: options.fetchLimit + 1), ViewSQL.boxValues(w, s, e, n) + sql.filterValues)
            for i in 0..<r.rowCount {
                points.append(GeoCoordinate(latitude: r.double(i, 1) ?? .nan, longitude: r.double(i, 0) ?? .nan))
                if options.totalIsMostCommon { texts.append(r.text(i, 2)); values.append(.nan) } else { values.append(r.double(i, 2) ?? .nan) }
                ids.append(r.integer(i, 3))
            }
        }
        // A most-common total: the values as categories numbered in byte order, so the clusterer's
        // tie rule (the lower number) is the server cells' (the value that sorts first).
        let names = Self.byteOrdered(Set(texts.compactMap { $0 }))
        let codes = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Int32($0)) })
        let index = HierarchicalClusterer(points: points, categories: texts.map { $0.flatMap { codes[$0] } ?? -1 },
                                          values: options.total == nil || options.totalIsMostCommon ? [] : values,
                                          options: options.hierarchical)
        var items: [PostGISItem] = []
        for item in index.clusters(in: bounds, zoom: zoom) {
            switch item.kind {
            case .point(let i):
                let v = values[i]
                items.append(PostGISItem(coordinate: item.coordinate, count: 1, isCluster: false, id: ids[i],
                                         totalSum: v.isNaN ? nil : v, totalMin: v.isNaN ? nil : v, totalMax: v.isNaN ? nil : v,
                                         totalCount: v.isNaN ? 0 : 1, mostCommon: texts.isEmpty ? nil : texts[i],
                                         mostCommonCount: texts.isEmpty || texts[i] == nil ? nil : 1))
            case .cluster(let c):
                let a = index.aggregates(of: item)
                let top = a.categoryCounts.first
                items.append(PostGISItem(coordinate: item.coordinate, count: item.count, isCluster: true, id: Int64(c.rawValue),
                                         totalSum: a.valueCount > 0 ? a.sum : nil, totalMin: a.minimum, totalMax: a.maximum, totalCount: a.valueCount,
                                         expansionZoom: index.expansionZoom(of: c), mostCommon: top.map { names[Int($0.category)] },
                                         mostCommonCount: top?.count))
            }
        }
        return PostGISViewResult(items: items, method: .fetched(points: points.count), seconds: 0)
    }
}

extension PostGISSource {
    /// Texts in the order of their UTF-8 bytes (PostgreSQL's "C" collation).
    static func byteOrdered(_ texts: Set<String>) -> [String] {
        texts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Every row's point (filters applied) in id order, with its id and total: for writing the
    /// whole table's exact clusters (`clustermap tiles postgresql://…`). Memory grows with the
    /// table (about 40 bytes a point), like opening a file of it.
    public func allPoints(options: PostGISViewOptions = PostGISViewOptions())
        throws -> (coordinates: [GeoCoordinate], ids: [Int64?], totals: [Double]) {
        let sql = try ViewSQL(table: table, conditions: options.conditions, filter: options.filter, total: options.total, quote: connection.quoted)
        let r = try connection.query(sql.fetchSQL(limit: Int(Int32.max)), ViewSQL.boxValues(-180, -90, 180, 90) + sql.filterValues)
        var coordinates: [GeoCoordinate] = [], ids: [Int64?] = [], totals: [Double] = []
        coordinates.reserveCapacity(r.rowCount)
        for i in 0..<r.rowCount {
            coordinates.append(GeoCoordinate(latitude: r.double(i, 1) ?? .nan, longitude: r.double(i, 0) ?? .nan))
            ids.append(r.integer(i, 3))
            totals.append(r.double(i, 2) ?? .nan)
        }
        return (coordinates, ids, totals)
    }
}

import ClusterCore
import Foundation
import GeoData
import PostGIS
import Tiles

// `tiles … --where/--since/--until/--by/--total KIND:PROPERTY`: the fields a cluster feature gets and
// the table's tiles. Names match `clusters`: the total's value under `KIND_PROPERTY` (`sum_deaths`,
// `most_common_type`, with `_abbreviated` for numbers), for a number also `PROPERTY_sum/_min/_max/_mean`
// (README's tile fields); with `--by` the group's value under the property's name.

/// A numeric total's fields for one cluster; `kind` adds `KIND_PROPERTY` (+ `_abbreviated`) as `clusters` prints it.
func tileTotalFields(_ a: ClusterAggregates, property: String, kind: ClusterTotal?) -> ClusterTileBuilder.Properties {
    guard a.valueCount > 0, let lo = a.minimum, let hi = a.maximum, let mean = a.mean else { return [] }
    var p: ClusterTileBuilder.Properties = [("\(property)_sum", .double(a.sum)), ("\(property)_min", .double(lo)),
                                            ("\(property)_max", .double(hi)), ("\(property)_mean", .double(mean))]
    if let kind, let v = kind.value(of: a) {
        let key = ClustersFilter.totalKey(.init(kind: kind, property: property))
        p += [(key, .double(v)), (key + "_abbreviated", .string(ClusterTotal.abbreviated(v)))]
    }
    return p
}

/// The cluster fields the archive's metadata lists: numbers and strings.
func tileFieldNames(_ options: TilesCommandOptions) -> (numbers: [String], texts: [String]) {
    let f = options.clusters.filters
    if let n = options.total { return (["\(n)_sum", "\(n)_min", "\(n)_max", "\(n)_mean"], []) }
    var texts = f.groupProperty.map { [$0] } ?? []
    guard let t = f.total else { return ([], texts) }
    let key = ClustersFilter.totalKey(t)
    if t.kind.readsCategory { return ([], texts + [key]) }
    texts.append(key + "_abbreviated")
    return (["\(t.property)_sum", "\(t.property)_min", "\(t.property)_max", "\(t.property)_mean", key], texts)
}

extension ClustersFilter {
    /// A cluster's tile fields: the group's value (`--by`) and the total.
    func tileProperties(_ item: ClusterItem, index: any PointClusterer) -> ClusterTileBuilder.Properties {
        var p: ClusterTileBuilder.Properties = []
        if let by = settings.groupProperty, let sub = index as? SubsetClusterer, let g = sub.groupValue(of: item), g >= 0 {
            p.append((by, .string(result.groupNames[Int(g)])))
        }
        guard let total = settings.total else { return p }
        let a = index.aggregates(of: item)
        if total.kind.readsCategory {
            if let v = total.kind.value(of: a) { p.append((Self.totalKey(total), .string(result.totalCategoryNames[Int(v)]))) }
        } else {
            p += tileTotalFields(a, property: total.property, kind: total.kind)
        }
        return p
    }
}

/// `tiles postgresql://…`: the table's points (filtered by the same WHERE as the window) clustered here
/// exactly, as a file of them would be.
func writePostGISClusterTiles(_ options: TilesCommandOptions) throws -> String {
    let o = options.clusters
    let source = try openPostGISSource(o.path, statementTimeout: 0, program: "clustermap tiles")
    var view = PostGISViewOptions()
    view.filter = try tableWhere(o.filters, on: source.table)
    let kind = try tableTotal(o.filters.total, on: source.table)?.kind
    let totalName = options.total ?? o.filters.total?.property
    view.total = totalName
    if options.total == nil, let total = o.filters.total, total.kind.readsCategory {
        return try writePostGISMostCommonTiles(options, source: source, view: view, total: total)
    }
    let (coordinates, ids, totals) = try source.allPoints(options: view)
    let input = ClusterInput(coordinates: coordinates, values: totalName == nil ? [] : totals)
    let index = input.clusterer(o)
    let builder = ClusterTileBuilder(
        clusterer: index,
        pointID: { ids[$0].map { UInt64(bitPattern: $0) } },
        pointProperties: { i in totalName.map { n in totals[i].isNaN ? [] : [(n, .double(totals[i]))] } ?? [] },
        clusterTotals: { item in totalName.map { tileTotalFields(index.aggregates(of: item), property: $0, kind: kind) } ?? [] })
    let (archive, tileCount) = try writeTiles(builder, to: options.output)
    try finishTiles(archive, name: source.table.displayName, builder: builder, coordinates: coordinates, fields: tileFieldNames(options))
    return "\(options.output): \(tileCount) tiles, zooms \(builder.zooms.lowerBound)–\(builder.zooms.upperBound), \(coordinates.count) points"
}

/// `tiles postgresql://… --total most-common:COLUMN`: the values as categories numbered in byte
/// order (ties go to the value that sorts first, as SQL's `mode()` with `COLLATE "C"` and the
/// window pick), each cluster's most common under `most_common_COLUMN`, each place's under `COLUMN`.
private func writePostGISMostCommonTiles(_ options: TilesCommandOptions, source: PostGISSource, view: PostGISViewOptions,
                                         total: FilterSettings.TotalSetting) throws -> String {
    let (coordinates, ids, texts) = try source.allPointTexts(options: view)
    let (names, codes) = PostGISSource.byteOrderedCodes(texts)
    var input = ClusterInput(coordinates: coordinates, values: [])
    input.categories = codes
    let index = input.clusterer(options.clusters)
    let key = ClustersFilter.totalKey(total)
    let builder = ClusterTileBuilder(
        clusterer: index,
        pointID: { ids[$0].map { UInt64(bitPattern: $0) } },
        pointProperties: { i in texts[i].map { [(total.property, .string($0))] } ?? [] },
        clusterTotals: { item in
            ClusterTotal.mostCommon.value(of: index.aggregates(of: item)).map { [(key, .string(names[Int($0)]))] } ?? []
        })
    let (archive, tileCount) = try writeTiles(builder, to: options.output)
    try finishTiles(archive, name: source.table.displayName, builder: builder, coordinates: coordinates, fields: tileFieldNames(options))
    return "\(options.output): \(tileCount) tiles, zooms \(builder.zooms.lowerBound)–\(builder.zooms.upperBound), \(coordinates.count) points"
}

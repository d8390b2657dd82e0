import ClusterCore
import Compression
import Foundation
import GeoData
import PostGIS
import Tiles

// `clustermap tiles FILE|postgresql://… --output OUT.pmtiles|OUT.mbtiles [--algorithm hierarchical|grid]
//  [--radius R] [--extent E] [--min-zoom N] [--max-zoom M] [--min-points P] [--total PROPERTY]
//  [--lat COLUMN --lon COLUMN]`
//
// Headless: writes every zoom's exact clusters (the same as `clustermap clusters` prints for
// that zoom) as gzipped MVT tiles, layer `clusters`. Point ids are feature positions and
// cluster ids cluster ids, as in `clusters`.

struct TilesCommandOptions {
    var clusters = ClustersCommandOptions()
    var output = ""
    var total: String?
    /// `--where` filters in the filter grammar (database sources only).
    var filters: [PostGISWhere] = []

    static let usage = "usage: clustermap tiles FILE|postgresql://… --output OUT.pmtiles|OUT.mbtiles [--algorithm hierarchical|grid] "
        + "[--radius R] [--extent E] [--min-zoom N] [--max-zoom M] [--min-points P] [--total PROPERTY] [--lat COLUMN --lon COLUMN]"

    /// Parses the arguments after `tiles`: `--output` and `--total` here, the rest as `clusters`
    /// reads them (with a zoom it does not need).
    static func parse(_ args: [String]) throws -> TilesCommandOptions {
        var o = TilesCommandOptions()
        var rest: [String] = []
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--output", "--total":
                guard i + 1 < args.count else { throw ClustersCommandError(message: "\(args[i]) needs a value", status: 2) }
                if args[i] == "--output" { o.output = args[i + 1] } else { o.total = args[i + 1] }
                i += 2
            case "--where":
                guard i + 1 < args.count else { throw ClustersCommandError(message: "--where needs a value", status: 2) }
                do { o.filters.append(try PostGISWhere(parsing: args[i + 1])) } catch {
                    throw ClustersCommandError(message: "\(error)", status: 2)
                }
                i += 2
            case "--zoom", "--bbox", "--leaves":
                throw ClustersCommandError(message: "\(args[i]) is not an option of tiles (every zoom is written)", status: 2)
            case "-h", "--help":
                throw ClustersCommandError(message: usage, status: 0)
            default:
                rest.append(args[i])
                i += 1
            }
        }
        guard !o.output.isEmpty else { throw ClustersCommandError(message: "--output OUT.pmtiles or OUT.mbtiles is required", status: 2) }
        let ext = (o.output as NSString).pathExtension.lowercased()
        guard ext == "pmtiles" || ext == "mbtiles" else {
            throw ClustersCommandError(message: "--output: '\(o.output)' must end in .pmtiles or .mbtiles", status: 2)
        }
        o.clusters = try ClustersCommandOptions.parse(rest + ["--zoom", "0"])
        // Not read by the tile writer yet: refused, so no one publishes "filtered" tiles holding every place.
        let f = o.clusters.filters, fileWhere = !o.filters.isEmpty && !PostGISAddress.looksLikeAddress(o.clusters.path)
        if let unread = [f.since.map { _ in "--since" }, f.until.map { _ in "--until" }, f.groupProperty.map { _ in "--by" }, fileWhere ? "--where (for a file)" : nil].compactMap({ $0 }).first {
            throw ClustersCommandError(message: "\(unread) is not read by tiles yet (the tiles would hold every place)", status: 2)
        }
        return o
    }
}

/// Runs `clustermap tiles …`; returns the exit status.
func runTilesCommand(_ args: [String]) -> Int32 {
    do {
        let options = try TilesCommandOptions.parse(args)
        let summary = try writeClusterTiles(options)
        ErrorOutput.write("clustermap tiles", summary)
        return 0
    } catch let e as ClustersCommandError {
        if e.status == 0 {
            print(e.message)
            return 0
        }
        ErrorOutput.write("clustermap tiles", e.message)
        return e.status
    } catch let e as GeoDataError {
        ErrorOutput.write("clustermap tiles", e.description)
        return 1
    } catch {
        ErrorOutput.write("clustermap tiles", "\(error)")
        return 1
    }
}

/// Loads the file, clusters it as `clusters` would, writes the archive; returns a summary line.
func writeClusterTiles(_ options: TilesCommandOptions) throws -> String {
    let o = options.clusters
    if PostGISAddress.looksLikeAddress(o.path) { return try writePostGISClusterTiles(options) }
    let set = try PointSetLoader.load(path: o.path, options: LoadOptions(latitudeColumn: o.latitudeColumn,
                                                                         longitudeColumn: o.longitudeColumn,
                                                                         numericProperty: options.total))
    for message in set.report.messages {
        ErrorOutput.write("clustermap tiles", "\(set.sourceName): \(message)")
    }
    let input = ClusterInput(set)
    let index = input.clusterer(o)
    let totalName = options.total
    let builder = ClusterTileBuilder(
        clusterer: index,
        pointID: { input.positionOfInput[$0] >= 0 ? UInt64(input.positionOfInput[$0]) : nil },
        pointProperties: { i in
            let p = input.pointOfInput[i]
            guard p >= 0 else { return [] }
            return set.properties(at: p).compactMap { key, value in
                switch value {
                case .string(let s), .date(let s): return (key, .string(s))
                case .number(let d): return (key, d == d.rounded() && abs(d) < 1e15 ? .int(Int64(d)) : .double(d))
                case .bool(let b): return (key, .bool(b))
                case .json(let s): return (key, .string(s))
                case .null: return nil
                }
            }
        },
        clusterTotals: { item in
            let a = index.aggregates(of: item)
            var p: ClusterTileBuilder.Properties = []
            if let name = totalName, a.valueCount > 0, let lo = a.minimum, let hi = a.maximum, let mean = a.mean {
                p += [("\(name)_sum", .double(a.sum)), ("\(name)_min", .double(lo)), ("\(name)_max", .double(hi)),
                      ("\(name)_mean", .double(mean))]
            }
            if let c = a.dominantCategory, c >= 0, Int(c) < set.categoryNames.count {
                p.append(("category", .string(set.categoryNames[Int(c)])))
            }
            return p
        })
    let (archive, tileCount) = try writeTiles(builder, to: options.output)
    try finishTiles(archive, name: set.sourceName, builder: builder, coordinates: set.coordinates, total: totalName)
    return "\(options.output): \(tileCount) tiles, zooms \(builder.zooms.lowerBound)–\(builder.zooms.upperBound), \(set.count) points"
}

/// Writes every zoom's tiles (gzipped) into a new archive; returns it (for `finishTiles`) and the tile count.
private func writeTiles(_ builder: ClusterTileBuilder, to path: String) throws -> (ClusterTileArchive, Int) {
    let writer = try ClusterTileArchive(path: path)
    var tileCount = 0
    for z in builder.zooms {
        for (tile, bytes) in builder.tiles(atZoom: z) {
            try writer.add(tile, bytes: GzipCompressor.compress(bytes))
            tileCount += 1
        }
    }
    return (writer, tileCount)
}

/// Writes the metadata (bounds of the points) and closes the archive.
private func finishTiles(_ archive: ClusterTileArchive, name: String, builder: ClusterTileBuilder, coordinates: [GeoCoordinate], total: String?) throws {
    let bounds = coordinates.reduce(into: GeoBounds?.none) { b, c in
        guard c.isValid else { return }
        b = b.map { GeoBounds(west: min($0.west, c.longitude), south: min($0.south, c.latitude),
                              east: max($0.east, c.longitude), north: max($0.north, c.latitude)) }
            ?? GeoBounds(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
    } ?? GeoBounds(west: -180, south: -85, east: 180, north: 85)
    try archive.finish(name: name, zooms: builder.zooms, bounds: bounds,
                       fields: total.map { n in ["\(n)_sum", "\(n)_min", "\(n)_max", "\(n)_mean"] } ?? [])
}

/// `tiles postgresql://…`: the table's points (filters from --where) clustered here exactly, as a file of them would be.
private func writePostGISClusterTiles(_ options: TilesCommandOptions) throws -> String {
    let o = options.clusters
    let source = try openPostGISSource(o.path, statementTimeout: 0, program: "clustermap tiles")
    var view = PostGISViewOptions()
    view.total = options.total
    view.filter = PostGISWhere.all(options.filters)
    let (coordinates, ids, totals) = try source.allPoints(options: view)
    let input = ClusterInput(coordinates: coordinates, values: options.total == nil ? [] : totals)
    let index = input.clusterer(o)
    let totalName = options.total
    let builder = ClusterTileBuilder(
        clusterer: index,
        pointID: { ids[$0].map { UInt64(bitPattern: $0) } },
        pointProperties: { i in totalName.map { n in totals[i].isNaN ? [] : [(n, .double(totals[i]))] } ?? [] },
        clusterTotals: { item in
            let a = index.aggregates(of: item)
            guard let name = totalName, a.valueCount > 0, let lo = a.minimum, let hi = a.maximum, let mean = a.mean else { return [] }
            return [("\(name)_sum", .double(a.sum)), ("\(name)_min", .double(lo)), ("\(name)_max", .double(hi)), ("\(name)_mean", .double(mean))]
        })
    let (archive, tileCount) = try writeTiles(builder, to: options.output)
    try finishTiles(archive, name: source.table.displayName, builder: builder, coordinates: coordinates, total: totalName)
    return "\(options.output): \(tileCount) tiles, zooms \(builder.zooms.lowerBound)–\(builder.zooms.upperBound), \(coordinates.count) points"
}

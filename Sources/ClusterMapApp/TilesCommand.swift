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
    /// `--total PROPERTY` (no kind): `PROPERTY_sum/_min/_max/_mean` as before `KIND:PROPERTY`.
    var total: String?

    static let usage = "usage: clustermap tiles FILE|postgresql://… --output OUT.pmtiles|OUT.mbtiles [--algorithm hierarchical|grid] "
        + "[--radius R] [--extent E] [--min-zoom N] [--max-zoom M] [--min-points P] [--lat COLUMN --lon COLUMN]"
        + " [--where EXPR]… [--since DATE] [--until DATE] [--time PROPERTY] [--by PROPERTY] [--total KIND:PROPERTY|PROPERTY] [--type PROPERTY=TYPE]"

    /// Parses the arguments after `tiles`: `--output` and a bare `--total PROPERTY` here, the rest
    /// (filters too) as `clusters` reads them (with a zoom it does not need).
    static func parse(_ args: [String]) throws -> TilesCommandOptions {
        var o = TilesCommandOptions()
        var rest: [String] = []
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--output", "--total":
                guard i + 1 < args.count else { throw ClustersCommandError(message: "\(args[i]) needs a value", status: 2) }
                let v = args[i + 1]
                if args[i] == "--output" { o.output = v } else if v.contains(":") { rest += ["--total", v] } else { o.total = v }
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
        if let t = o.total, o.clusters.filters.total != nil {
            throw ClustersCommandError(message: "--total '\(t)' and --total '\(o.clusters.filters.total!.text)': one total only", status: 2)
        }
        // With filters the bare form goes through the filter engine as sum (same four fields, plus sum_PROPERTY).
        if let t = o.total, !o.clusters.filters.isEmpty {
            o.clusters.filters.total = .init(kind: .sum, property: t)
            o.total = nil
        }
        if PostGISAddress.looksLikeAddress(o.clusters.path) { try refuseGroupingOnATable(o.clusters.filters) }
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
    // --where/--since/--until/--by/--total KIND:PROPERTY: the same filter engine and index as `clusters`.
    let filter = try ClustersFilter.make(o, set: set, pointOfInput: input.pointOfInput, program: "clustermap tiles")
    let index = filter?.index(points: input.coordinates, method: ClusterInput.method(o)) ?? input.clusterer(o)
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
            if let filter { return filter.tileProperties(item, index: index) }
            let a = index.aggregates(of: item)
            var p = totalName.map { tileTotalFields(a, property: $0, kind: nil) } ?? []
            if let c = a.dominantCategory, c >= 0, Int(c) < set.categoryNames.count {
                p.append(("category", .string(set.categoryNames[Int(c)])))
            }
            return p
        })
    let (archive, tileCount) = try writeTiles(builder, to: options.output)
    let shown = filter.map { f in set.coordinates.indices.filter { f.result.selection?[$0] ?? true }.map { set.coordinates[$0] } } ?? set.coordinates
    try finishTiles(archive, name: set.sourceName, builder: builder, coordinates: shown, fields: tileFieldNames(options))
    return "\(options.output): \(tileCount) tiles, zooms \(builder.zooms.lowerBound)–\(builder.zooms.upperBound), \(shown.count) points"
}

/// Writes every zoom's tiles (gzipped) into a new archive; returns it (for `finishTiles`) and the tile count.
func writeTiles(_ builder: ClusterTileBuilder, to path: String) throws -> (ClusterTileArchive, Int) {
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
func finishTiles(_ archive: ClusterTileArchive, name: String, builder: ClusterTileBuilder, coordinates: [GeoCoordinate],
                 fields: (numbers: [String], texts: [String])) throws {
    let bounds = coordinates.reduce(into: GeoBounds?.none) { b, c in
        guard c.isValid else { return }
        b = b.map { GeoBounds(west: min($0.west, c.longitude), south: min($0.south, c.latitude),
                              east: max($0.east, c.longitude), north: max($0.north, c.latitude)) }
            ?? GeoBounds(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
    } ?? GeoBounds(west: -180, south: -85, east: 180, north: 85)
    try archive.finish(name: name, zooms: builder.zooms, bounds: bounds,
                       fields: fields.numbers, textFields: fields.texts)
}

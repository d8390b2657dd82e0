// Before Foundation (which re-exports Glibc): `stdout` is a C global Swift 6 can't check; the
// commands name it on the main thread only.
@preconcurrency import Glibc
import ClusterCore
import Foundation
import GeoData

// `clustermap clusters FILE|- --zoom Z [--bbox W,S,E,N] [--algorithm hierarchical|grid]
//  [--radius R] [--extent E] [--min-zoom N] [--max-zoom M] [--min-points P] [--leaves]
//  [--lat COLUMN --lon COLUMN] [--where EXPR]… [--since DATE] [--until DATE] [--time PROPERTY]
//  [--by PROPERTY] [--total KIND:PROPERTY] [--type PROPERTY=TYPE]` (filters: ClustersCommand+Filter.swift)
//
// Headless: prints the clusters and points of one box and zoom as a GeoJSON FeatureCollection.
// Ids: a point's id is the 0-based position of its feature (or CSV row) in the file, null
// geometries included, exactly as supercluster numbers its input; a cluster's id is its cluster
// id, which is never a feature position.

/// A bad command line (exit status 2) or a bad file (exit status 1).
struct ClustersCommandError: Error {
    var message: String
    var status: Int32
}

struct ClustersCommandOptions {
    var path = ""
    var zoom = 0.0
    var bounds = GeoBounds.world
    var algorithm = "hierarchical"
    var radius: Double?
    var extent: Double?
    var minZoom: Int?
    var maxZoom: Int?
    var minPoints: Int?
    var leaves = false
    /// CSV coordinate columns, as the window's `--lat` / `--lon`.
    var latitudeColumn: String?
    var longitudeColumn: String?
    /// --where, --since, --until, --time, --by, --total, --type.
    var filters = FilterSettings()

    static let usage = "usage: clustermap clusters FILE|- --zoom Z [--bbox W,S,E,N] [--algorithm hierarchical|grid] "
        + "[--radius R] [--extent E] [--min-zoom N] [--max-zoom M] [--min-points P] [--leaves] [--lat COLUMN --lon COLUMN]"
        + " [--where EXPR]… [--since DATE] [--until DATE] [--time PROPERTY] [--by PROPERTY] [--total KIND:PROPERTY] [--type PROPERTY=TYPE]"

    /// Parses the arguments after `clusters`.
    static func parse(_ args: [String]) throws -> ClustersCommandOptions {
        func bad(_ m: String) -> ClustersCommandError { ClustersCommandError(message: m, status: 2) }
        var o = ClustersCommandOptions()
        var path: String?
        var sawZoom = false
        var i = 0
        func value(_ name: String) throws -> String {
            guard i + 1 < args.count else { throw bad("\(name) needs a value") }
            i += 1
            return args[i]
        }
        func number(_ name: String) throws -> Double {
            let v = try value(name)
            guard let d = Double(v), d.isFinite else { throw bad("\(name): '\(v)' is not a number") }
            return d
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) throws -> Int {
            let v = try value(name)
            guard let n = Int(v), range.contains(n) else {
                throw bad("\(name): '\(v)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            return n
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--zoom":
                o.zoom = try number(a)
                sawZoom = true
            case "--bbox":
                let v = try value(a)
                let parts = v.split(separator: ",", omittingEmptySubsequences: false)
                    .map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                    throw bad("--bbox: '\(v)' is not four numbers W,S,E,N")
                }
                o.bounds = GeoBounds(west: parts[0]!, south: parts[1]!, east: parts[2]!, north: parts[3]!)
                guard o.bounds.south <= o.bounds.north else { throw bad("--bbox: south \(parts[1]!) is north of north \(parts[3]!)") }
            case "--algorithm":
                let v = try value(a)
                guard v == "hierarchical" || v == "grid" else { throw bad("--algorithm: '\(v)' is not hierarchical or grid") }
                o.algorithm = v
            case "--radius":
                let r = try number(a)
                guard r > 0 else { throw bad("--radius must be positive") }
                o.radius = r
            case "--extent":
                let e = try number(a)
                guard e > 0 else { throw bad("--extent must be positive") }
                o.extent = e
            case "--min-zoom": o.minZoom = try integer(a, 0...30)
            case "--max-zoom": o.maxZoom = try integer(a, 0...30)
            case "--min-points": o.minPoints = try integer(a, 1...Int(Int32.max))
            case "--leaves": o.leaves = true
            case "--lat": o.latitudeColumn = try value(a)
            case "--lon": o.longitudeColumn = try value(a)
            case "-h", "--help": throw ClustersCommandError(message: usage, status: 0)
            case _ where a.hasPrefix("--") && FilterSettings.options.contains(where: { $0.name == a.dropFirst(2) }):
                do {
                    _ = try o.filters.set(String(a.dropFirst(2)), try value(a))
                } catch let e as FilterSettingsError {
                    throw bad(e.description)
                }
            default:
                // A lone "-" is standard input.
                if a.hasPrefix("-") && a.count > 1 { throw bad("unknown option \(a)") }
                guard path == nil else { throw bad("one FILE only ('\(path!)' and '\(a)')") }
                path = a
            }
            i += 1
        }
        guard let path else { throw bad("no FILE given") }
        guard sawZoom else { throw bad("--zoom is required") }
        o.path = path
        if let lo = o.minZoom, let hi = o.maxZoom, lo > hi { throw bad("--min-zoom \(lo) is above --max-zoom \(hi)") }
        return o
    }
}

/// Runs `clustermap clusters …`; returns the exit status.
func runClustersCommand(_ args: [String]) -> Int32 {
    if let saved = ClustersFileOutput.intercept(args) { return saved }   // --output FILE (ClustersFileOutput.swift)
    do {
        let options = try ClustersCommandOptions.parse(args)
        var out = ClustersOutput()
        try writeClusters(options, to: &out)
        out.flush()
        return 0
    } catch let e as ClustersCommandError {
        if e.status == 0 {
            print(e.message)
            return 0
        }
        // One line, whatever went wrong; the usage is for --help.
        clustersCommandFail(e.message)
        return e.status
    } catch let e as GeoDataError {
        clustersCommandFail(e.description)
        return 1
    } catch {
        clustersCommandFail("\(error)")
        return 1
    }
}

/// Writes one safe line to stderr (line breaks inside the message become spaces).
private func clustersCommandFail(_ message: String) {
    ErrorOutput.write("clustermap clusters", message.split(whereSeparator: \.isNewline).joined(separator: " "))
}

/// Buffered stdout.
struct ClustersOutput {
    var buffer: [UInt8] = []

    mutating func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count > 1 << 20 { flush() }
    }

    mutating func flush() {
        buffer.withUnsafeBufferPointer { p in
            var offset = 0
            while offset < p.count {
                let n = fwrite(p.baseAddress! + offset, 1, p.count - offset, stdout)
                if n <= 0 { break }
                offset += n
            }
        }
        fflush(stdout)
        buffer.removeAll(keepingCapacity: true)
    }
}

func writeClusters(_ o: ClustersCommandOptions, to out: inout ClustersOutput) throws {
    // The loader reads pipes, FIFOs and `-` (standard input) as streams, and says why a file
    // can't be read.
    let set = try PointSetLoader.load(path: o.path, options: LoadOptions(latitudeColumn: o.latitudeColumn,
                                                                         longitudeColumn: o.longitudeColumn))
    // Skipped rows and features are reported as in the window's banner, one line each.
    for message in set.report.messages {
        ErrorOutput.write("clustermap clusters", "\(set.sourceName): \(message)")
    }

    // The clusterer's input is indexed by feature position (null geometries included, as
    // supercluster counts them), so point ids and cluster ids come out as supercluster's
    // (`ClusterInput`, shared with `tiles`).
    let clusterInput = ClusterInput(set)
    let input = clusterInput.coordinates
    let pointOfInput = clusterInput.pointOfInput
    let positionOfInput = clusterInput.positionOfInput
    let method = ClusterInput.method(o)
    let filter = try ClustersFilter.make(o, set: set, pointOfInput: pointOfInput)
    let index = filter?.index(points: input, method: method) ?? method.build(points: input)

    out.write("{\"type\":\"FeatureCollection\",\"features\":[")
    var first = true
    for item in index.clusters(in: o.bounds, zoom: o.zoom) {
        out.write(first ? "\n" : ",\n")
        first = false
        let c = item.coordinate
        let geometry = "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(jsonNumber(c.longitude)),\(jsonNumber(c.latitude))]}"
        switch item.kind {
        case .point(let i):
            let properties = pointOfInput[i] >= 0 ? set.propertiesJSON(at: pointOfInput[i]) : "{}"
            out.write("{\"type\":\"Feature\",\"id\":\(positionOfInput[i]),\"properties\":\(properties),\(geometry)}")
        case .cluster(let id):
            let n = item.count
            let abbreviated = n < 1000 ? String(n) : "\"\(abbreviatedCount(n))\""
            var props = "\"cluster\":true,\"cluster_id\":\(id.rawValue),\"point_count\":\(n),"
                + "\"point_count_abbreviated\":\(abbreviated),\"expansion_zoom\":\(index.expansionZoom(of: id) ?? -1)"
            if o.leaves {
                let leaves = index.leaves(of: id, limit: .max, offset: 0).map { positionOfInput[$0] }.sorted()
                props += ",\"leaves\":[" + leaves.map(String.init).joined(separator: ",") + "]"
            }
            if let filter { props += filter.clusterProperties(item, index: index) }
            out.write("{\"type\":\"Feature\",\"id\":\(id.rawValue),\"properties\":{\(props)},\(geometry)}")
        }
    }
    out.write("\n]}\n")
}

/// A JSON number that reads back as the same Double (shortest round-trip form).
func jsonNumber(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
}

import ClusterCore
import Foundation
import PostGIS

// `clustermap clusters 'postgresql://…?table=…' --zoom Z [--bbox W,S,E,N] [--algorithm hierarchical|grid]
//  [--radius R] [--max-zoom M] [--min-points P] [--where FILTER]… [--total COLUMN]
//  [--fetch-limit N] [--statement-timeout MS] [--refresh SECONDS]`
//
// The clusters of one view of a PostGIS table, as GeoJSON like `clusters FILE` prints: the server
// counts (grid cells) or, for few points, they are fetched and clustered exactly. A password is
// asked for on the terminal when the server wants one (never stored); PGPASSWORD/.pgpass work too.

struct PostGISClustersOptions {
    var clusters = ClustersCommandOptions()
    /// `--where` filters in the filter grammar (all must hold), as parameterised SQL.
    var filters: [PostGISWhere] = []
    var total: String?
    var fetchLimit = 20_000
    var statementTimeout = 0
    /// Seconds between checks for changes (0: print once and exit).
    var refresh = 0.0

    /// Splits off the database-only options; the rest is parsed as `clusters` parses it.
    static func parse(_ args: [String]) throws -> PostGISClustersOptions {
        var o = PostGISClustersOptions()
        var rest: [String] = []
        var i = 0
        func value() throws -> String {
            guard i + 1 < args.count else { throw ClustersCommandError(message: "\(args[i]) needs a value", status: 2) }
            i += 1
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--where":
                do { o.filters.append(try PostGISWhere(parsing: try value())) } catch let e as PostGISError {
                    throw ClustersCommandError(message: e.description, status: 2)
                }
            case "--total": o.total = try value()
            case "--refresh":
                let v = try value()
                guard let r = Double(v), r > 0, r.isFinite else { throw ClustersCommandError(message: "--refresh: '\(v)' is not a positive number of seconds", status: 2) }
                o.refresh = r
            case "--fetch-limit", "--statement-timeout":
                let name = args[i], v = try value()
                guard let n = Int(v), n >= 0 else { throw ClustersCommandError(message: "\(name): '\(v)' is not a whole number", status: 2) }
                if name == "--fetch-limit" { o.fetchLimit = n } else { o.statementTimeout = n }
            default: rest.append(args[i])
            }
            i += 1
        }
        o.clusters = try ClustersCommandOptions.parse(rest)
        // Parsed as for a file but not read for a table yet: refused rather than silently ignored.
        let f = o.clusters.filters
        if let unread = [f.since.map { _ in "--since" }, f.until.map { _ in "--until" }, f.groupProperty.map { _ in "--by" }].compactMap({ $0 }).first {
            throw ClustersCommandError(message: "\(unread) is not read for a database table yet (say --where 'date >= 2011-01-01')", status: 2)
        }
        return o
    }

    var viewOptions: PostGISViewOptions {
        var v = PostGISViewOptions()
        let c = clusters
        v.algorithm = c.algorithm == "grid" ? .grid : .hierarchical
        if let r = c.radius { v.hierarchical.radius = r; v.cellSize = r }
        if let e = c.extent { v.hierarchical.extent = e }
        if let m = c.maxZoom { v.hierarchical.maxZoom = m; v.gridMaxZoom = m }
        if let m = c.minZoom { v.hierarchical.minZoom = m; v.gridMinZoom = m }
        if let p = c.minPoints { v.hierarchical.minPoints = p; v.minCountForClustering = p }
        v.filter = PostGISWhere.all(filters)
        v.total = total
        v.fetchLimit = fetchLimit
        return v
    }
}

/// Opens a source, asking for a password on the terminal if the server wants one.
func openPostGISSource(_ address: String, statementTimeout: Int, program: String) throws -> PostGISSource {
    do {
        return try PostGISSource(address: address, statementTimeoutMilliseconds: statementTimeout)
    } catch PostGISError.passwordRequired(let user) where isatty(0) == 1 {
        guard let p = getpass("Password for \(user): ") else { throw PostGISError.passwordRequired(user: user) }
        let password = String(cString: p)
        return try PostGISSource(address: address, password: password, statementTimeoutMilliseconds: statementTimeout)
    }
}

/// Runs `clustermap clusters postgresql://…`; returns the exit status.
func runPostGISClustersCommand(_ args: [String]) -> Int32 {
    let program = "clustermap clusters"
    do {
        let o = try PostGISClustersOptions.parse(args)
        let source = try openPostGISSource(o.clusters.path, statementTimeout: o.statementTimeout, program: program)
        try printPostGISView(source, o)
        guard o.refresh > 0 else { return 0 }
        // --refresh: the view again whenever the table changes (NOTIFY from ClusterMap's trigger
        // at once, else the server's row counters), until interrupted.
        let watcher = try PostGISChangeWatcher(source: source)
        while true {
            if try watcher.waitForChange(seconds: o.refresh) {
                ErrorOutput.write(program, "data-changed: \(source.table.displayName)")
                try printPostGISView(source, o)
            }
        }
    } catch let e as ClustersCommandError {
        if e.status == 0 { print(e.message); return 0 }
        ErrorOutput.write(program, e.message)
        return e.status
    } catch {
        ErrorOutput.write(program, "\(error)")
        return 1
    }
}

/// Prints one view as GeoJSON (stdout) and how it was counted (stderr).
private func printPostGISView(_ source: PostGISSource, _ o: PostGISClustersOptions) throws {
    let program = "clustermap clusters"
    let result = try source.clusters(in: o.clusters.bounds, zoom: o.clusters.zoom, options: o.viewOptions)
    var out = ClustersOutput()
    out.write("{\"type\":\"FeatureCollection\",\"features\":[")
    for (k, item) in result.items.enumerated() {
        out.write(k == 0 ? "\n" : ",\n")
        let c = item.coordinate
        let geometry = "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(jsonNumber(c.longitude)),\(jsonNumber(c.latitude))]}"
        let id = item.id.map(String.init) ?? "null"
        var props: [String] = []
        if item.isCluster {
            let n = item.count
            props += ["\"cluster\":true", "\"cluster_id\":\(id)", "\"point_count\":\(n)",
                      "\"point_count_abbreviated\":" + (n < 1000 ? String(n) : "\"\(abbreviatedCount(n))\"")]
            if let z = item.expansionZoom { props.append("\"expansion_zoom\":\(z)") }
        }
        if let t = o.total, let sum = item.totalSum {
            let key = t.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            props += ["\"\(key)_sum\":\(jsonNumber(sum))", "\"\(key)_min\":\(jsonNumber(item.totalMin ?? .nan))",
                      "\"\(key)_max\":\(jsonNumber(item.totalMax ?? .nan))"]
        }
        out.write("{\"type\":\"Feature\",\"id\":\(id),\"properties\":{\(props.joined(separator: ","))},\(geometry)}")
    }
    out.write("\n]}\n")
    out.flush()
    let how: String
    switch result.method {
    case .fetched(let n): how = "\(n) points fetched and clustered here"
    case .aggregated(let n): how = "\(n) cells counted by the server"
    case .pyramid(let n): how = "\(n) cells from the pyramid"
    }
    ErrorOutput.write(program, "\(source.table.displayName): \(result.items.count) items, \(how), "
                      + String(format: "%.0f ms", result.seconds * 1000))
}

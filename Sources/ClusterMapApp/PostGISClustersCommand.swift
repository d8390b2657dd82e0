import AppSupport
import ClusterCore
import Foundation
import GeoData
import PostGIS

// `clustermap clusters 'postgresql://…?table=…' --zoom Z [--bbox W,S,E,N] [--algorithm hierarchical|grid]
//  [--radius R] [--max-zoom M] [--min-points P] [--where FILTER]… [--since DATE] [--until DATE] [--time COLUMN]
//  [--total KIND:COLUMN|COLUMN] (KIND: sum, mean, min, max, most-common) [--fetch-limit N] [--statement-timeout MS] [--refresh SECONDS]`
//
// The clusters of one view of a PostGIS table, as GeoJSON like `clusters FILE` prints: the server
// counts (grid cells) or, for few points, they are fetched and clustered exactly. A password is
// asked for on the terminal when the server wants one (never stored); PGPASSWORD/.pgpass work too.

struct PostGISClustersOptions {
    /// The rest, as `clusters FILE` reads it: `--where/--since/--until/--time/--total KIND:COLUMN` in its `filters`.
    var clusters = ClustersCommandOptions()
    /// `--total COLUMN` (no kind): `COLUMN_sum/_min/_max` as before `KIND:COLUMN`.
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
            case "--total":
                let v = try value()
                if v.contains(":") { rest += ["--total", v] } else { o.total = v }
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
        if let t = o.total, let k = o.clusters.filters.total {
            throw ClustersCommandError(message: "--total '\(t)' and --total '\(k.text)': one total only", status: 2)
        }
        try refuseGroupingOnATable(o.clusters.filters)
        // The SQL grammar is checked before connecting (the columns once connected).
        for c in o.clusters.filters.conditions {
            do { _ = try PostGISWhere(parsing: c) } catch let e as PostGISError { throw ClustersCommandError(message: e.description, status: 2) }
        }
        return o
    }

    /// The view's options on `table`: the filter (conditions and time window) as the window writes it.
    func viewOptions(table: PostGISTable) throws -> PostGISViewOptions {
        var v = PostGISViewOptions()
        let c = clusters
        v.algorithm = c.algorithm == "grid" ? .grid : .hierarchical
        if let r = c.radius { v.hierarchical.radius = r; v.cellSize = r }
        if let e = c.extent { v.hierarchical.extent = e }
        if let m = c.maxZoom { v.hierarchical.maxZoom = m; v.gridMaxZoom = m }
        if let m = c.minZoom { v.hierarchical.minZoom = m; v.gridMinZoom = m }
        if let p = c.minPoints { v.hierarchical.minPoints = p; v.minCountForClustering = p }
        v.filter = try tableWhere(c.filters, on: table)
        let checked = try tableTotal(c.filters.total, on: table)
        v.total = total ?? checked?.property
        v.totalIsMostCommon = total == nil && checked?.kind == .mostCommon
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
    let result = try source.clusters(in: o.clusters.bounds, zoom: o.clusters.zoom, options: try o.viewOptions(table: source.table))
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
        if let t = o.total ?? o.clusters.filters.total?.property, let sum = item.totalSum {
            let key = t.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            props += ["\"\(key)_sum\":\(jsonNumber(sum))", "\"\(key)_min\":\(jsonNumber(item.totalMin ?? .nan))",
                      "\"\(key)_max\":\(jsonNumber(item.totalMax ?? .nan))"]
            if let k = o.clusters.filters.total { props += kindTotalJSON(k, item) }
        }
        // A most-common total: the cluster's value under `most_common_COLUMN`, as `clusters FILE` names it.
        if item.isCluster, let k = o.clusters.filters.total, k.kind.readsCategory {
            props.append(JSONValue.quote(ClustersFilter.totalKey(k)) + ":" + (item.mostCommon.map(JSONValue.quote) ?? "null"))
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

/// `KIND_COLUMN` and `_abbreviated`, as `clusters FILE` prints a cluster's total.
private func kindTotalJSON(_ t: FilterSettings.TotalSetting, _ item: PostGISItem) -> [String] {
    let v: Double?
    switch t.kind {
    case .sum: v = item.totalSum
    case .mean: v = item.totalMean
    case .minimum: v = item.totalMin
    case .maximum: v = item.totalMax
    default: v = nil
    }
    let key = JSONValue.quote(ClustersFilter.totalKey(t))
    guard let v else { return [key + ":null"] }
    return [key + ":" + jsonNumber(v), JSONValue.quote(ClustersFilter.totalKey(t) + "_abbreviated") + ":" + JSONValue.quote(ClusterTotal.abbreviated(v))]
}

/// `--by` on a table: refused (status 2) — the server's cells and the fetched points would mix its values.
func refuseGroupingOnATable(_ f: FilterSettings) throws {
    guard let by = f.groupProperty else { return }
    throw ClustersCommandError(message: "--by '\(by)' is not read for a database table: its bubbles would mix the values of '\(by)' "
                               + "(say --where '\(by) = VALUE' for one of them)", status: 2)
}

/// The WHERE for `f` on `table` (conditions and `--since/--until/--time`), as the window writes it
/// (`TableFilter.sqlFilter`); a column or date the table can't answer is status 2.
func tableWhere(_ f: FilterSettings, on table: PostGISTable) throws -> PostGISWhere? {
    do { return try TableFilter.sqlFilter(f, on: table).filter } catch let e as PostGISError {
        throw ClustersCommandError(message: e.description, status: 2)
    }
}

/// `--total KIND:COLUMN` when the table can total it; else status 2 with the window's reason.
func tableTotal(_ t: FilterSettings.TotalSetting?, on table: PostGISTable) throws -> FilterSettings.TotalSetting? {
    guard let t else { return nil }
    if let problem = table.totalProblem(kind: t.kind, column: t.property) {
        throw ClustersCommandError(message: "\(table.displayName): " + problem.replacingOccurrences(of: "; the bubbles show counts", with: ""), status: 2)
    }
    return t
}

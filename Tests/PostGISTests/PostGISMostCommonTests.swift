import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// `--total most-common:kind` on a table against the real server: every bubble's value is SQL's
/// `mode() WITHIN GROUP (ORDER BY kind COLLATE "C")` of its rows (ties: the value that sorts first
/// byte by byte; NULLs left out), on the server's own cells, through the roll-up and on fetched
/// views; a cell with more values than it lists keeps its exact mode and is never rolled up.
extension PostGISSourceTests {
    typealias KindPoint = (lon: Double, lat: Double, kind: String?)

    /// A spread over Europe with random kinds (and NULLs), and spots made to tie: 2 a / 2 b / 1 c
    /// (→ a), 3 a / 3 B (→ B: 'B' sorts before 'a' byte by byte, not in a dictionary), 2 u / 2 ü
    /// (→ u); with `many`, a spot of 100 different values once each and y, z three times (→ y).
    static func kindPoints(many: Bool) -> [KindPoint] {
        var rng = SplitMix(seed: 29)
        let kinds: [String?] = ["a", "b", "B", "c", "ü", "u", "x'; --", nil]
        var p: [KindPoint] = (0..<1500).map { _ in (rng.uniform(-20, 40), rng.uniform(30, 60), kinds[Int(rng.next() % 8)]) }
        func spot(_ lon: Double, _ lat: Double, _ ks: [String?]) {
            for (i, k) in ks.enumerated() { p.append((lon + Double(i) * 1e-5, lat, k)) }
        }
        spot(100, 20, ["b", "a", "c", "b", "a", nil])
        spot(120, -20, ["a", "B", "a", "B", "a", "B"])
        spot(-60, -30, ["ü", "u", "ü", "u"])
        if many { spot(-100, 40, (0..<100).map { "v\($0)" } + ["z", "y", "z", "y", "z", "y"]) }
        return p
    }

    func loadKinds(_ points: [KindPoint], into name: String, on c: PostgresConnection) throws {
        _ = try c.query("CREATE TABLE \(name) (id bigserial PRIMARY KEY, geom geometry(Point, 4326), kind text)")
        func array(_ v: [String]) -> String { "{" + v.joined(separator: ",") + "}" }
        let kinds = points.map { p in p.kind.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" } ?? "NULL" }
        _ = try c.query("INSERT INTO \(name) (geom, kind) SELECT ST_SetSRID(ST_MakePoint(x, y), 4326), k "
                        + "FROM unnest($1::float8[], $2::float8[], $3::text[]) WITH ORDINALITY AS u(x, y, k, o) ORDER BY o",
                        [array(points.map { "\($0.lon)" }), array(points.map { "\($0.lat)" }), array(kinds)])
        _ = try c.query("CREATE INDEX ON \(name) USING gist (geom)")
    }

    /// The mode by hand: most rows, ties to the value whose UTF-8 bytes sort first; nil without values.
    static func mode(_ kinds: [String?]) -> (String, Int)? {
        var counts: [String: Int] = [:]
        for k in kinds { if let k { counts[k, default: 0] += 1 } }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .first.map { ($0.key, $0.value) }
    }

    /// The grid items of a view checked against the rows of their cells: the mode by hand, and
    /// SQL's own `mode()` over the same rows (one query per zoom).
    private func checkCells(_ items: [PostGISItem], zoom z: Int, points: [KindPoint], table: String, options o: PostGISViewOptions,
                            on c: PostgresConnection, _ what: String) throws {
        let (cu, width) = PostGISSource.gridCell(zoom: z, options: o)
        var rows: [Int64: [Int]] = [:]
        for (i, p) in points.enumerated() {
            let x = WebMercator.x(longitude: p.lon), y = WebMercator.y(latitude: p.lat)
            let key = Int64(UInt64(y / cu) * width + min(UInt64(x / cu), width - 1))
            rows[key, default: []].append(i)
        }
        var keys: [String] = [], ids: [String] = []
        for (k, members) in rows { for m in members { keys.append("\(k)"); ids.append("\(m + 1)") } }
        let sql = try c.query("SELECT u.k, mode() WITHIN GROUP (ORDER BY t.kind COLLATE \"C\") FROM unnest($1::int8[], $2::int8[]) AS u(k, id) "
                              + "JOIN \(table) t ON t.id = u.id GROUP BY u.k", ["{" + keys.joined(separator: ",") + "}", "{" + ids.joined(separator: ",") + "}"])
        var sqlMode: [Int64: String?] = [:]
        for i in 0..<sql.rowCount { sqlMode[sql.integer(i, 0) ?? -1] = sql.text(i, 1) }
        var seen = 0
        for item in items where item.isCluster {
            guard let id = item.id else { XCTFail("\(what): a cell without a key"); continue }
            let key = (id - Int64(z + 1)) / 32
            let members = rows[key] ?? []
            XCTAssertEqual(item.count, members.count, "\(what): cell \(key)")
            let expected = Self.mode(members.map { points[$0].kind })
            XCTAssertEqual(item.mostCommon, expected?.0, "\(what): cell \(key) of \(members.count)")
            XCTAssertEqual(item.mostCommonCount, expected?.1, "\(what): cell \(key)")
            XCTAssertEqual(item.mostCommon, sqlMode[key] ?? nil, "\(what): cell \(key): SQL's mode()")
            seen += 1
        }
        for item in items where !item.isCluster {
            guard let id = item.id else { XCTFail("\(what): a place without a key"); continue }
            XCTAssertEqual(item.mostCommon, points[Int(id) - 1].kind, "\(what): place \(id)")
        }
        XCTAssertGreaterThan(seen, 0, what)
    }

    func testAMostCommonTotalIsSQLsModeOnServerCellsRollUpsAndFetchedViews() throws {
        guard let s = Self.server else { throw XCTSkip("no server") }
        let c = try s.connect()
        for many in [false, true] {
            let table = many ? "mc_many" : "mc"
            let points = Self.kindPoints(many: many)
            try loadKinds(points, into: table, on: c)
            let src = try PostGISSource(address: s.address(table))
            XCTAssertNil(src.table.totalProblem(kind: .mostCommon, column: "kind"))
            var o = PostGISViewOptions()
            o.algorithm = .grid
            o.total = "kind"
            o.totalIsMostCommon = true
            // The server's own cells, every zoom.
            var direct = o
            direct.rollsUp = false
            for z in 0...8 {
                let r = try src.clusters(in: .world, zoom: Double(z) + 0.5, options: direct)
                XCTAssertEqual(r.items.map(\.count).reduce(0, +), points.count)
                try checkCells(r.items, zoom: z, points: points, table: table, options: o, on: c, "\(table) direct zoom \(z)")
            }
            // Through the roll-up: one world pass at zoom 3, coarser views summed in the app —
            // unless a cell's list was cut (`many`): then every view asks the server, still exact.
            src.forgetAggregates()
            _ = try src.clusters(in: .world, zoom: 1, options: o)
            let before = src.connection.statementCount
            for z in 0...PostGISSource.rollUpZoom {
                let r = try src.clusters(in: .world, zoom: Double(z) + 0.5, options: o)
                try checkCells(r.items, zoom: z, points: points, table: table, options: o, on: c, "\(table) rolled-up zoom \(z)")
            }
            let asked = src.connection.statementCount - before
            if many { XCTAssertGreaterThan(asked, 0, "cut lists are not summed") } else { XCTAssertEqual(asked, 0, "\(table): summed in the app") }
            // Fetched views: the exact clusters of the rows; each cluster's mode from its leaves.
            var fetched = PostGISViewOptions()
            fetched.total = "kind"
            fetched.totalIsMostCommon = true
            let index = HierarchicalClusterer(points: points.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) },
                                              options: fetched.hierarchical)
            for z in [0, 2, 4, 6, 9] {
                let r = try src.clusters(in: .world, zoom: Double(z), options: fetched)
                guard case .fetched = r.method else { return XCTFail("\(table) zoom \(z): \(r.method)") }
                let expected = index.clusters(in: .world, zoom: Double(z))
                XCTAssertEqual(r.items.count, expected.count, "\(table) fetched zoom \(z)")
                for e in expected {
                    guard case .cluster(let id) = e.kind else { continue }
                    guard let got = r.items.first(where: { $0.id == Int64(id.rawValue) }) else { XCTFail("\(table) zoom \(z): cluster \(id)"); continue }
                    let want = Self.mode(index.leaves(of: id, limit: e.count, offset: 0).map { points[$0].kind })
                    XCTAssertEqual(got.mostCommon, want?.0, "\(table) fetched zoom \(z): cluster of \(e.count)")
                    XCTAssertEqual(got.mostCommonCount, want?.1, "\(table) fetched zoom \(z)")
                }
            }
        }
        // The spots' own cells at a deep zoom: the ties as the rule says.
        let src = try PostGISSource(address: s.address("mc_many"))
        var o = PostGISViewOptions()
        o.algorithm = .grid
        o.total = "kind"
        o.totalIsMostCommon = true
        let spots = try src.clusters(in: .world, zoom: 8, options: o).items.filter { $0.isCluster && ($0.coordinate.longitude < -50 || $0.coordinate.longitude > 90) }
        let words = Set(spots.filter { $0.count <= 106 }.compactMap { s in s.mostCommon.map { "\($0)×\(s.mostCommonCount ?? 0)" } })
        XCTAssertEqual(words, ["a×2", "B×3", "u×2", "y×3"])
    }
}

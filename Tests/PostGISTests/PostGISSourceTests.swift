import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// A PostGIS table against a real, throw-away PostgreSQL 15 + PostGIS: the server's grid cells equal
/// the in-process grid clusterer (`clusters --algorithm grid`) exactly; fetched views equal the
/// hierarchical clusterer; filters are parameters; faults give clear errors.
final class PostGISSourceTests: XCTestCase {
    nonisolated(unsafe) static var server: TestPostgres?
    nonisolated(unsafe) static var points: [(lon: Double, lat: Double, mag: Double, kind: String)] = []

    /// 6,000 points: a spread over Europe, a dense town, 20 on one spot, poles, the antimeridian,
    /// hostile kinds.
    static func makePoints() -> [(lon: Double, lat: Double, mag: Double, kind: String)] {
        var rng = SplitMix(seed: 31)
        var p: [(Double, Double, Double, String)] = []
        let kinds = ["a", "b", "c'; DROP TABLE pts; --", "100%_\\x", "ünï"]
        for i in 0..<5000 {
            p.append((rng.uniform(-10, 30), rng.uniform(35, 60), Double(i % 13), kinds[i % kinds.count]))
        }
        for i in 0..<900 { p.append((2.35 + rng.uniform(-0.01, 0.01), 48.85 + rng.uniform(-0.01, 0.01), Double(i % 7), "town")) }
        for _ in 0..<20 { p.append((151.2, -33.9, 1, "same")) }
        p += [(179.9999, 10, 0, "east"), (-179.9999, 10, 0, "west"), (180, 0, 0, "dateline"), (0, 89.9, 0, "north"),
              (0, -89.9, 0, "south"), (0, 0, 0, "origin"), (-180, -85.06, 0, "corner")]
        return p.map { (lon: $0.0, lat: $0.1, mag: $0.2, kind: $0.3) }
    }

    override class func setUp() {
        super.setUp()
        do {
            let s = try TestPostgres()
            server = s
            points = makePoints()
            let c = try s.connect()
            try loadPoints(points, into: "pts", on: c)
            _ = try c.query("CREATE TABLE nogeom (id int, name text)")
            _ = try c.query("CREATE TABLE shapes (id serial PRIMARY KEY, geom geometry(Polygon, 4326))")
            _ = try c.query("INSERT INTO shapes (geom) VALUES (ST_GeomFromText('POLYGON((10 50, 11 50, 11 51, 10 51, 10 50))', 4326)), "
                            + "(ST_GeomFromText('POLYGON((0 0, 4 0, 4 1, 1 1, 1 4, 0 4, 0 0))', 4326))")
        } catch {
            XCTFail("test server: \(error)")
        }
    }

    override class func tearDown() {
        server = nil
        super.tearDown()
    }

    func source(_ table: String = "pts", timeout: Int = 0) throws -> PostGISSource {
        guard let s = Self.server else { throw XCTSkip("no server (see class setUp failure)") }
        return try PostGISSource(address: s.address(table), statementTimeoutMilliseconds: timeout)
    }

    var coordinates: [GeoCoordinate] { Self.points.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) } }

    static let boxes: [GeoBounds] = [.world, GeoBounds(west: -5, south: 40, east: 20, north: 55),
                                     GeoBounds(west: 2.3, south: 48.8, east: 2.4, north: 48.9),
                                     GeoBounds(west: 170, south: -20, east: -170, north: 20)]

    /// Items near a box edge may fall either side (the in-process index keeps Float positions).
    func nearEdge(_ c: GeoCoordinate, _ b: GeoBounds) -> Bool {
        let e = 1e-6
        return abs(c.longitude - b.west) < e || abs(c.longitude - b.east) < e || abs(c.latitude - b.south) < e || abs(c.latitude - b.north) < e
    }

    func testServerGridCellsEqualTheInProcessGridClustererAtEveryZoom() throws {
        let src = try source()
        var options = PostGISViewOptions()
        options.algorithm = .grid
        let grid = GridClusterer(points: coordinates, options: .init())
        for box in Self.boxes {
            for z in 0...17 {
                let got = try src.clusters(in: box, zoom: Double(z) + 0.5, options: options)
                let expected = grid.clusters(in: box, zoom: Double(z) + 0.5).filter { !nearEdge($0.coordinate, box) }
                let items = got.items.filter { !nearEdge($0.coordinate, box) }
                XCTAssertEqual(items.count, expected.count, "zoom \(z) box \(box)")
                XCTAssertEqual(items.map(\.count).reduce(0, +), expected.map(\.count).reduce(0, +), "zoom \(z) box \(box)")
                // Clusters: same counts at the same places; points: same rows (id = input index + 1).
                var clusters = items.filter(\.isCluster).map { ($0.count, $0.coordinate, $0.expansionZoom) }
                for e in expected {
                    switch e.kind {
                    case .point(let i):
                        XCTAssertTrue(items.contains { !$0.isCluster && $0.id == Int64(i + 1) }, "zoom \(z): point \(i) missing")
                    case .cluster:
                        if let k = clusters.firstIndex(where: { $0.0 == e.count
                            && abs($0.1.latitude - e.coordinate.latitude) < 1e-9 && abs($0.1.longitude - e.coordinate.longitude) < 1e-9 }) {
                            // The zoom a click flies to: where the grid clusterer splits it too.
                            XCTAssertEqual(clusters[k].2, grid.expansionZoom(of: e.clusterID!), "zoom \(z): expansion of \(e.count)")
                            clusters.remove(at: k)
                        } else {
                            XCTFail("zoom \(z) box \(box): cluster of \(e.count) at \(e.coordinate) missing")
                        }
                    }
                }
                XCTAssertTrue(clusters.isEmpty, "zoom \(z): extra clusters \(clusters.prefix(3))")
                if case .aggregated = got.method { XCTAssertLessThanOrEqual(z, 16) } else { XCTAssertEqual(z, 17, "zoom \(z): \(got.method)") }
            }
        }
    }

    func testSmallTableIsFetchedAndClusteredExactlyInProcess() throws {
        let src = try source()
        let index = HierarchicalClusterer(points: coordinates)
        for z in [0, 3, 6, 9, 12] {
            let got = try src.clusters(in: .world, zoom: Double(z))
            XCTAssertEqual(got.method, .fetched(points: Self.points.count))
            let expected = index.clusters(in: .world, zoom: Double(z))
            XCTAssertEqual(got.items.count, expected.count, "zoom \(z)")
            XCTAssertEqual(Set(got.items.filter(\.isCluster).map(\.count)).count, Set(expected.filter(\.isCluster).map(\.count)).count)
            XCTAssertEqual(got.items.map(\.count).sorted(), expected.map(\.count).sorted(), "zoom \(z)")
        }
    }

    func testAboveTheFetchLimitTheServerCounts() throws {
        let src = try source()
        var o = PostGISViewOptions()
        o.fetchLimit = 1000
        let got = try src.clusters(in: .world, zoom: 4, options: o)
        guard case .aggregated = got.method else { return XCTFail("expected server cells, got \(got.method)") }
        XCTAssertEqual(got.items.map(\.count).reduce(0, +), Self.points.count)
    }

    func testFiltersAreParametersEvenForHostileValues() throws {
        let src = try source()
        var o = PostGISViewOptions()
        o.algorithm = .grid
        for kind in ["c'; DROP TABLE pts; --", "100%_\\x", "ünï", "a"] {
            o.conditions = [PostGISCondition(column: "kind", op: .equal, value: kind)]
            let got = try src.clusters(in: .world, zoom: 0, options: o)
            XCTAssertEqual(got.items.map(\.count).reduce(0, +), Self.points.filter { $0.kind == kind }.count, kind)
        }
        // "contains" escapes LIKE's wildcards: "%_" matches only the kind that holds them.
        o.conditions = [try PostGISCondition(parsing: "kind ~ %_")]
        XCTAssertEqual(try src.clusters(in: .world, zoom: 0, options: o).items.map(\.count).reduce(0, +), 1000)
        o.conditions = [try PostGISCondition(parsing: "mag >= 12"), try PostGISCondition(parsing: "kind != town")]
        XCTAssertEqual(try src.clusters(in: .world, zoom: 0, options: o).items.map(\.count).reduce(0, +),
                       Self.points.filter { $0.mag >= 12 && $0.kind != "town" }.count)
        // The table is still there, whole.
        XCTAssertEqual(try src.clusters(in: .world, zoom: 0, options: PostGISViewOptions()).items.map(\.count).reduce(0, +), Self.points.count)
        o.conditions = [PostGISCondition(column: "kind\"; DROP TABLE pts; --", op: .equal, value: "x")]
        XCTAssertThrowsError(try src.clusters(in: .world, zoom: 0, options: o)) {
            XCTAssertEqual(($0 as? PostGISError).map { if case .badFilter = $0 { return true }; return false }, true, "\($0)")
        }
        o.conditions = [try PostGISCondition(parsing: "mag >= 1; DROP TABLE pts")]
        XCTAssertThrowsError(try src.clusters(in: .world, zoom: 0, options: o), "not a number")
    }

    func testTotalsPerCluster() throws {
        let src = try source()
        var o = PostGISViewOptions()
        o.algorithm = .grid
        o.total = "mag"
        let got = try src.clusters(in: .world, zoom: 0, options: o)
        XCTAssertEqual(got.items.compactMap(\.totalSum).reduce(0, +), Self.points.map(\.mag).reduce(0, +), accuracy: 1e-6)
        XCTAssertEqual(got.items.compactMap(\.totalMax).max(), 12)
    }

    func testNonPointGeometriesAreShownAtAPointOnThem() throws {
        let src = try source("shapes")
        XCTAssertFalse(src.table.hasPointGeometry)
        let items = try src.clusters(in: .world, zoom: 10).items
        XCTAssertEqual(items.count, 2)
        let l = items.first { $0.coordinate.longitude < 5 }!.coordinate
        // Inside the L shape (not its centroid's empty corner).
        XCTAssertTrue((l.longitude < 1 && l.latitude < 4) || (l.latitude < 1 && l.longitude < 4), "\(l)")
    }

    func testMissingTableOrGeometryGiveClearErrors() throws {
        XCTAssertThrowsError(try source("nogeom")) { XCTAssertTrue("\($0)".contains("no usable geometry column"), "\($0)") }
        XCTAssertThrowsError(try source("nosuch")) { XCTAssertEqual($0 as? PostGISError, .noSuchTable("nosuch")) }
        guard let s = Self.server else { return }
        XCTAssertThrowsError(try PostGISSource(address: s.address("pts", extra: "&geometry=kind"))) {
            XCTAssertTrue("\($0)".contains("column kind is text, not a geometry"), "\($0)")
        }
        XCTAssertThrowsError(try PostGISSource(address: "postgresql://127.0.0.1/test")) {
            XCTAssertTrue("\($0)".contains("no table"), "\($0)")
        }
    }

    func testPasswordRequiredAndWrongPassword() throws {
        guard let s = Self.server else { throw XCTSkip("no server") }
        XCTAssertThrowsError(try PostGISSource(address: s.address("pts", user: "pwuser"))) {
            XCTAssertEqual($0 as? PostGISError, .passwordRequired(user: "pwuser"))
        }
        XCTAssertThrowsError(try PostGISSource(address: s.address("pts", user: "pwuser"), password: "wrong")) {
            XCTAssertEqual($0 as? PostGISError, .authenticationFailed(user: "pwuser"))
            XCTAssertFalse("\($0)".contains("wrong"), "the password never appears in a message")
        }
        // Connected, but not allowed to read the table: said so.
        XCTAssertThrowsError(try PostGISSource(address: s.address("pts", user: "pwuser"), password: "secret")) {
            XCTAssertEqual($0 as? PostGISError, .notAllowed("public.pts"))
        }
        _ = try s.connect().query("GRANT SELECT ON pts TO pwuser")
        XCTAssertNoThrow(try PostGISSource(address: s.address("pts", user: "pwuser"), password: "secret"))
    }

    func testStatementTimeout() throws {
        let src = try source(timeout: 100)
        XCTAssertThrowsError(try src.connection.query("SELECT pg_sleep(2)")) {
            XCTAssertEqual($0 as? PostGISError, .statementTimeout(milliseconds: 100))
        }
        XCTAssertNoThrow(try src.clusters(in: .world, zoom: 2), "the session still works")
    }

    func testCancelStopsTheQueryInFlight() throws {
        let src = try source()
        let done = expectation(description: "query ended")
        let start = Date()
        nonisolated(unsafe) var error: Error?
        Thread.detachNewThread {
            do { _ = try src.connection.query("SELECT pg_sleep(20)") } catch let e { error = e }
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.3)
        src.cancel()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(error as? PostGISError, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertNoThrow(try src.clusters(in: .world, zoom: 2), "the connection is usable after a cancel")
    }
}

/// SplitMix64 for seeded fixtures.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
}

/// The pyramid: built by SQL, used automatically for the views it fits, equal to the grid clusterer
/// (and so to the server's direct GROUP BY), refreshed by building again.
final class PostGISPyramidTests: XCTestCase {
    func testPyramidViewsEqualTheGridClustererAndRefresh() throws {
        let s = try TestPostgres()
        var points = PostGISSourceTests.makePoints()
        try loadPoints(points, into: "big", on: s.connect())
        let src = try PostGISSource(address: s.address("big"))
        XCTAssertNil(src.pyramid)
        let cells = try PostGISPyramid.build(for: src, maxZoom: 16)
        XCTAssertEqual(cells.count, 17)
        XCTAssertEqual(src.pyramid?.maxZoom, 16)
        // A new source finds it.
        let again = try PostGISSource(address: s.address("big"))
        XCTAssertEqual(again.pyramid, src.pyramid)
        var o = PostGISViewOptions()
        o.algorithm = .grid
        func check(_ n: Int) throws {
            let grid = GridClusterer(points: points.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) })
            for box in PostGISSourceTests.boxes {
                for z in 0...16 {
                    let got = try again.clusters(in: box, zoom: Double(z), options: o)
                    guard case .pyramid = got.method else { return XCTFail("zoom \(z): \(got.method)") }
                    let expected = grid.clusters(in: box, zoom: Double(z))
                    XCTAssertEqual(got.items.map(\.count).sorted(), expected.map(\.count).sorted(), "zoom \(z) box \(box)")
                    let a = got.items.filter(\.isCluster).map { [$0.coordinate.longitude, $0.coordinate.latitude] }.sorted { $0.lexicographicallyPrecedes($1) }
                    let b = expected.filter(\.isCluster).map { [$0.coordinate.longitude, $0.coordinate.latitude] }.sorted { $0.lexicographicallyPrecedes($1) }
                    XCTAssertEqual(a.count, b.count)
                    for (p, q) in zip(a, b) { XCTAssertEqual(p[0], q[0], accuracy: 1e-9); XCTAssertEqual(p[1], q[1], accuracy: 1e-9) }
                }
            }
            XCTAssertEqual(try again.clusters(in: .world, zoom: 3, options: o).items.map(\.count).reduce(0, +), n)
        }
        try check(points.count)
        // Dense hierarchical views are the pyramid's cells (no row count first); sparse ones fetched.
        var dense = PostGISViewOptions()
        dense.fetchLimit = 1000
        let world = try again.clusters(in: .world, zoom: 3, options: dense)
        guard case .pyramid = world.method else { return XCTFail("dense view: \(world.method)") }
        XCTAssertEqual(world.items.map(\.count).reduce(0, +), points.count)
        let town = try again.clusters(in: GeoBounds(west: 2.3, south: 48.8, east: 2.4, north: 48.9), zoom: 12, options: dense)
        guard case .fetched = town.method else { return XCTFail("sparse view: \(town.method)") }
        // Filtered views don't use it.
        o.conditions = [PostGISCondition(column: "kind", op: .equal, value: "a")]
        guard case .aggregated = try again.clusters(in: .world, zoom: 3, options: o).method else { return XCTFail("filtered view used the pyramid") }
        o.conditions = []
        // New rows: the pyramid is stale until built again, then right.
        _ = try s.connect().query("INSERT INTO big (geom, mag, kind) VALUES (ST_SetSRID(ST_MakePoint(5, 5), 4326), 1, 'new')")
        points.append((lon: 5, lat: 5, mag: 1, kind: "new"))
        XCTAssertEqual(try again.clusters(in: .world, zoom: 3, options: o).items.map(\.count).reduce(0, +), points.count - 1)
        try PostGISPyramid.build(for: again, maxZoom: 16)
        try check(points.count)
        // Without a depth: the table's size picks it (5,928 rows: zoom 3, 16 × 8² cells ≤ rows / 4).
        XCTAssertEqual(PostGISPyramid.automaticMaxZoom(rows: 10_000_000, cellSize: 64), 8)
        XCTAssertEqual(try PostGISPyramid.build(for: again).count, 4)
        XCTAssertEqual(again.pyramid?.maxZoom, 3)
    }
}

import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// Cards of places on tables whose key is not an integer: a uuid or text primary key, or a unique
/// NOT NULL column without a primary key, names each row (its id the key's 64-bit hash), and a
/// place beyond a view's first cards is read again by its point and that hash; a table with no
/// such column has no row ids (the window's card says details aren't available).
extension PostGISSourceTests {
    func testPlacesOfTablesWithoutAnIntegerKeyGetTheirCardsLate() throws {
        guard let server = Self.server else { throw XCTSkip("no server (see class setUp failure)") }
        let c = try server.connect()
        // 300 places 2 m apart (each alone at zoom 19), in a 3857 copy too (rows found through a transform).
        let rows = "SELECT ST_SetSRID(ST_MakePoint(2.3 + (g % 20) * 0.00002, 48.8 + (g / 20) * 0.00002), 4326) AS geom, 'row ' || g AS kind "
            + "FROM generate_series(1, 300) g"
        _ = try c.query("CREATE TABLE by_uuid AS SELECT md5('u' || kind)::uuid AS key, geom, kind FROM (\(rows)) r")
        _ = try c.query("ALTER TABLE by_uuid ADD PRIMARY KEY (key)")
        _ = try c.query("CREATE TABLE by_text AS SELECT 'k-' || kind AS code, ST_Transform(geom, 3857)::geometry(Point, 3857) AS geom, kind FROM (\(rows)) r")
        _ = try c.query("ALTER TABLE by_text ALTER code SET NOT NULL")
        _ = try c.query("CREATE UNIQUE INDEX ON by_text (code)")
        _ = try c.query("CREATE TABLE by_pair AS SELECT 1 AS a, kind AS b, geom, kind FROM (\(rows)) r")
        _ = try c.query("ALTER TABLE by_pair ADD PRIMARY KEY (a, b)")
        _ = try c.query("CREATE TABLE keyless AS SELECT geom, kind FROM (\(rows)) r")
        for t in ["by_uuid", "by_text", "by_pair", "keyless"] { _ = try c.query("CREATE INDEX ON \(t) USING gist (geom)") }
        let view = GeoBounds(west: 2.2999, south: 48.7999, east: 2.3005, north: 48.8031)
        for (table, key) in [("by_uuid", "key"), ("by_text", "code"), ("by_pair", nil), ("keyless", nil)] {
            let s = try source(table)
            XCTAssertEqual(s.table.idColumn, key, table)
            XCTAssertFalse(s.table.keyIsInteger, table)
            let done = expectation(description: table)
            nonisolated(unsafe) var answer: PostGISViewResult?
            let queue = PostGISViewQueue(source: s, options: PostGISViewOptions(), placeCards: 200) { _, result in
                answer = try? result.get()
                done.fulfill()
            }
            queue.request(.init(bounds: view, zoom: 19))
            wait(for: [done], timeout: 60)
            let r = try XCTUnwrap(answer, table)
            let places = r.items.filter { !$0.isCluster }
            XCTAssertEqual(places.count, 300, "\(table): every place alone")
            let reader = s.rowReader()
            guard key != nil else {
                XCTAssertTrue(places.allSatisfy { $0.id == nil }, "\(table): no row ids without a key")
                XCTAssertTrue(r.placeProperties.isEmpty, table)
                XCTAssertFalse(reader.canRead, table)
                continue
            }
            XCTAssertEqual(Set(places.compactMap(\.id)).count, 300, "\(table): every row its own id")
            XCTAssertEqual(r.placeProperties.count, 200, "\(table): the view reads its first 200 places' columns")
            for (id, json) in r.placeProperties {
                let place = try XCTUnwrap(places.first { $0.id == id })
                XCTAssertEqual(Self.column("kind", json), Self.column("kind", try XCTUnwrap(reader.properties(ofRow: id, at: place.coordinate))))
            }
            // The other 100: read by id at their point, each its own row (as SQL names it by its key).
            let unread = places.filter { r.placeProperties[$0.id!] == nil }
            XCTAssertEqual(unread.count, 100, table)
            let keys = try c.query("SELECT hashtextextended(\(key!)::text, 0), kind, \(key!)::text FROM \(table)")
            var kindOf: [Int64: String] = [:]
            for i in 0..<keys.rowCount { kindOf[keys.integer(i, 0)!] = keys.text(i, 1) }
            for place in unread {
                let json = try XCTUnwrap(reader.properties(ofRow: place.id!, at: place.coordinate), "\(table): place \(place.id!)")
                XCTAssertEqual(Self.column("kind", json), kindOf[place.id!], table)
                XCTAssertNotNil(Self.column(key!, json), "\(table): the key is among the columns")
                // The row's point: its kind names where it was put.
                let g = Int(Self.column("kind", json)!.dropFirst(4))!
                XCTAssertEqual(place.coordinate.longitude, 2.3 + Double(g % 20) * 0.00002, accuracy: 1e-7, table)
                XCTAssertEqual(place.coordinate.latitude, 48.8 + Double(g / 20) * 0.00002, accuracy: 1e-7, table)
            }
            XCTAssertNil(try reader.properties(ofRow: 12345, at: unread[0].coordinate), "\(table): no such row")
            // Without its point (a caller that has none) the row is still found, by hashing every row.
            XCTAssertEqual(Self.column("kind", try XCTUnwrap(reader.properties(ofRow: unread[0].id!))), kindOf[unread[0].id!])
        }
    }

    private static func column(_ name: String, _ json: String) -> String? {
        guard let o = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        return o[name].map { "\($0)" }
    }
}

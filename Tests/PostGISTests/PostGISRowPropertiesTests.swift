import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// The places' own columns (their cards in the window), read per view with the queue.
extension PostGISSourceTests {
    func testPlacesColumnsAreReadByIdWithoutTheGeometry() throws {
        let s = try source()
        let props = try s.rowProperties(ids: [1, 3, 5003, 999_999])
        XCTAssertEqual(Set(props.keys), [1, 3, 5003])
        let row = try XCTUnwrap(props[3])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["id", "mag", "kind"], "no geometry column")
        XCTAssertEqual(object["kind"] as? String, Self.points[2].kind, "hostile text read back as it is")
        XCTAssertEqual(try s.rowProperties(ids: []), [:])
        // Polygons (shown at a point on them) have their columns read the same way.
        XCTAssertEqual(try source("shapes").rowProperties(ids: [1]).count, 1)
    }

    func testTheWindowsQueueReadsItsPlacesCards() throws {
        let s = try source()
        let done = expectation(description: "answer")
        nonisolated(unsafe) var answer: PostGISViewResult?
        let queue = PostGISViewQueue(source: s, options: PostGISViewOptions(), placeCards: 5) { _, result in
            answer = try? result.get()
            done.fulfill()
        }
        // The town at zoom 17: its places stand alone.
        queue.request(.init(bounds: GeoBounds(west: 2.34, south: 48.84, east: 2.36, north: 48.86), zoom: 17))
        wait(for: [done], timeout: 30)
        let r = try XCTUnwrap(answer)
        let placeIDs = r.items.filter { !$0.isCluster }.compactMap(\.id)
        XCTAssertGreaterThan(placeIDs.count, 5)
        XCTAssertEqual(Set(r.placeProperties.keys), Set(placeIDs.prefix(5)), "the first five places' columns")
        for json in r.placeProperties.values { XCTAssertTrue(json.contains("\"kind\": \"town\"")) }
    }

    /// A view of more places than it reads columns for (2,500 > the window's 2,000): the rest are
    /// read by key when a card opens, on the reader's own connection while a view runs.
    func testAPlaceBeyondTheViewsCardsIsReadByItsKeyOnItsOwnConnection() throws {
        guard let server = Self.server else { throw XCTSkip("no server (see class setUp failure)") }
        // 2,500 places 2 m apart: at zoom 19 each stands alone, and one view holds them all.
        var points: [(lon: Double, lat: Double, mag: Double, kind: String)] = []
        for i in 0..<2500 {
            points.append((lon: 2.3 + Double(i % 50) * 0.00002, lat: 48.8 + Double(i / 50) * 0.00002, mag: Double(i), kind: "row \(i + 1)"))
        }
        try loadPoints(points, into: "many_places", on: try server.connect())
        let s = try source("many_places")
        let done = expectation(description: "answer")
        nonisolated(unsafe) var answer: PostGISViewResult?
        let queue = PostGISViewQueue(source: s, options: PostGISViewOptions(), placeCards: 2000) { _, result in
            answer = try? result.get()
            done.fulfill()
        }
        queue.request(.init(bounds: GeoBounds(west: 2.2999, south: 48.7999, east: 2.3011, north: 48.8011), zoom: 19))
        // While the view runs on the source's connection, the reader answers on its own.
        let reader = s.rowReader()
        XCTAssertEqual(try reader.properties(ofRow: 2500).flatMap(Self.kind), "row 2500")
        wait(for: [done], timeout: 60)
        let r = try XCTUnwrap(answer)
        let placeIDs = r.items.filter { !$0.isCluster }.compactMap(\.id)
        XCTAssertEqual(placeIDs.count, 2500, "every place stands alone in the view")
        XCTAssertEqual(r.placeProperties.count, 2000, "the view reads the first 2,000 places' columns")
        let unread = placeIDs.filter { r.placeProperties[$0] == nil }
        XCTAssertEqual(unread.count, 500)
        for id in unread.prefix(5) {
            XCTAssertEqual(try reader.properties(ofRow: id).flatMap(Self.kind), "row \(id)", "its card's columns, by key")
        }
        XCTAssertNil(try reader.properties(ofRow: 999_999), "no such row")
    }

    private static func kind(_ json: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["kind"] as? String
    }
}

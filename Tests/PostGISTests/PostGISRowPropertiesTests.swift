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
}

import Foundation
import XCTest
@testable import PostGIS

/// Changes to a table are seen: at once with the notify trigger, by the row counters without it.
final class PostGISChangeWatcherTests: XCTestCase {
    func testChangesAreSeenWithAndWithoutTheTrigger() throws {
        let s = try TestPostgres()
        let c = try s.connect()
        try loadPoints([(lon: 1, lat: 1, mag: 1, kind: "a")], into: "live", on: c)
        let src = try PostGISSource(address: s.address("live"))
        let watcher = try PostGISChangeWatcher(source: src)
        XCTAssertFalse(try watcher.waitForChange(seconds: 1.5), "nothing changed")
        // Without the trigger: the counters move within a couple of seconds.
        _ = try c.query("INSERT INTO live (geom) VALUES (ST_SetSRID(ST_MakePoint(2, 2), 4326))")
        XCTAssertTrue(try watcher.waitForChange(seconds: 15))
        try PostGISChangeWatcher.installNotifyTrigger(on: src)
        _ = try watcher.waitForChange(seconds: 2)  // the trigger's own DDL is no row change; settle
        let start = Date()
        _ = try c.query("DELETE FROM live WHERE kind IS NULL")
        XCTAssertTrue(try watcher.waitForChange(seconds: 15))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0, "the notification came at once")
        XCTAssertEqual(try src.clusters(in: .world, zoom: 1).items.map(\.count).reduce(0, +), 1)
    }
}

import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// A server that is down, or dies mid-query: clear errors, and the source works again once the
/// server is back (each test has a server of its own, since it stops it).
final class PostGISFaultTests: XCTestCase {
    func testServerDownIsUnreachable() throws {
        // A port in our range where nothing listens (a server started and stopped just now).
        let s = try TestPostgres()
        let address = s.address("pts")
        s.stop()
        XCTAssertThrowsError(try PostGISSource(address: address)) {
            guard case .serverUnreachable(let m) = $0 as? PostGISError else { return XCTFail("\($0)") }
            XCTAssertTrue(m.contains("127.0.0.1") || m.contains("refused"), m)
        }
    }

    func testServerKilledMidQueryThenBack() throws {
        let s = try TestPostgres()
        try loadPoints((0..<2000).map { (lon: Double($0 % 40), lat: Double($0 / 40), mag: 1, kind: "k") }, into: "pts", on: s.connect())
        let src = try PostGISSource(address: s.address("pts"))
        let done = expectation(description: "query ended")
        nonisolated(unsafe) var error: Error?
        Thread.detachNewThread {
            do { _ = try src.connection.query("SELECT pg_sleep(30)") } catch let e { error = e }
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.5)
        s.stop(mode: "immediate")  // as if killed: no goodbye to the clients
        wait(for: [done], timeout: 20)
        guard case .connectionLost = error as? PostGISError else { return XCTFail("\(String(describing: error))") }
        XCTAssertThrowsError(try src.clusters(in: .world, zoom: 3)) {
            guard case .connectionLost = $0 as? PostGISError else { return XCTFail("\($0)") }
        }
        XCTAssertFalse(src.reconnect(), "still down")
        try s.restart()
        XCTAssertTrue(src.reconnect())
        XCTAssertEqual(try src.clusters(in: .world, zoom: 3).items.map(\.count).reduce(0, +), 2000)
    }
}

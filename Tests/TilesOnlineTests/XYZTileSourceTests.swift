import CSoup
import Foundation
import TileTestSupport
@testable import Tiles
import TilesOnline
import XCTest

/// The online source against a loopback server (no internet): tiles arrive with an honest
/// User-Agent, a second launch is served from the HTTP cache, failures stay quiet and are retried
/// only when worth it, at most four requests are in flight, cancelled requests don't go out.
final class XYZTileSourceTests: XCTestCase {
    static let userAgent = LoopbackTileServer.userAgent

    /// Iterates the default GLib main context until `done` or the time-out.
    private func spin(timeout: Double = 10, until done: () -> Bool) {
        let end = Date().addingTimeInterval(timeout)
        while !done() && Date() < end {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
    }

    private func source(_ server: LoopbackTileServer, _ path: String, cache: String? = nil) -> XYZTileSource {
        let t = TileURLTemplate("\(server.base)/\(path)/{z}/{x}/{y}")!
        let s = XYZTileSource(template: t, userAgent: Self.userAgent, cacheDirectory: cache)
        s.backoffSeconds = 0.02
        return s
    }

    func testTilesArriveWithAnHonestUserAgentAndASecondLaunchUsesTheCache() throws {
        let server = try LoopbackTileServer()
        let folder = TemporaryFolder()
        let cache = folder.path("http")
        let tiles = [TileID(z: 3, x: 1, y: 2), TileID(z: 3, x: 2, y: 2), TileID(z: 4, x: 9, y: 5)]
        var results: [TileID: Data] = [:]
        do {
            let s = source(server, "tiles", cache: cache)
            for t in tiles { s.fetch(t) { if case let .success(d) = $0 { results[t] = d } } }
            spin { results.count == tiles.count }
            XCTAssertEqual(s.statistics.loaded, 3)
            s.saveCache()
        }
        XCTAssertEqual(results[tiles[2]], Data("tile /tiles/4/9/5".utf8))
        let first = server.stats(afterRequests: 3)
        XCTAssertEqual(first.count, 3)
        XCTAssertEqual(Set(first.user_agents), [Self.userAgent])

        // A new session on the same cache directory: every tile from the cache, no request.
        var again: [TileID: Data] = [:]
        let s2 = source(server, "tiles", cache: cache)
        for t in tiles { s2.fetch(t) { if case let .success(d) = $0 { again[t] = d } } }
        spin { again.count == tiles.count }
        XCTAssertEqual(again, results)
        usleep(100_000)
        XCTAssertEqual(server.stats().count, 3, "served from the cache")
    }

    func testFailuresAreReportedOnceAndRetriedOnlyForServerErrors() throws {
        let server = try LoopbackTileServer()
        var outcomes: [String: XYZTileSource.FetchError] = [:]
        let missing = source(server, "notfound"), broken = source(server, "error")
        missing.fetch(TileID(z: 1, x: 0, y: 0)) { if case let .failure(e) = $0 { outcomes["missing"] = e } }
        broken.fetch(TileID(z: 1, x: 0, y: 0)) { if case let .failure(e) = $0 { outcomes["broken"] = e } }
        spin { outcomes.count == 2 }
        XCTAssertEqual(outcomes["missing"], .notFound)
        XCTAssertEqual(outcomes["broken"], .http(500))
        // The server writes its statistics after answering: give the last write a moment.
        spin(timeout: 3) { server.stats().paths.filter { $0.hasPrefix("/error") }.count >= 3 }
        let stats = server.stats()
        XCTAssertEqual(stats.paths.filter { $0.hasPrefix("/notfound") }.count, 1, "404 is not retried")
        XCTAssertEqual(stats.paths.filter { $0.hasPrefix("/error") }.count, 3, "500 is retried with backoff")
        XCTAssertEqual(broken.statistics, XYZTileSource.Statistics(requested: 1, loaded: 0, failed: 1, cancelled: 0, retried: 2))

        // Nobody listening: a network error after the retries, no crash, no hang.
        let closed = XYZTileSource(template: TileURLTemplate("http://127.0.0.1:9/{z}/{x}/{y}")!, userAgent: Self.userAgent,
                                   cacheDirectory: nil)
        closed.backoffSeconds = 0.01
        var offline: XYZTileSource.FetchError?
        closed.fetch(TileID(z: 0, x: 0, y: 0)) { if case let .failure(e) = $0 { offline = e } }
        spin { offline != nil }
        if case .network = offline {} else { XCTFail("expected a network error, got \(String(describing: offline))") }
    }

    func testAtMostFourInFlightAndCancelledRequestsDoNotGoOut() throws {
        let server = try LoopbackTileServer()
        let s = source(server, "slow")
        var results: [Int: Result<Data, XYZTileSource.FetchError>] = [:]
        var requests: [XYZTileSource.Request] = []
        for i in 0..<10 {
            requests.append(s.fetch(TileID(z: 4, x: i, y: 3)) { results[i] = $0 })
        }
        // 0…3 are in flight; 4…9 wait. Cancel three waiting ones and one running one.
        for i in [4, 5, 6] { s.cancel(requests[i]) }
        XCTAssertEqual(results.count, 3, "waiting requests are cancelled at once")
        s.cancel(requests[0])
        spin { results.count == 10 }
        XCTAssertEqual(results.count, 10)
        for i in [0, 4, 5, 6] {
            guard case .failure(.cancelled)? = results[i] else { return XCTFail("\(i): \(String(describing: results[i]))") }
        }
        for i in [1, 2, 3, 7, 8, 9] {
            guard case .success? = results[i] else { return XCTFail("\(i): \(String(describing: results[i]))") }
        }
        usleep(500_000)  // let the server finish the aborted request
        let stats = server.stats()
        XCTAssertLessThanOrEqual(stats.max_in_flight, 4)
        XCTAssertGreaterThanOrEqual(stats.max_in_flight, 2, "requests do run in parallel")
        for i in [4, 5, 6] { XCTAssertFalse(stats.paths.contains("/slow/4/\(i)/3"), "cancelled before it went out") }
        XCTAssertEqual(s.statistics.cancelled, 4)
        XCTAssertEqual(s.statistics.loaded, 6)
    }

    func testURLTemplates() {
        XCTAssertNil(TileURLTemplate("https://example.org/tiles.png"))
        XCTAssertNil(TileURLTemplate("file:///{z}/{x}/{y}.png"))
        let osm = TileURLTemplate("https://{s}.tile.example.org/{z}/{x}/{y}{r}.png", hasRetina: true)!
        XCTAssertEqual(osm.url(for: TileID(z: 2, x: 1, y: 1)), "https://c.tile.example.org/2/1/1.png")
        XCTAssertEqual(osm.url(for: TileID(z: 2, x: 1, y: 1), scale: 2), "https://c.tile.example.org/2/1/1@2x.png")
        XCTAssertEqual(osm.url(for: TileID(z: 2, x: -3, y: 0)), "https://b.tile.example.org/2/1/0.png", "wrapped")
        let tms = TileURLTemplate("http://h:8080/{z}/{x}/{-y}")!
        XCTAssertEqual(tms.url(for: TileID(z: 3, x: 1, y: 1)), "http://h:8080/3/1/6")
        XCTAssertEqual(TileURLTemplate.host(of: "http://h:8080/3/1/6"), "h:8080")
    }
}

/// Keys stay secret (issue 34): the HTTP cache, whose index holds each tile URL (with its key),
/// is the user's alone.
final class TileCachePrivacyTests: XCTestCase {
    func testTheCacheFolderAndItsFilesAreTheUsersAlone() throws {
        let server = try LoopbackTileServer()
        let folder = TemporaryFolder()
        let cache = folder.path("clustermap/http")
        // An older version left a world-readable folder behind.
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let key = "Kk11Jj22Hh33Gg44"
        let s = XYZTileSource(template: TileURLTemplate("\(server.base)/tiles/{z}/{x}/{y}.png?key=\(key)")!,
                              userAgent: XYZTileSourceTests.userAgent, cacheDirectory: cache)
        var loaded = 0
        for x in 0..<4 { s.fetch(TileID(z: 2, x: x, y: 1)) { if case .success = $0 { loaded += 1 } } }
        let end = Date().addingTimeInterval(10)
        while loaded < 4 && Date() < end { if g_main_context_iteration(nil, 0) == 0 { usleep(1000) } }
        XCTAssertEqual(loaded, 4)
        s.saveCache()

        func mode(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1 }
        XCTAssertEqual(mode(cache), 0o700, "cache folder")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        XCTAssertTrue(files.contains("soup.cache2"), "the index was written: \(files)")
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for name in files { XCTAssertEqual(mode(cache + "/" + name), 0o600, name) }
        // libsoup keys its cache by URL: the index holds the key, so the permissions are the protection.
        let index = try Data(contentsOf: URL(fileURLWithPath: cache + "/soup.cache2"))
        print("soup.cache2 holds the key in clear: \(index.range(of: Data(key.utf8)) != nil)")
    }
}

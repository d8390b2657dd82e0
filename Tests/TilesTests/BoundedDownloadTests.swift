import CSoup
import Foundation
import TileTestSupport
@testable import Tiles
@testable import TilesOnline
import XCTest

/// Hostile tile servers and feeds (issue 34): an answer of 2 GiB, one that never ends, a gzip
/// bomb, a body that trickles in, a redirect loop. Each stops at its limit, in words, without
/// the memory (the peak is measured), and is not retried.
final class BoundedDownloadTests: XCTestCase {
    private func spin(timeout: Double = 20, until done: () -> Bool) {
        let end = Date().addingTimeInterval(timeout)
        while !done() && Date() < end {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
    }

    private func source(_ server: LoopbackTileServer, _ path: String) -> XYZTileSource {
        let s = XYZTileSource(template: TileURLTemplate("\(server.base)/\(path)/{z}/{x}/{y}")!,
                              userAgent: LoopbackTileServer.userAgent, cacheDirectory: nil)
        s.backoffSeconds = 0.02
        return s
    }

    /// Fetches one tile from `path`; the failure's words and the peak memory rise in MB.
    private func fetchFailure(_ server: LoopbackTileServer, _ path: String, configure: (XYZTileSource) -> Void = { _ in })
        -> (message: String?, megabytes: Double, seconds: Double) {
        let s = source(server, path)
        configure(s)
        var outcome: Result<Data, XYZTileSource.FetchError>?
        let started = Date()
        let rise = PeakMemory.rise {
            s.fetch(TileID(z: 2, x: 1, y: 1)) { outcome = $0 }
            spin { outcome != nil }
        }
        let seconds = Date().timeIntervalSince(started)
        guard case .failure(.network(let text))? = outcome else {
            XCTFail("\(path): expected a failure in words, got \(String(describing: outcome))")
            return (nil, rise, seconds)
        }
        return (text, rise, seconds)
    }

    /// Requests the server saw for `prefix` once it has written them down.
    private func requests(_ server: LoopbackTileServer, _ prefix: String, atLeast: Int = 1) -> Int {
        spin(timeout: 3) { server.stats().paths.filter { $0.hasPrefix(prefix) }.count >= atLeast }
        usleep(200_000)  // one more that shouldn't come
        return server.stats().paths.filter { $0.hasPrefix(prefix) }.count
    }

    func testThePeakMeasureSeesARise() {
        // The memory assertions below mean something only if a real rise shows.
        let rise = PeakMemory.rise {
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 96 << 20)
            p.initialize(repeating: 1, count: 96 << 20)
            p.deallocate()
        }
        XCTAssertGreaterThan(rise, 80)
    }

    func testAHugeAnEndlessAndAGzipBombTileStopAtTheLimitWithoutTheMemory() throws {
        let server = try LoopbackTileServer()
        for path in ["huge", "endless", "bomb"] {
            let (message, megabytes, seconds) = fetchFailure(server, path)
            XCTAssertEqual(message, "the answer is larger than 8 MB", path)
            // Without the limit: 2 GiB, unbounded, and 1 GiB decompressed.
            XCTAssertLessThan(megabytes, 48, "\(path): peak rise in MB")
            XCTAssertLessThan(seconds, 10, path)
            XCTAssertEqual(requests(server, "/\(path)/"), 1, "\(path): a limit is not retried")
            print("\(path): peak rise \(Int(megabytes)) MB, \(String(format: "%.2f", seconds)) s")
        }
    }

    func testATricklingTileEndsAtItsDeadline() throws {
        let server = try LoopbackTileServer()
        // One byte every 0.3 s never trips libsoup's 15 s silence time-out.
        let (message, _, seconds) = fetchFailure(server, "trickle") { $0.tileDeadlineSeconds = 1 }
        XCTAssertEqual(message, "the answer took longer than 1 s")
        XCTAssertEqual(seconds, 1, accuracy: 0.8)
        XCTAssertEqual(requests(server, "/trickle/"), 1, "a deadline is not retried")
    }

    func testAnHonestRedirectIsFollowed() throws {
        let server = try LoopbackTileServer()
        let s = source(server, "moved")
        var outcome: Result<Data, XYZTileSource.FetchError>?
        s.fetch(TileID(z: 2, x: 1, y: 3)) { outcome = $0 }
        spin { outcome != nil }
        XCTAssertEqual(try outcome?.get(), Data("tile /tiles/2/1/3".utf8))
    }

    func testARedirectLoopStopsAfterFiveHops() throws {
        let server = try LoopbackTileServer()
        let (message, _, _) = fetchFailure(server, "loop")
        XCTAssertEqual(message, "more than 5 redirects")
        XCTAssertEqual(requests(server, "/loop/", atLeast: 6), 6, "the request and five hops, no retry")
    }

    func testAFeedIsBoundedAndAlwaysAnswers() throws {
        let server = try LoopbackTileServer()
        XCTAssertEqual(HTTPDownload.defaultMaxBytes, 256 << 20, "the documented feed limit")
        let download = HTTPDownload(userAgent: LoopbackTileServer.userAgent, deadlineSeconds: 1)
        download.maxBytes = 16 << 20
        func get(_ path: String) -> (Result<Data, XYZTileSource.FetchError>?, Double) {
            var outcome: Result<Data, XYZTileSource.FetchError>?
            let rise = PeakMemory.rise {
                download.get("\(server.base)/\(path)") { outcome = $0 }
                spin { outcome != nil }
            }
            return (outcome, rise)
        }
        let (ok, _) = get("tiles/1/2/3")
        XCTAssertEqual(try ok?.get(), Data("tile /tiles/1/2/3".utf8))
        func words(_ outcome: Result<Data, XYZTileSource.FetchError>?) -> String? {
            if case .failure(.network(let text))? = outcome { return text }
            return nil
        }
        for path in ["endless/feed.geojson", "bomb/feed.geojson", "huge/feed.geojson"] {
            let (outcome, megabytes) = get(path)
            XCTAssertEqual(words(outcome), "the answer is larger than 16 MB", path)
            XCTAssertLessThan(megabytes, 16 * 3 + 32, "\(path): peak rise in MB")
        }
        // A stuck feed still answers (the caller schedules its next refresh from the answer).
        let (stuck, _) = get("trickle/feed.geojson")
        XCTAssertEqual(words(stuck), "the answer took longer than 1 s")
        let (bad, _) = get("loop/feed.geojson")
        XCTAssertEqual(words(bad), "more than 5 redirects")
    }

    func testAStuckFeedGivesUpAboutWhenTheNextRefreshIsDue() {
        XCTAssertEqual(HTTPDownload.feedDeadline(refreshSeconds: 60), 60)
        XCTAssertEqual(HTTPDownload.feedDeadline(refreshSeconds: 5), 30, "room for a big feed")
        XCTAssertEqual(HTTPDownload.feedDeadline(refreshSeconds: 3600), 120)
        XCTAssertEqual(HTTPDownload.feedDeadline(refreshSeconds: .infinity), 120)
    }
}

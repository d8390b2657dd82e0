import CSoup
import Foundation
import TileTestSupport
@testable import Tiles
import TilesOnline
import XCTest

/// The online source behind the same `TileSource` interface as the files: a loader thread asks
/// for a tile and waits while the request runs on the source's main context (here the test
/// thread, iterating it); 404 is an absent tile, a server error after the retries throws.
final class XYZTileSourceBlockingTests: XCTestCase {
    private func source(_ server: LoopbackTileServer, _ path: String) -> XYZTileSource {
        let s = XYZTileSource(template: TileURLTemplate("\(server.base)/\(path)/{z}/{x}/{y}")!,
                              userAgent: XYZTileSourceTests.userAgent, cacheDirectory: nil)
        s.backoffSeconds = 0.02
        return s
    }

    /// Calls `read` on a loader thread while this thread runs the main context, until it answers.
    private func readOffThread<T>(_ read: @escaping @Sendable () -> T) -> T? {
        let box = AnswerBox<T>()
        Thread.detachNewThread {
            let v = read()
            box.lock.lock(); box.value = v; box.lock.unlock()
        }
        let end = Date().addingTimeInterval(20)
        func done() -> Bool { box.lock.lock(); defer { box.lock.unlock() }; return box.value != nil }
        while !done() && Date() < end {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
        box.lock.lock(); defer { box.lock.unlock() }
        return box.value
    }

    func testALoaderThreadReadsOnlineTilesLikeAFile() throws {
        let server = try LoopbackTileServer()
        let tiles: TileSource = source(server, "tiles")
        XCTAssertFalse(tiles.metadata.format.isVector)
        let data = readOffThread { try? tiles.tileData(for: TileID(z: 4, x: 9, y: 5)) }
        XCTAssertEqual(data, Data("tile /tiles/4/9/5".utf8))
        XCTAssertEqual(server.stats(afterRequests: 1).count, 1)

        let missing: TileSource = source(server, "notfound")
        let absent = readOffThread { () -> String in
            do { return try missing.tileData(for: TileID(z: 1, x: 0, y: 0)) == nil ? "absent" : "data" } catch { return "threw" }
        }
        XCTAssertEqual(absent, "absent", "a 404 is no tile there, not an error")

        let broken: TileSource = source(server, "error")
        let failed = readOffThread { () -> String in
            do { return try broken.tileData(for: TileID(z: 1, x: 0, y: 0)) == nil ? "absent" : "data" } catch { return "\(error)" }
        }
        XCTAssertEqual(failed, "\(XYZTileSource.FetchError.http(500))", "a server error after the retries")
    }
}

/// One answer handed from a loader thread to the test thread.
private final class AnswerBox<T>: @unchecked Sendable {
    var value: T?
    let lock = NSLock()
}

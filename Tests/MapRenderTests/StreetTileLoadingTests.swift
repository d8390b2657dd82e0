import CCairo
import ClusterCore
import Foundation
import MapModel
@testable import MapRender
import Tiles
import XCTest

/// The street map loads its own tiles through a wish-list worker, as the base map does: tiles
/// that left the view before their turn are never read (from a file) or fetched (online: the
/// online source is a `TileSource` too), and what was read comes back into the layer.
final class StreetTileLoadingTests: XCTestCase {
    /// A source that counts its reads and holds the first one until the test lets it go.
    final class CountingSource: TileSource, @unchecked Sendable {
        let metadata = TileSourceMetadata(format: .png, minZoom: 0, maxZoom: 19)
        let png: Data
        let firstReadStarted = DispatchSemaphore(value: 0)
        let releaseFirstRead = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var readTiles: [TileID] = []
        private var scales: [Double] = []

        init(png: Data) { self.png = png }

        var reads: [TileID] { lock.lock(); defer { lock.unlock() }; return readTiles }
        var readScales: [Double] { lock.lock(); defer { lock.unlock() }; return scales }

        func tileData(for tile: TileID) throws -> Data? { try tileData(for: tile, scale: 1) }

        func tileData(for tile: TileID, scale: Double) throws -> Data? {
            lock.lock()
            readTiles.append(tile)
            scales.append(scale)
            let first = readTiles.count == 1
            lock.unlock()
            if first {
                firstReadStarted.signal()
                releaseFirstRead.wait()
            }
            return png
        }
    }

    /// A 256-px tile's PNG bytes (made with cairo, read back from a file).
    static func tilePNG() throws -> Data {
        let image = ImageSurface(width: 256, height: 256, opaque: true)
        image.withContext { cr in
            cairo_set_source_rgb(cr, 0.8, 0.2, 0.7)
            cairo_paint(cr)
        }
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("street-tile-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.writePNG(to: url)
        return try Data(contentsOf: url)
    }

    let size = ScreenSize(width: 800, height: 600)

    /// Draws a frame of `layer` for `camera` and hands its wish list to the loader, as the window does.
    func frame(_ layer: TileMapLayer, _ camera: Camera) {
        layer.collectLoaded()
        let image = ImageSurface(width: Int(size.width), height: Int(size.height))
        image.withContext { layer.draw(in: $0, camera: camera, palette: .light) }
        layer.requestLoading()
    }

    /// Waits (a condition with a generous deadline, not a guessed time) until the loader is idle.
    func waitUntilIdle(_ layer: TileMapLayer, timeout: TimeInterval = 20) {
        let deadline = Date().addingTimeInterval(timeout)
        while layer.isLoading && Date() < deadline { usleep(2_000) }
        XCTAssertFalse(layer.isLoading, "the loader finished its wish list")
    }

    func testTilesThatLeftTheViewAreNeverReadAndTheRestComeIn() throws {
        let source = CountingSource(png: try Self.tilePNG())
        let layer = TileMapLayer(online: "fake://{z}/{x}/{y}", attribution: nil, source: source)
        let ready = DispatchSemaphore(value: 0)
        layer.startLoading(threads: 1) { ready.signal() }
        defer { layer.stopLoading() }

        let madrid = Camera(center: GeoCoordinate(latitude: 40.42, longitude: -3.70), zoom: 9, viewportSize: size)
        let tokyo = Camera(center: GeoCoordinate(latitude: 35.68, longitude: 139.69), zoom: 9, viewportSize: size)
        let madridTiles = Set(layer.keysToLoad(camera: madrid, scale: 1, dark: false).map(\.tile))
        let tokyoTiles = Set(layer.keysToLoad(camera: tokyo, scale: 1, dark: false).map(\.tile))
        XCTAssertGreaterThan(madridTiles.count, 4)
        XCTAssertTrue(madridTiles.isDisjoint(with: tokyoTiles))

        frame(layer, madrid)
        XCTAssertEqual(source.firstReadStarted.wait(timeout: .now() + 20), .success, "the loader started reading")
        // The view moves to Tokyo while Madrid's first tile is being read: the rest of Madrid's
        // wish list is dropped before it is read.
        frame(layer, tokyo)
        source.releaseFirstRead.signal()
        waitUntilIdle(layer)

        let reads = source.reads
        XCTAssertEqual(Set(reads).intersection(madridTiles).count, 1, "only the tile already being read: \(reads)")
        XCTAssertEqual(Set(reads).subtracting(madridTiles), tokyoTiles, "every tile of the new view is read")
        XCTAssertEqual(reads.count, Set(reads).count, "no tile is read twice")
        XCTAssertTrue(layer.hasPendingTiles, "loaded tiles wait until the next frame collects them")

        // The next frame takes them in: nothing left to load for Tokyo, and the counts say what happened.
        frame(layer, tokyo)
        XCTAssertFalse(layer.hasPendingTiles)
        XCTAssertTrue(layer.keysToLoad(camera: tokyo, scale: 1, dark: false).isEmpty, "Tokyo's tiles are in")
        XCTAssertEqual(layer.loadedByLoader, reads.count)
        let stats = layer.takeStatistics()
        XCTAssertEqual(stats.requested, madridTiles.count + tokyoTiles.count)
        XCTAssertEqual(stats.cancelled, madridTiles.count - 1, "Madrid's unread tiles count as cancelled")
        XCTAssertEqual(stats.loaded, tokyoTiles.count + 1)
        XCTAssertEqual(stats.failed, 0)
        XCTAssertFalse(layer.isLoading)
        XCTAssertEqual(ready.wait(timeout: .now()), .success, "each tile asks for a redraw")
    }

    func testAFrameAsksForEachMissingTileOnceAtItsDeviceScale() throws {
        let source = CountingSource(png: try Self.tilePNG())
        source.releaseFirstRead.signal()  // nothing is held
        let layer = TileMapLayer(online: "fake://{z}/{x}/{y}", attribution: nil, source: source)
        layer.startLoading(threads: 3) {}
        defer { layer.stopLoading() }
        let madrid = Camera(center: GeoCoordinate(latitude: 40.42, longitude: -3.70), zoom: 9, viewportSize: size)
        let wanted = Set(layer.keysToLoad(camera: madrid, scale: 1, dark: false).map(\.tile))
        // Frames drawn again and again while the tiles load ask for nothing twice.
        for _ in 0..<5 { frame(layer, madrid) }
        waitUntilIdle(layer)
        frame(layer, madrid)
        XCTAssertEqual(source.reads.count, wanted.count, "each tile read once over several threads")
        XCTAssertEqual(Set(source.reads), wanted)
        XCTAssertEqual(Set(source.readScales), [1])
        XCTAssertTrue(layer.keysToLoad(camera: madrid, scale: 1, dark: false).isEmpty)
    }

    func testWithoutStartLoadingTheOwnerLoads() throws {
        let source = CountingSource(png: try Self.tilePNG())
        source.releaseFirstRead.signal()
        let layer = TileMapLayer(online: "fake://{z}/{x}/{y}", attribution: nil, source: source)
        let madrid = Camera(center: GeoCoordinate(latitude: 40.42, longitude: -3.70), zoom: 9, viewportSize: size)
        frame(layer, madrid)
        XCTAssertTrue(source.reads.isEmpty, "no loader: the layer reads nothing by itself")
        XCTAssertFalse(layer.takeMissing().isEmpty, "the owner is told what is missing")
    }
}

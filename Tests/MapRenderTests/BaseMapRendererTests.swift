import ClusterCore
import GeoData
import MapModel
@testable import MapRender
import GoldenSupport
import XCTest

final class BaseMapRendererTests: XCTestCase {
    let size = ScreenSize(width: 640, height: 400)

    /// Cached tiles must show the same pixels as a direct paint (here the viewport's corner falls on
    /// a whole world pixel, so no rounding is involved).
    func testTiledFrameMatchesDirectPaint() {
        let cam = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 4, viewportSize: size)
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        let direct = ImageSurface(width: 640, height: 400)
        direct.withContext { renderer.draw(in: $0, camera: cam) }
        XCTAssertEqual(renderer.cache.renderedTileCount, 0, "first frame at a zoom is painted directly")
        let tiled = ImageSurface(width: 640, height: 400)
        tiled.withContext { renderer.draw(in: $0, camera: cam) }
        XCTAssertGreaterThan(renderer.cache.renderedTileCount, 0, "second frame comes from tiles")
        let diff = PixelDiff.compare(tiled, direct, channelTolerance: 8)
        XCTAssertLessThan(diff.differingFraction, 0.001, "max delta \(diff.maxChannelDelta)")
    }

    /// Where the view shows the world more than once (zoom 1 at 1280 px), the first frame paints one
    /// copy and repeats it: it must match painting every copy (viewport corner on a whole pixel), at
    /// scale 1 and 2, and leave no seam between copies.
    func testWorldRepeatedFromOneCopyMatchesEveryCopyPainted() {
        let wide = ScreenSize(width: 1280, height: 600)
        for scale in [1.0, 2.0] {
            let cam = Camera(center: GeoCoordinate(latitude: 10, longitude: 0), zoom: 1, viewportSize: wide)
            let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
            let strip = ImageSurface(width: 1280, height: 600, scale: scale)
            strip.withContext { renderer.draw(in: $0, camera: cam) }
            XCTAssertEqual(renderer.cache.renderedTileCount, 0, "a direct first frame")
            let c = cam.centerWorldPixel
            let painter = BaseMapPainter(originX: c.x - 640, originY: c.y - 300, width: 1280, height: 600,
                                         worldSize: cam.worldSize, deviceScale: scale)
            let everyCopy = ImageSurface(width: 1280, height: 600, scale: scale)
            everyCopy.withContext { painter.paint(TestMaps.coarse, palette: .light, into: $0) }
            let diff = PixelDiff.compare(strip, everyCopy, channelTolerance: 8)
            XCTAssertLessThan(diff.differingFraction, 0.001, "scale \(scale): max delta \(diff.maxChannelDelta)")
        }
    }

    /// Panning at one zoom renders only the tiles that scroll into view.
    func testPanningReusesTiles() {
        var cam = Camera(center: GeoCoordinate(latitude: 45, longitude: 5), zoom: 5, viewportSize: size)
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        let image = ImageSurface(width: 640, height: 400)
        image.withContext { cr in
            renderer.draw(in: cr, camera: cam)
            renderer.draw(in: cr, camera: cam)
            let full = renderer.cache.renderedTileCount
            XCTAssertGreaterThanOrEqual(full, 6)
            for _ in 0..<10 {
                cam.pan(by: -3, 0)
                renderer.draw(in: cr, camera: cam)
            }
            XCTAssertLessThanOrEqual(renderer.cache.renderedTileCount - full, 3, "at most one new column")
        }
    }

    func testPaletteChangeDropsTiles() {
        let cam = Camera(center: GeoCoordinate(latitude: 45, longitude: 5), zoom: 5, viewportSize: size)
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        let image = ImageSurface(width: 640, height: 400)
        image.withContext { cr in
            renderer.draw(in: cr, camera: cam)
            renderer.draw(in: cr, camera: cam)
        }
        let light = image.pixel(x: 5, y: 5)
        renderer.palette = .dark
        image.withContext { cr in
            renderer.draw(in: cr, camera: cam)
            renderer.draw(in: cr, camera: cam)
        }
        XCTAssertNotEqual(light.r, image.pixel(x: 5, y: 5).r)
    }

    /// The world repeats: the view centred on 180° shows both Fiji halves / the same pixels as
    /// the view centred on −180°.
    func testWrappedCentresDrawTheSame() {
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        renderer.usesTileCache = false
        let a = ImageSurface(width: 320, height: 200), b = ImageSurface(width: 320, height: 200)
        a.withContext { renderer.draw(in: $0, camera: Camera(center: GeoCoordinate(latitude: -17, longitude: 179.5), zoom: 4,
                                                             viewportSize: ScreenSize(width: 320, height: 200))) }
        b.withContext { renderer.draw(in: $0, camera: Camera(center: GeoCoordinate(latitude: -17, longitude: -180.5), zoom: 4,
                                                             viewportSize: ScreenSize(width: 320, height: 200))) }
        let diff = PixelDiff.compare(a, b, channelTolerance: 8)
        XCTAssertLessThan(diff.differingFraction, 0.001)
        // And something was drawn on both sides of the antimeridian (land somewhere in view).
        var landPixels = 0
        let land = MapPalette.light.land
        for y in stride(from: 0, to: 200, by: 2) {
            for x in stride(from: 0, to: 320, by: 2) where abs(Double(a.pixel(x: x, y: y).r) - land.red * 255) < 2 {
                landPixels += 1
            }
        }
        XCTAssertGreaterThan(landPixels, 10)
    }

    func testWorldCopies() {
        XCTAssertEqual(WorldWrap.copies(minX: 0, maxX: 100, worldSize: 256), 0...0)
        XCTAssertEqual(WorldWrap.copies(minX: -10, maxX: 100, worldSize: 256), -1...0)
        XCTAssertEqual(WorldWrap.copies(minX: -300, maxX: 600, worldSize: 256), -2...2)
        XCTAssertEqual(WorldWrap.copies(minX: 250, maxX: 512, worldSize: 256), 0...1, "ending on an edge")
        XCTAssertEqual(WorldWrap.copies(minX: 1000, maxX: 1100, worldSize: 512), 1...2)
    }

    func testDeviceScaleFollowsSurface() {
        let image = ImageSurface(width: 10, height: 10, scale: 2)
        image.withContext { XCTAssertEqual(BaseMapRenderer.deviceScale(of: $0), 2) }
    }

    /// After a zoom animation, the first frames at rest at the new zoom come from the animation's
    /// scaled tiles plus a few exact tiles each, until every exact tile is there.
    func testANewZoomAtRestSharpensOverAFewShortFrames() {
        var cam = Camera(center: GeoCoordinate(latitude: 45, longitude: 5), zoom: 4, viewportSize: size)
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        renderer.progressiveAtRest = true
        renderer.tilesPerAnimationFrame = 100
        let image = ImageSurface(width: 640, height: 400)
        image.withContext { cr in
            renderer.draw(in: cr, camera: cam)
            for z in stride(from: 4.1, through: 4.6, by: 0.1) {  // the animation fills level 5's tiles
                cam.setZoom(z)
                renderer.draw(in: cr, camera: cam, isAnimating: true)
            }
            cam.setZoom(4.6)
            var frames = 0, before = renderer.cache.renderedTileCount
            repeat {
                renderer.draw(in: cr, camera: cam)
                XCTAssertLessThanOrEqual(renderer.cache.renderedTileCount - before, renderer.tilesPerProgressiveFrame)
                before = renderer.cache.renderedTileCount
                frames += 1
            } while renderer.hasPendingTiles && frames < 50
            XCTAssertGreaterThan(frames, 1, "the first frame at rest was not one big direct paint")
            XCTAssertFalse(renderer.hasPendingTiles)
            renderer.draw(in: cr, camera: cam)
            XCTAssertTrue(renderer.lastFrameWasExact, "then exact tiles")
        }
        // The sharp frame is the one a renderer draws from exact tiles without any animation before.
        let reference = ImageSurface(width: 640, height: 400)
        let plain = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        reference.withContext { plain.draw(in: $0, camera: cam); plain.draw(in: $0, camera: cam) }
        XCTAssertTrue(plain.lastFrameWasExact)
        let diff = PixelDiff.compare(image, reference, channelTolerance: 8)
        XCTAssertEqual(diff.differingPixels, 0)
    }

    /// With a background worker (the window), frames of a zoom animation and of a new zoom at rest
    /// render no tile themselves where a cached neighbour can stand in; the worker's tiles arrive,
    /// and the frame at rest ends exact, with the same pixels as tiles rendered in the frame.
    func testBackgroundTilesKeepFramesToBlitsAndEndExact() {
        var cam = Camera(center: GeoCoordinate(latitude: 45, longitude: 5), zoom: 4, viewportSize: size)
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        renderer.progressiveAtRest = true
        let worker = BaseMapTileWorker()
        renderer.tileWorker = worker
        let image = ImageSurface(width: 640, height: 400)
        func settle() {
            let deadline = Date().addingTimeInterval(20)
            while worker.isBusy && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        }
        image.withContext { cr in
            renderer.draw(in: cr, camera: cam)  // direct first frame; the view's tiles go to the worker
            XCTAssertFalse(renderer.improvesWithNewTiles, "a direct paint is exact: arriving tiles need no frame")
            settle()
            renderer.draw(in: cr, camera: cam)
            XCTAssertTrue(renderer.lastFrameWasExact, "the worker's tiles make the next frame exact")
            XCTAssertGreaterThan(renderer.cache.insertedTileCount, 0)
            // Zoom in by 0.4: level 4's tiles stand in, scaled; level 4 is the nearest level.
            let inFrame = renderer.cache.renderedTileCount
            for z in stride(from: 4.1, through: 4.4, by: 0.1) {
                cam.setZoom(z)
                renderer.draw(in: cr, camera: cam, isAnimating: true)
            }
            // At rest at 4.4: level 4 stands in while 4.4's tiles render in the background.
            renderer.draw(in: cr, camera: cam)
            XCTAssertFalse(renderer.lastFrameWasExact)
            XCTAssertTrue(renderer.improvesWithNewTiles, "stand-ins: each arriving tile sharpens the next frame")
            XCTAssertFalse(renderer.hasPendingTiles, "the worker, not the caller, brings the rest")
            XCTAssertEqual(renderer.cache.renderedTileCount, inFrame,
                           "no tile rendered inside a frame where a neighbour could stand in")
            settle()
            renderer.draw(in: cr, camera: cam)
            XCTAssertTrue(renderer.lastFrameWasExact)
        }
        let reference = ImageSurface(width: 640, height: 400)
        let plain = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        reference.withContext { plain.draw(in: $0, camera: cam); plain.draw(in: $0, camera: cam) }
        XCTAssertTrue(plain.lastFrameWasExact)
        XCTAssertEqual(PixelDiff.compare(image, reference, channelTolerance: 8).differingPixels, 0)
        worker.stop()
    }
}

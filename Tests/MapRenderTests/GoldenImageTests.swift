import ClusterCore
import GeoData
import MapModel
@testable import MapRender
import XCTest

/// The base map rendered headless and compared with reviewed PNGs in `Golden/`.
final class GoldenImageTests: XCTestCase {
    let size = ScreenSize(width: 640, height: 400)

    private func render(_ camera: Camera, palette: MapPalette = .light, scale: Double = 1) -> ImageSurface {
        let renderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: palette)
        return renderer.renderImage(camera: camera, scale: scale)
    }

    func testWorldAtZoom1() {
        let cam = Camera(center: GeoCoordinate(latitude: 20, longitude: 10), zoom: 1, viewportSize: size)
        Golden.assertMatches(render(cam), named: "world-z1-light")
    }

    func testEuropeAtZoom4() {
        let cam = Camera(center: GeoCoordinate(latitude: 50, longitude: 12), zoom: 4, viewportSize: size)
        Golden.assertMatches(render(cam), named: "europe-z4-light")
    }

    func testEuropeAtZoom4Dark() {
        let cam = Camera(center: GeoCoordinate(latitude: 50, longitude: 12), zoom: 4, viewportSize: size)
        Golden.assertMatches(render(cam, palette: .dark), named: "europe-z4-dark")
    }

    func testAntimeridianAtZoom3HiDPI() {
        // Fiji and the Pacific across 180°, at device scale 2 (crisp HiDPI output).
        let cam = Camera(center: GeoCoordinate(latitude: -17, longitude: 179), zoom: 3,
                         viewportSize: ScreenSize(width: 320, height: 200))
        let image = render(cam, scale: 2)
        XCTAssertEqual(image.pixelWidth, 640)
        Golden.assertMatches(image, named: "pacific-z3-light-2x")
    }

    func testDetailedMapIsUsedFromZoom3() {
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        XCTAssertEqual(renderer.baseMap(forZoom: 2.9)?.level, .coarse)
        XCTAssertEqual(renderer.baseMap(forZoom: 3)?.level, .detailed)
        let fallback = BaseMapRenderer(coarse: TestMaps.coarse)
        XCTAssertEqual(fallback.baseMap(forZoom: 8)?.level, .coarse)
    }
}

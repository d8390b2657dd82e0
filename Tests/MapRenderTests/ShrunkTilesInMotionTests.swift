import CCairo
import ClusterCore
import MapModel
@testable import MapRender
import XCTest

/// While the zoom changes, base-map tiles shown shrunk (the nearest level is one up, g ≈ 0.71–1)
/// are sampled nearest at a device scale of 2 (their lines are two device pixels wide or more,
/// never skipped), and stay bilinear at scale 1 (nearest would dot thin rivers there).
final class ShrunkTilesInMotionTests: XCTestCase {
    private let size = ScreenSize(width: 320, height: 200)

    /// The second frame of a zoom animation at 4.6 (level 5's tiles at 0.76), after level 5 at rest.
    private func zoomFrame(scale: Double, nearestWhileZooming: Bool) -> ImageSurface {
        let renderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: .light)
        renderer.baseMap.nearestWhileZooming = nearestWhileZooming
        var cam = Camera(center: GeoCoordinate(latitude: 46, longitude: 8), zoom: 5, viewportSize: size)
        let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: scale)
        image.withContext { renderer.draw(in: $0, camera: cam, isAnimating: false) }
        for z in [4.7, 4.6] {
            cam.setZoom(z)
            image.withContext { renderer.draw(in: $0, camera: cam, isAnimating: true) }
        }
        return image
    }

    private func differing(_ a: ImageSurface, _ b: ImageSurface) -> Int {
        var n = 0
        for y in 0..<a.pixelHeight { for x in 0..<a.pixelWidth where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 } }
        return n
    }

    func testShrunkTilesAreSampledNearestInMotionAtScaleTwoOnly() {
        let nearest2 = zoomFrame(scale: 2, nearestWhileZooming: true), bilinear2 = zoomFrame(scale: 2, nearestWhileZooming: false)
        XCTAssertGreaterThan(differing(nearest2, bilinear2), 1000, "at scale 2 the shrunk tiles are sampled nearest")
        let one = zoomFrame(scale: 1, nearestWhileZooming: true), bilinear1 = zoomFrame(scale: 1, nearestWhileZooming: false)
        XCTAssertEqual(differing(one, bilinear1), 0, "at scale 1 shrunk tiles stay bilinear")
        // And the frame is fully painted.
        XCTAssertEqual(nearest2.pixel(x: 5, y: 5).a, 255)
        XCTAssertEqual(nearest2.pixel(x: nearest2.pixelWidth - 5, y: nearest2.pixelHeight - 5).a, 255)
    }
}

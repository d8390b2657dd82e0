import AppSupport
import ClusterCore
import GeoData
import MapModel
@testable import MapRender
import XCTest

/// Past Natural Earth's scale (about zoom 11) the built-in map never draws a shore or a river
/// confidently wrong: no water fill, only a faint line hint over the land tone.
final class PastScaleTests: XCTestCase {
    func testPastItsScaleThereIsNoWaterFillAndLinesAreOnlyAHint() {
        for base in [MapPalette.light, .dark] {
            XCTAssertEqual(base.pastScale(zoom: 10).water, base.water, "within scale nothing changes")
            XCTAssertEqual(base.pastScale(zoom: 10).riverStrength, 1)
            for zoom in [12.5, 14.0, 17.0] {
                let p = base.pastScale(zoom: zoom)
                XCTAssertEqual(p.water, base.land, "\(base.name) z\(zoom): water is the land tone")
                XCTAssertEqual(p.lakeFill, base.land)
                XCTAssertEqual(p.riverStrength, MapPalette.pastScaleHint, accuracy: 1e-9)
                XCTAssertEqual(p.coastline.alpha, base.coastline.alpha * MapPalette.pastScaleHint, accuracy: 1e-9)
            }
        }
    }

    /// Over a picture of the built-in map alone (no names), leaving out the scale bar and
    /// attribution along the bottom: the largest channel distance from the land tone, and the
    /// share of pixels that are not the land tone.
    func departure(_ lat: Double, _ lon: Double, zoom: Double, palette: MapPalette) -> (most: Double, share: Double) {
        let size = ScreenSize(width: 640, height: 400)
        let cam = Camera(center: GeoCoordinate(latitude: lat, longitude: lon), zoom: zoom, viewportSize: size)
        let picture = StillPicture(palette: palette, labels: .empty)
        let image = picture.frameRenderer(camera: cam).renderImage(camera: cam)
        let land = palette.land
        var most = 0.0, off = 0, all = 0
        for y in stride(from: 0, to: 360, by: 2) {
            for x in stride(from: 0, to: 640, by: 2) {
                let px = image.pixel(x: x, y: y)
                let d = max(abs(Double(px.r) / 255 - land.red), abs(Double(px.g) / 255 - land.green),
                            abs(Double(px.b) / 255 - land.blue))
                most = max(most, d)
                if d > 2.5 / 255 { off += 1 }
                all += 1
            }
        }
        return (most, Double(off) / Double(all))
    }

    func testTheSeineAndTheTagusAreFaintHintsAtStreetZoom() {
        for palette in [MapPalette.light, .dark] {
            // Within scale the Seine reads clearly and the Tagus is water (the measures see them)...
            XCTAssertGreaterThan(departure(48.8566, 2.3522, zoom: 10, palette: palette).most, 0.1, palette.name)
            XCTAssertGreaterThan(departure(38.7075, -9.137, zoom: 10, palette: palette).share, 0.2, palette.name)
            // ...at zoom 14 the Seine is a hint, and at zoom 17 in Lisbon no water fill is left:
            // at most the faint line of the (300 m off) shore.
            XCTAssertLessThan(departure(48.8566, 2.3522, zoom: 14, palette: palette).most, 0.07, palette.name)
            let tagus = departure(38.7075, -9.137, zoom: 17, palette: palette)
            XCTAssertLessThan(tagus.most, 0.07, palette.name)
            XCTAssertLessThan(tagus.share, 0.02, palette.name)
        }
    }
}

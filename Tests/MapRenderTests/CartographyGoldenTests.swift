import AppSupport
import ClusterCore
import GeoData
import MapModel
@testable import MapRender
import XCTest

/// The map a person reads at every zoom — 1:10m coast, rivers, borders and names — drawn through
/// `MapPresentation` (the composition `clustermap render` and the window use) and compared with reviewed PNGs.
final class CartographyGoldenTests: XCTestCase {
    let size = ScreenSize(width: 960, height: 600)

    static let light = StillPicture(palette: .light)

    func picture(_ palette: MapPalette) -> StillPicture {
        var p = CartographyGoldenTests.light
        p.palette = palette
        return p
    }

    func render(_ lat: Double, _ lon: Double, zoom: Double, palette: MapPalette, scene: Scene = Scene()) -> ImageSurface {
        let cam = Camera(center: GeoCoordinate(latitude: lat, longitude: lon), zoom: zoom, viewportSize: size)
        return picture(palette).frameRenderer(camera: cam, scene: scene).renderImage(camera: cam)
    }

    /// The six Lisbon stays as pins (SPEC §6), for the street-zoom pictures.
    func lisbonStays(_ cam: Camera) -> Scene {
        let stays: [(String, String, Double, Double)] = [
            ("Rooftop Loft", "$120", 38.7139, -9.1389), ("Tiled Studio", "$86", 38.7109, -9.1422),
            ("Garden House", "$210", 38.7163, -9.1432), ("Sunny Room", "$64", 38.7118, -9.1331),
            ("River View Flat", "$145", 38.7083, -9.1368), ("Quiet Attic", "$98", 38.7157, -9.1338)]
        var scene = Scene()
        scene.pins = stays.enumerated().map { i, s in
            ScenePin(id: .point(i), pointIndex: i, center: cam.screenPoint(for: GeoCoordinate(latitude: s.2, longitude: s.3)),
                     name: s.0, label: s.1, color: 0x2F78C2)
        }
        return scene
    }

    func testIberiaAtZoom5() {
        for palette in [MapPalette.light, .dark] {
            Golden.assertMatches(render(40, -4, zoom: 5, palette: palette), named: "carto-iberia-z5-\(palette.name)")
        }
    }

    func testParisAtZoom8() {
        for palette in [MapPalette.light, .dark] {
            Golden.assertMatches(render(48.8566, 2.35, zoom: 8, palette: palette), named: "carto-paris-z8-\(palette.name)")
        }
    }

    func testLisbonAtZoom11() {
        for palette in [MapPalette.light, .dark] {
            Golden.assertMatches(render(38.72, -9.14, zoom: 11, palette: palette), named: "carto-lisbon-z11-\(palette.name)")
        }
    }

    func testLisbonAtZoom15WithTheStays() {
        let cam = Camera(center: GeoCoordinate(latitude: 38.7125, longitude: -9.138), zoom: 15, viewportSize: size)
        for palette in [MapPalette.light, .dark] {
            Golden.assertMatches(render(38.7125, -9.138, zoom: 15, palette: palette, scene: lisbonStays(cam)),
                                 named: "carto-lisbon-z15-\(palette.name)")
        }
    }

    /// Natural Earth's 1:50m shore puts the stays in the Tagus; at 1:10m every stay is on land, and
    /// past zoom 11 the water fades to a hint of the land tone (no confident shore out of scale).
    func testTheLisbonStaysAreOnLandAndTheShoreFadesPastItsScale() {
        let cam = Camera(center: GeoCoordinate(latitude: 38.7125, longitude: -9.138), zoom: 13, viewportSize: size)
        let image = picture(.light).frameRenderer(camera: cam).renderImage(camera: cam)
        let land = MapPalette.light.pastScale(zoom: 13).land, water = MapPalette.light.pastScale(zoom: 13).water
        for s in lisbonStays(cam).pins {
            let px = image.pixel(x: Int(s.center.x), y: Int(s.center.y))
            XCTAssertEqual(Double(px.r) / 255, land.red, accuracy: 0.02, "\(s.name) is on land")
        }
        // The Tagus, south of the stays, is water: lighter than land only by the faint hint.
        let river = cam.screenPoint(for: GeoCoordinate(latitude: 38.695, longitude: -9.14))
        let px = image.pixel(x: Int(river.x), y: Int(river.y))
        XCTAssertEqual(Double(px.r) / 255, water.red, accuracy: 0.02)
        XCTAssertLessThan(abs(land.red - water.red), 0.05, "past its scale the water is only a hint")
        XCTAssertGreaterThan(abs(MapPalette.light.land.red - MapPalette.light.water.red), 0.05, "at zoom 9 it is not")
    }

    func testNamesShowAtEveryZoomDownToAStreet() {
        for zoom in stride(from: 2.0, through: 16, by: 1) {
            let cam = Camera(center: GeoCoordinate(latitude: 48.8566, longitude: 2.3522), zoom: zoom, viewportSize: size)
            let layout = MapLabelLayout(index: TestMaps.labels)
            let labels = layout.labels(for: cam) { _ in MapLabelSize(width: 60, height: 12) }
            // Down to zoom 13 several names; at street zoom the GeoNames places (≥ 1,000 people) are
            // sparser, but a name is always there.
            XCTAssertGreaterThanOrEqual(labels.count, zoom <= 13 ? 3 : 1, "zoom \(zoom) names places")
        }
    }

    /// A street map from a tile file over the built-in map (the Leipzig OpenMapTiles subset, which
    /// holds two zoom-14 tiles: the rest of the view stays the built-in map).
    func testLeipzigStreetsFromAnMBTilesFileOverTheBuiltInMap() throws {
        let fixture = Golden.testsFolder.deletingLastPathComponent()
            .appendingPathComponent("TilesTests/Fixtures/leipzig-subset.mbtiles").path
        let cam = Camera(center: GeoCoordinate(latitude: 51.34, longitude: 12.38), zoom: 14, viewportSize: size)
        for palette in [MapPalette.light, .dark] {
            let tiles = try TileMapLayer(path: fixture)
            let renderer = picture(palette).frameRenderer(camera: cam, tiles: tiles)
            XCTAssertTrue(renderer.attribution.contains("OpenStreetMap"), renderer.attribution)
            Golden.assertMatches(renderer.renderImage(camera: cam), named: "carto-leipzig-tiles-z14-\(palette.name)")
        }
    }
}

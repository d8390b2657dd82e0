import CCairo
import Foundation
import MapRender
import TileTestSupport
@testable import Tiles
import XCTest

final class VectorTilePainterTests: XCTestCase {
    typealias E = MVTEncoder

    /// A tile with a lake filling the left half and a primary road across the middle.
    private func syntheticTile() throws -> VectorTile {
        let water = E.Layer(name: "water", keys: ["class"], values: [E.stringValue("lake")], features: [
            E.Feature(type: 3, tags: [0, 0], geometry: E.ring([(0, 0), (0, 4096), (2048, 4096), (2048, 0)])),
        ])
        let roads = E.Layer(name: "transportation", keys: ["class"], values: [E.stringValue("primary")], features: [
            E.Feature(type: 2, tags: [0, 0], geometry: E.line([(2048, -100), (2048, 4196)])),
        ])
        return try MVTDecoder.decode(E.encode([water, roads]))
    }

    private func rgb(_ image: ImageSurface, _ x: Int, _ y: Int) -> UInt32 {
        let p = image.pixel(x: x, y: y)
        return UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
    }

    func testPaintsFillsAndRoadsInTheStyleColours() throws {
        let tile = try syntheticTile()
        let style = TileStyle.openMapTiles
        let light = VectorTilePainter(style: style).render(tile, zoom: 14)
        XCTAssertEqual(light.pixelWidth, 512)
        XCTAssertEqual(rgb(light, 100, 256), TileStyle.water.light, "lake")
        XCTAssertEqual(rgb(light, 400, 256), TileStyle.land.light, "land background")
        XCTAssertEqual(rgb(light, 256, 256), RoadClass.primary.fill.light, "road fill on its centre line")
        let dark = VectorTilePainter(style: style, dark: true).render(tile, zoom: 14)
        XCTAssertEqual(rgb(dark, 100, 256), TileStyle.water.dark)
        XCTAssertEqual(rgb(dark, 256, 256), RoadClass.primary.fill.dark)
    }

    func testLinesKeepTheirWidthWhenOverZoomedAndScaleWithHiDPI() throws {
        let tile = try syntheticTile()
        let painter = VectorTilePainter(style: .openMapTiles)
        func roadWidth(_ image: ImageSurface, row: Int) -> Int {
            (0..<image.pixelWidth).filter { rgb(image, $0, row) == RoadClass.primary.fill.light }.count
        }
        let whole = painter.render(tile, zoom: 14)
        // The left half's top-right quarter, over-zoomed ×2: the road now runs along the right edge.
        let quarter = painter.render(tile, zoom: 14, rect: TileRect(x: 0.25, y: 0, size: 0.5))
        let w14 = roadWidth(whole, row: 100)
        XCTAssertGreaterThan(w14, 1)
        // At style zoom 15 the road is a little wider, not twice as wide.
        let w15 = roadWidth(quarter, row: 100)
        XCTAssertGreaterThanOrEqual(w15, w14)
        XCTAssertLessThan(Double(w15), Double(w14) * 1.8)
        XCTAssertEqual(rgb(quarter, 100, 100), TileStyle.water.light, "the lake fills the left of the quarter")
        let hidpi = painter.render(tile, zoom: 14, scale: 2)
        XCTAssertEqual(hidpi.pixelWidth, 1024)
        XCTAssertEqual(Double(roadWidth(hidpi, row: 200)), Double(w14) * 2, accuracy: 2)
    }

    func testFiltersAndZoomRangesAreHonoured() throws {
        // A building is drawn from zoom 14, not at 13; a tunnel is drawn faint and dashed.
        let building = E.Layer(name: "building", features: [
            E.Feature(type: 3, tags: [], geometry: E.ring([(1000, 1000), (1000, 3000), (3000, 3000), (3000, 1000)])),
        ])
        let tunnel = E.Layer(name: "transportation", keys: ["class", "brunnel"],
                             values: [E.stringValue("motorway"), E.stringValue("tunnel")], features: [
            E.Feature(type: 2, tags: [0, 0, 1, 1], geometry: E.line([(0, 400), (4096, 400)])),
        ])
        let tile = try MVTDecoder.decode(E.encode([building, tunnel]))
        let painter = VectorTilePainter(style: .openMapTiles)
        XCTAssertEqual(rgb(painter.render(tile, zoom: 14), 256, 256), TileStyle.building.light)
        XCTAssertEqual(rgb(painter.render(tile, zoom: 13), 256, 256), TileStyle.land.light)
        // The tunnel is faint and dashed: along it, gaps show the land and dashes a muted tone,
        // never the open motorway's fill.
        let image = painter.render(tile, zoom: 14)
        let row = (0..<512).map { rgb(image, $0, 50) }
        XCTAssertGreaterThan(row.filter { $0 == TileStyle.land.light }.count, 60, "gaps between dashes")
        XCTAssertGreaterThan(row.filter { $0 != TileStyle.land.light }.count, 150, "dashes")
        XCTAssertFalse(row.contains(RoadClass.motorway.fill.light), "not drawn like an open road")
    }

    func testSchemaIsRecognisedFromTheLayers() throws {
        XCTAssertEqual(TileSchema(vectorLayers: ["water", "landcover", "transportation", "place"]), .openMapTiles)
        XCTAssertEqual(TileSchema(vectorLayers: ["earth", "water", "roads", "places"]), .protomaps)
        XCTAssertEqual(TileSchema(vectorLayers: ["foo"]), .unknown)
        let mb = try MBTilesSource(path: TileFixtures.path("leipzig-subset.mbtiles"))
        let pm = try PMTilesSource(path: TileFixtures.path("firenze-subset.pmtiles"))
        XCTAssertEqual(TileSchema(vectorLayers: mb.metadata.vectorLayers), .openMapTiles)
        XCTAssertEqual(TileSchema(vectorLayers: pm.metadata.vectorLayers), .protomaps)
        XCTAssertEqual(TileStyle.builtIn(for: .protomaps).schema, .protomaps)
        // The styles only read layers the schema has.
        XCTAssertTrue(TileStyle.openMapTiles.sourceLayers.isSubset(of: Set(mb.metadata.vectorLayers)),
                      "\(TileStyle.openMapTiles.sourceLayers.subtracting(mb.metadata.vectorLayers))")
    }

    func testRealTilesPaintEveryKindOfFeature() throws {
        // On the real Leipzig centre tile, the style reaches water, parks, roads and buildings.
        let mb = try MBTilesSource(path: TileFixtures.path("leipzig-subset.mbtiles"))
        let tile = try MVTDecoder.decode(try XCTUnwrap(try mb.tileData(for: TileID(z: 14, x: 8755, y: 5460))))
        let image = VectorTilePainter(style: .openMapTiles).render(tile, zoom: 14)
        var seen: [UInt32: Int] = [:]
        for y in stride(from: 0, to: 512, by: 2) { for x in stride(from: 0, to: 512, by: 2) { seen[rgb(image, x, y), default: 0] += 1 } }
        for (name, colour) in [("water", TileStyle.water), ("park", TileStyle.park), ("building", TileStyle.building),
                               ("street", RoadClass.minor.fill), ("primary", RoadClass.primary.fill)] {
            XCTAssertGreaterThan(seen[colour.light] ?? 0, 20, name)
        }
    }
}

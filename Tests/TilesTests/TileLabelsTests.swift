import Foundation
@testable import Tiles
import XCTest

final class TileLabelsTests: XCTestCase {
    func testPlacesWaterAndStreetsOfTheRealLeipzigTile() throws {
        let mb = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let tile = try MVTDecoder.decode(try XCTUnwrap(try mb.tileData(for: TileID(z: 14, x: 8755, y: 5460))))
        let c = TileLabels.candidates(in: tile, style: .openMapTiles, zoom: 14)
        XCTAssertEqual(c.first?.text, "Leipzig", "the city first")
        XCTAssertEqual(c.first?.kind, .place)
        XCTAssertEqual(c.first?.featureClass, "city")
        XCTAssertTrue(c.contains { $0.kind == .water && $0.text == "Schwanenteich" })
        let streets = c.filter { $0.kind == .road }
        XCTAssertGreaterThan(streets.count, 30)
        XCTAssertEqual(Set(streets.map(\.text)).count, streets.count, "one candidate per street per tile")
        XCTAssertTrue(c.allSatisfy { $0.x >= 0 && $0.x < 512 && $0.y >= 0 && $0.y < 512 })
        XCTAssertTrue(streets.allSatisfy { abs($0.angle) <= .pi / 2 + 1e-9 })
        XCTAssertEqual(c.map(\.priority), c.map(\.priority).sorted(by: >))
        // Streets are only offered from zoom 13.
        XCTAssertTrue(TileLabels.candidates(in: tile, style: .openMapTiles, zoom: 12).allSatisfy { $0.kind != .road })
    }

    func testProtomapsPlaces() throws {
        let pm = try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles"))
        let tile = try MVTDecoder.decode(try XCTUnwrap(try pm.tileData(for: TileID(z: 12, x: 2176, y: 1493))))
        let c = TileLabels.candidates(in: tile, style: .protomaps, zoom: 12, tileSize: 256)
        let places = c.filter { $0.kind == .place }
        XCTAssertFalse(places.isEmpty)
        XCTAssertTrue(c.allSatisfy { $0.x < 256 && $0.y < 256 })
        if let city = places.first(where: { $0.featureClass == "city" }) {
            XCTAssertEqual(places.first?.text, city.text, "a city outranks its neighbourhoods")
        }
    }

    func testLineAnchorIsTheMiddleOfTheLongestStretch() {
        let f = VectorTileFeature(type: .lineString, points: [0, 0, 10, 0, 0, 100, 0, 300], parts: [0, 2])
        let a = TileLabels.anchor(of: f)
        XCTAssertEqual(a?.x ?? -1, 0, accuracy: 1e-9)
        XCTAssertEqual(a?.y ?? -1, 200, accuracy: 1e-9)
        XCTAssertEqual(a?.angle ?? 0, .pi / 2, accuracy: 1e-9)
        // A line drawn right to left reads left to right.
        let back = VectorTileFeature(type: .lineString, points: [100, 0, 0, 0], parts: [0])
        XCTAssertEqual(TileLabels.anchor(of: back)?.angle ?? 1, 0, accuracy: 1e-9)
    }
}

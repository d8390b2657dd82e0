import Foundation
import MapModel
@testable import MapRender
@testable import Tiles
import XCTest

/// A street map's place names are sized by rank at zoom 12: its cities bigger and bolder than its
/// towns, its towns than its villages.
final class CityRankTests: XCTestCase {
    func testCitiesStandAboveTownsAndVillages() throws {
        let mb = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let tile = try MVTDecoder.decode(try XCTUnwrap(try mb.tileData(for: TileID(z: 12, x: 2188, y: 1365))))
        let places = TileLabels.candidates(in: tile, style: .openMapTiles, zoom: 12).filter { $0.kind == .place }
        let leipzig = try XCTUnwrap(places.first { $0.text == "Leipzig" })
        XCTAssertEqual(TileLabelOverlayBuilder.kind(of: leipzig), .majorCity)
        for p in places where p.featureClass == "town" { XCTAssertEqual(TileLabelOverlayBuilder.kind(of: p), .town) }
        for p in places where p.featureClass == "village" { XCTAssertEqual(TileLabelOverlayBuilder.kind(of: p), .village) }
        // The same name is bigger as a city than as a town (a town is no smaller than a village).
        let labels = MapLabelRenderer()
        let city = labels.size(of: "Leipzig", kind: .majorCity), town = labels.size(of: "Leipzig", kind: .town)
        let village = labels.size(of: "Leipzig", kind: .village)
        XCTAssertGreaterThan(city.width, town.width)
        XCTAssertGreaterThanOrEqual(town.width, village.width)
    }
}

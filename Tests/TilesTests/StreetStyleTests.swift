import Foundation
@testable import Tiles
import XCTest

/// The street style names the sights people steer by (from both schemas), draws pedestrian
/// streets and squares as open ground, not as footpaths or buildings.
final class StreetStyleTests: XCTestCase {
    func testLeipzigLandmarksAreNamedButNotEveryShop() throws {
        let mb = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        var landmarks: [TileLabelCandidate] = []
        for x in [8755, 8756] {
            let tile = try MVTDecoder.decode(try XCTUnwrap(try mb.tileData(for: TileID(z: 14, x: x, y: 5460))))
            landmarks += TileLabels.candidates(in: tile, style: .openMapTiles, zoom: 14).filter { $0.kind == .landmark }
        }
        let names = Set(landmarks.map(\.text))
        XCTAssertTrue(names.contains("Thomaskirche"), "\(names.sorted())")
        XCTAssertTrue(names.contains("Gewandhaus") || names.contains("Oper"), "\(names.sorted())")
        for shop in ["Thomas Sabo", "Brauhaus an der Thomaskirche", "Tee - und Kaffeehaus an der Thomaskirche"] {
            XCTAssertFalse(names.contains(shop), "\(shop) is a shop or a café, not a landmark")
        }
        XCTAssertTrue(landmarks.allSatisfy { $0.priority < 20 }, "a sight never outranks a main street")
        // Not below zoom 14.
        let tile = try MVTDecoder.decode(try XCTUnwrap(try mb.tileData(for: TileID(z: 14, x: 8755, y: 5460))))
        XCTAssertTrue(TileLabels.candidates(in: tile, style: .openMapTiles, zoom: 13).allSatisfy { $0.kind != .landmark })
    }

    func testFlorenceNamesItsBigBuildingsNotEveryPalazzo() throws {
        let pm = try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles"))
        var landmarks: [TileLabelCandidate] = [], named = 0
        for x in [8704, 8705] {
            let tile = try MVTDecoder.decode(try XCTUnwrap(try pm.tileData(for: TileID(z: 14, x: x, y: 5972))))
            landmarks += TileLabels.candidates(in: tile, style: .protomaps, zoom: 14).filter { $0.kind == .landmark }
            if let b = tile.layer(named: "buildings") {
                named += b.features.filter { b.value(of: $0, key: "name") != nil }.count
            }
        }
        let names = Set(landmarks.map(\.text))
        for sight in ["Galleria degli Uffizi", "Basilica di Santa Croce", "Palazzo Vecchio"] {
            XCTAssertTrue(names.contains(sight), "\(sight) in \(names.sorted())")
        }
        let fromBuildings = landmarks.filter { $0.priority == 16 }.count
        XCTAssertLessThan(fromBuildings, named / 2, "only the big named buildings (\(fromBuildings) of \(named))")
    }

    func testPedestrianStreetsAreStreetsOfTheirOwn() {
        func rules(_ style: TileStyle, matching props: [String: String], layer: String) -> [String] {
            style.layers.filter { $0.sourceLayer == layer }.filter { rule in
                rule.filter.matches(type: .lineString) { props[$0].map(VectorTileValue.string) }
            }.map(\.id)
        }
        let florence = rules(.protomaps, matching: ["pmap:kind": "other", "highway": "pedestrian"], layer: "roads")
        XCTAssertTrue(florence.contains("roads-pedestrian"), "\(florence)")
        XCTAssertFalse(florence.contains("roads-path"), "not a dashed footpath")
        XCTAssertTrue(rules(.protomaps, matching: ["pmap:kind": "other", "highway": "footway"], layer: "roads").contains("roads-path"))
        let leipzig = rules(.openMapTiles, matching: ["class": "path", "subclass": "pedestrian"], layer: "transportation")
        XCTAssertTrue(leipzig.contains("transportation-pedestrian") && !leipzig.contains("transportation-path"), "\(leipzig)")
        // Wide as a side street, paler than the buildings beside it (light and dark).
        XCTAssertGreaterThanOrEqual(RoadClass.pedestrian.width.value(at: 16), RoadClass.service.width.value(at: 16))
        func luminance(_ hex: UInt32) -> Double {
            0.2126 * Double(hex >> 16 & 0xFF) + 0.7152 * Double(hex >> 8 & 0xFF) + 0.0722 * Double(hex & 0xFF)
        }
        XCTAssertGreaterThan(luminance(RoadClass.pedestrian.fill.light), luminance(TileStyle.building.light) + 10)
        XCTAssertGreaterThan(luminance(RoadClass.pedestrian.fill.dark), luminance(TileStyle.building.dark) + 10)
    }
}

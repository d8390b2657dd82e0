import ClusterCore
import Compression
import Foundation
import GeoData
import TileTestSupport
import XCTest
@testable import Tiles

/// A clustered tile file as the window's data (issue 31.7): which tiles a view reads, whether a
/// tile file is clustered data or a street map, and each item's split zoom and card.
final class ClusterTileDataTests: XCTestCase {
    /// Our own file of the writer tests' points, zooms 0–12, places named "p<i>" with a hostile extra.
    static func ourFile(in folder: TemporaryFolder) throws -> (String, HierarchicalClusterer) {
        let clusterer = HierarchicalClusterer(points: ClusterTileWriterTests.points(), options: .init(maxZoom: 12))
        let builder = ClusterTileBuilder(clusterer: clusterer, pointProperties: { [("name", .string("p\($0)")), ("note", .string("a \"q\" \\ \n"))] })
        let path = folder.path("c.pmtiles")
        let archive = try ClusterTileArchive(path: path)
        for z in builder.zooms { for (t, b) in builder.tiles(atZoom: z) { try archive.add(t, bytes: GzipCompressor.compress(b)) } }
        try archive.finish(name: "t", zooms: builder.zooms, bounds: .world, fields: ["name", "note"])
        return (path, clusterer)
    }

    func testAViewReadsTheTilesCoveringItAtItsWholeZoom() throws {
        let folder = TemporaryFolder()
        let (path, _) = try ClusterTileDataTests.ourFile(in: folder)
        let reader = ClusterTileReader(source: try PMTilesSource(path: path))
        XCTAssertEqual(Set(reader.tiles(in: .world, zoom: 1.7)), [TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 0),
                                                                  TileID(z: 1, x: 0, y: 1), TileID(z: 1, x: 1, y: 1)])
        // Paris at zoom 10.4: the one tile holding it.
        let paris = GeoBounds(west: 2.34, south: 48.84, east: 2.36, north: 48.86)
        XCTAssertEqual(reader.tiles(in: paris, zoom: 10.4), [TileID(z: 10, x: 518, y: 352)])
        // Past the file's deepest zoom: its deepest tiles.
        XCTAssertEqual(reader.tiles(in: paris, zoom: 17).map(\.z), [13])
        // Across the antimeridian: tiles at both ends of the row, each once.
        let across = GeoBounds(west: 170, south: 5, east: -170, north: 15)
        XCTAssertEqual(Set(reader.tiles(in: across, zoom: 3).map(\.x)), [0, 7])
        XCTAssertEqual(reader.tiles(in: across, zoom: 3).count, Set(reader.tiles(in: across, zoom: 3)).count)
    }

    func testAViewsTilesHoldEveryPointOnceWithSplitZoomsAndCards() throws {
        let folder = TemporaryFolder()
        let (path, clusterer) = try ClusterTileDataTests.ourFile(in: folder)
        let reader = ClusterTileReader(source: try PMTilesSource(path: path))
        let finite = ClusterTileWriterTests.points().filter { $0.latitude.isFinite && $0.longitude.isFinite }.count
        for z in [0, 3, 6] {
            let items = try reader.items(of: reader.tiles(in: .world, zoom: Double(z)))
            XCTAssertEqual(items.map(\.count).reduce(0, +), finite, "zoom \(z): every point once")
            for item in items where item.isCluster {
                let id = try XCTUnwrap(item.key, "zoom \(z): a cluster has its id")
                XCTAssertEqual(item.expansionZoom, clusterer.expansionZoom(of: ClusterID(rawValue: Int(id))), "zoom \(z)")
            }
        }
        let paris = GeoBounds(west: 2.3, south: 48.8, east: 2.4, north: 48.9)
        let places = try reader.items(of: reader.tiles(in: paris, zoom: 13)).filter { !$0.isCluster }
        XCTAssertFalse(places.isEmpty)
        for place in places.prefix(50) {
            XCTAssertNil(place.expansionZoom)
            let card = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(place.propertiesJSON.utf8)) as? [String: Any])
            XCTAssertEqual((card["name"] as? String)?.hasPrefix("p"), true)
            XCTAssertEqual(card["note"] as? String, "a \"q\" \\ \n")
        }
    }

    func testClusteredFilesAreToldFromStreetMaps() throws {
        let folder = TemporaryFolder()
        let (path, _) = try ClusterTileDataTests.ourFile(in: folder)
        XCTAssertTrue(ClusterTileReader.isClustered(try PMTilesSource(path: path)))
        // tippecanoe-style: only `point_count` (no `cluster` flag), in its own layer name.
        var points = MVTLayerEncoder(name: "points")
        points.addPoint(x: 100, y: 100, id: nil, properties: [("point_count", .int(42))])
        var street = MVTLayerEncoder(name: "place")
        street.addPoint(x: 100, y: 100, id: 1, properties: [("name", .string("Paris")), ("class", .string("city"))])
        for (name, layer, expected) in [("tc", points, true), ("street", street, false)] {
            var w = PMTilesArchiveWriter()
            w.add(TileID(z: 0, x: 0, y: 0), bytes: GzipCompressor.compress(layer.encodedLayer()))
            let p = folder.path("\(name).pmtiles")
            try w.write(to: p, PMTilesArchiveWriter.Description())
            XCTAssertEqual(ClusterTileReader.isClustered(try PMTilesSource(path: p)), expected, name)
        }
    }
}

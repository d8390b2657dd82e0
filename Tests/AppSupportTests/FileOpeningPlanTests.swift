import XCTest
@testable import AppSupport

/// What File ▸ Open… and a drop do with the files chosen (issue 31.7: a clustered tile file is
/// data, other tile files the street map).
final class FileOpeningPlanTests: XCTestCase {
    private let clustered: Set<String> = ["/d/clusters.pmtiles", "/d/tippecanoe.MBTILES", "/d/more.pmtiles"]

    private func plan(_ paths: [String]) -> FileOpeningPlan {
        FileOpeningPlan(paths: paths) { self.clustered.contains($0) }
    }

    func testAClusteredTileFileOpensAsData() {
        let p = plan(["/d/clusters.pmtiles"])
        XCTAssertEqual(p.clusterTiles, "/d/clusters.pmtiles")
        XCTAssertNil(p.baseMap)
        XCTAssertEqual(p.data, [])
        XCTAssertEqual(p.message, "clusters.pmtiles: clustered points, opened as data.")
        XCTAssertEqual(plan(["/d/tippecanoe.MBTILES"]).clusterTiles, "/d/tippecanoe.MBTILES", "any case of the ending")
    }

    func testAStreetMapTileFileIsTheBaseMapAndDataStillLoads() {
        let p = plan(["/d/streets.pmtiles", "/d/a.csv", "/d/b.geojson"])
        XCTAssertNil(p.clusterTiles)
        XCTAssertEqual(p.baseMap, "/d/streets.pmtiles")
        XCTAssertEqual(p.data, ["/d/a.csv", "/d/b.geojson"])
        XCTAssertEqual(p.refused, [])
        XCTAssertEqual(p.message, "streets.pmtiles holds no clustered points: opened as the street map.")
        XCTAssertNil(plan(["/d/a.csv"]).message, "plain data: the load says what it opened")
    }

    func testAClusteredTileFileOpensOnItsOwnAndSaysWhatItLeftOut() {
        let p = plan(["/d/a.csv", "/d/clusters.pmtiles", "/d/streets.mbtiles", "/d/more.pmtiles"])
        XCTAssertEqual(p.clusterTiles, "/d/more.pmtiles", "the last chosen")
        XCTAssertEqual(p.baseMap, "/d/streets.mbtiles", "a street map still goes under it")
        XCTAssertEqual(p.data, [])
        XCTAssertEqual(p.refused, ["/d/a.csv", "/d/clusters.pmtiles"])
        XCTAssertEqual(p.message, "more.pmtiles: clustered points, opened as data. streets.mbtiles holds no clustered points: "
                       + "opened as the street map. A clustered tile file opens on its own; not opened: a.csv, clusters.pmtiles.")
    }
}

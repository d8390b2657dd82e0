@testable import Tiles
import XCTest

final class TileMathTests: XCTestCase {
    func testTMSRowFlipIsItsOwnInverse() {
        let t = TileID(z: 14, x: 8755, y: 5460)
        XCTAssertEqual(t.tmsRow, 10923)
        XCTAssertEqual(TileID.fromTMS(z: 14, x: 8755, tmsRow: t.tmsRow), t)
        XCTAssertEqual(TileID(z: 0, x: 0, y: 0).tmsRow, 0)
        XCTAssertEqual(TileID(z: 1, x: 0, y: 0).tmsRow, 1)
    }

    func testColumnsWrapAroundTheWorld() {
        XCTAssertEqual(TileID(z: 2, x: -1, y: 1).wrapped, TileID(z: 2, x: 3, y: 1))
        XCTAssertEqual(TileID(z: 2, x: 4, y: 1).wrapped, TileID(z: 2, x: 0, y: 1))
        XCTAssertEqual(TileID(z: 2, x: -5, y: 0).wrapped, TileID(z: 2, x: 3, y: 0))
        XCTAssertEqual(TileID(z: 2, x: -1, y: 0).worldCopy, -1)
        XCTAssertEqual(TileID(z: 2, x: -4, y: 0).worldCopy, -1)
        XCTAssertEqual(TileID(z: 2, x: -5, y: 0).worldCopy, -2)
        XCTAssertEqual(TileID(z: 2, x: 7, y: 0).worldCopy, 1)
        XCTAssertFalse(TileID(z: 2, x: 4, y: 0).isValid)
        XCTAssertFalse(TileID(z: 2, x: 0, y: 4).isValid)
        XCTAssertTrue(TileID(z: 2, x: 3, y: 3).isValid)
    }

    func testParentsChildrenAndSubRectangles() {
        let t = TileID(z: 3, x: 5, y: 2)
        XCTAssertEqual(t.parent, TileID(z: 2, x: 2, y: 1))
        XCTAssertEqual(TileID(z: 0, x: 0, y: 0).parent, nil)
        XCTAssertEqual(t.children.map(\.parent), Array(repeating: t, count: 4))
        XCTAssertEqual(t.rect(in: TileID(z: 2, x: 2, y: 1)), TileRect(x: 0.5, y: 0, size: 0.5))
        XCTAssertEqual(t.rect(in: TileID(z: 1, x: 1, y: 0)), TileRect(x: 0.25, y: 0.5, size: 0.25))
        XCTAssertEqual(t.rect(in: TileID(z: 2, x: 0, y: 0)), nil, "not an ancestor")
        XCTAssertEqual(t.rect(in: t), .whole)
        // A western world copy keeps its copy when going up.
        XCTAssertEqual(TileID(z: 2, x: -1, y: 0).parent, TileID(z: 1, x: -1, y: 0))
    }

    func testStandInsAreTheAncestorsNearestFirst() {
        let s = TileCoverage.standIns(for: TileID(z: 4, x: 9, y: 6), maxLevelsUp: 3)
        XCTAssertEqual(s.map(\.tile), [TileID(z: 3, x: 4, y: 3), TileID(z: 2, x: 2, y: 1), TileID(z: 1, x: 1, y: 0)])
        XCTAssertEqual(s[0].rect, TileRect(x: 0.5, y: 0, size: 0.5))
        XCTAssertEqual(s[2].rect, TileRect(x: 0.125, y: 0.75, size: 0.125))
        // A wrapped tile's stand-ins are canonical tiles.
        XCTAssertEqual(TileCoverage.standIns(for: TileID(z: 1, x: -1, y: 0)).map(\.tile), [TileID(z: 0, x: 0, y: 0)])
    }

    func testTileZoomFollowsTheTileSize() {
        XCTAssertEqual(TileCoverage.tileZoom(forMapZoom: 3.4), 3)
        XCTAssertEqual(TileCoverage.tileZoom(forMapZoom: 3.5), 4)
        XCTAssertEqual(TileCoverage.tileZoom(forMapZoom: 3.0, tileSize: 512), 2)
        XCTAssertEqual(TileCoverage.tileZoom(forMapZoom: 0.2, tileSize: 512), 0)
        XCTAssertEqual(TileCoverage.tileZoom(forMapZoom: 1, minZoom: 5), 5)
    }

    func testPlacementsCoverTheViewportExactlyOnce() {
        // Leipzig at zoom 14, 800×600: every viewport pixel is inside exactly one placement.
        let (cx, cy) = unit(lat: 51.3397, lon: 12.3731)
        let p = TileCoverage.placements(centerX: cx, centerY: cy, zoom: 14, width: 800, height: 600)
        XCTAssertTrue(p.allSatisfy { $0.tile.z == 14 && $0.screenSize == 256 })
        XCTAssertEqual(Set(p.map(\.tile)).count, p.count)
        for (x, y) in [(0.5, 0.5), (799.5, 599.5), (400, 300), (10, 590), (799, 3)] {
            XCTAssertEqual(p.filter { x >= $0.screenX && x < $0.screenX + $0.screenSize && y >= $0.screenY && y < $0.screenY + $0.screenSize }.count, 1, "\(x),\(y)")
        }
        // Nearest to the centre first: the first tile holds the centre pixel.
        let first = p[0]
        XCTAssertTrue(first.screenX <= 400 && first.screenX + 256 > 400 && first.screenY <= 300 && first.screenY + 256 > 300)
        XCTAssertEqual(first.tile, TileID(z: 14, x: 8755, y: 5460))
    }

    func testPlacementsWrapAcrossTheAntimeridian() {
        // Zoom 1, centred on 180°: the view spans both edges of the world.
        let p = TileCoverage.placements(centerX: 1.0, centerY: 0.5, zoom: 1, width: 512, height: 256)
        let columns = Set(p.map(\.tile.x))
        XCTAssertEqual(columns, [1, 2], "unwrapped columns keep their screen positions")
        XCTAssertEqual(Set(p.map(\.sourceTile.x)), [0, 1], "but fetch the canonical tiles")
        let east = p.first { $0.tile.x == 2 }!
        XCTAssertEqual(east.sourceTile, TileID(z: 1, x: 0, y: east.tile.y))
        XCTAssertEqual(east.screenX, 256, accuracy: 1e-9)
    }

    func testOverZoomScalesAPartOfTheDeepestTile() {
        let (cx, cy) = unit(lat: 51.3397, lon: 12.3731)
        let p = TileCoverage.placements(centerX: cx, centerY: cy, zoom: 16, width: 256, height: 256, maxZoom: 14)
        XCTAssertFalse(p.isEmpty)
        for placement in p {
            XCTAssertEqual(placement.tile.z, 16)
            XCTAssertEqual(placement.sourceTile.z, 14)
            XCTAssertEqual(placement.sourceTile, placement.tile.wrapped.ancestor(atZoom: 14))
            XCTAssertEqual(placement.sourceRect.size, 0.25)
        }
        let centre = p[0]
        XCTAssertEqual(centre.sourceTile, TileID(z: 14, x: 8755, y: 5460))
    }

    func testFractionalZoomScalesTiles() {
        let p = TileCoverage.placements(centerX: 0.5, centerY: 0.5, zoom: 2.3, width: 300, height: 300)
        XCTAssertEqual(p[0].tile.z, 2)
        XCTAssertEqual(p[0].screenSize, 256 * pow(2, 0.3), accuracy: 1e-9)
        // 512-px vector tiles: one level less, twice the size.
        let v = TileCoverage.placements(centerX: 0.5, centerY: 0.5, zoom: 3, width: 300, height: 300, tileSize: 512)
        XCTAssertEqual(v[0].tile.z, 2)
        XCTAssertEqual(v[0].screenSize, 512, accuracy: 1e-9)
    }

    func testRowsStopAtThePoles() {
        let p = TileCoverage.placements(centerX: 0.5, centerY: 0.5, zoom: 0, width: 2000, height: 2000)
        XCTAssertTrue(p.allSatisfy { $0.tile.y == 0 })
        XCTAssertEqual(p.count, 9, "columns repeat across the wide view, rows don't")
        XCTAssertEqual(TileCoverage.placements(centerX: .nan, centerY: 0.5, zoom: 3, width: 100, height: 100).count, 0)
        XCTAssertLessThanOrEqual(TileCoverage.placements(centerX: 0.5, centerY: 0.5, zoom: 10, width: 100_000,
                                                         height: 100_000, maxTiles: 50).count, 50)
    }

    func testFadeIn() {
        XCTAssertEqual(TileFade.opacity(arrival: 1, now: 1), 0)
        XCTAssertEqual(TileFade.opacity(arrival: 1, now: 1 + TileFade.defaultDuration), 1)
        XCTAssertEqual(TileFade.opacity(arrival: 1, now: 1.1, duration: 0.2), 0.5, accuracy: 1e-9)
        XCTAssertEqual(TileFade.opacity(arrival: 1, now: 1, reducedMotion: true), 1)
    }

    private func unit(lat: Double, lon: Double) -> (Double, Double) {
        let s = sin(lat * .pi / 180)
        return (lon / 360 + 0.5, 0.5 - log((1 + s) / (1 - s)) / (4 * .pi))
    }
}

import Foundation
import XCTest
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

/// Issue 32 items 5, 6: the legend collapses on a narrow map, and an opening view leaves the
/// legend card's corner free, along whichever side costs less of the map.
final class ChromeLayoutTests: XCTestCase {
    func testTheLegendCollapsesOnANarrowMap() {
        XCTAssertTrue(ChromeLayout.legendCollapses(mapWidth: 360))
        XCTAssertTrue(ChromeLayout.legendCollapses(mapWidth: 699))
        XCTAssertFalse(ChromeLayout.legendCollapses(mapWidth: 1280))
    }

    func testAShortWideCardTakesABandAlongTheTop() {
        let i = ChromeLayout.openingInsets(legendCard: ScreenSize(width: 200, height: 80), viewport: ScreenSize(width: 1280, height: 800))
        XCTAssertEqual(i, ScreenInsets(top: 12 + 80 + 8))
    }

    func testATallNarrowCardTakesAColumn() {
        let i = ChromeLayout.openingInsets(legendCard: ScreenSize(width: 180, height: 300), viewport: ScreenSize(width: 1280, height: 800))
        XCTAssertEqual(i, ScreenInsets(left: 12 + 180 + 8))
    }

    func testNoCardOrACardTooBigForEitherSideLeavesTheViewWhole() {
        XCTAssertEqual(ChromeLayout.openingInsets(legendCard: nil, viewport: ScreenSize(width: 800, height: 600)), .zero)
        XCTAssertEqual(ChromeLayout.openingInsets(legendCard: ScreenSize(width: 300, height: 400), viewport: ScreenSize(width: 400, height: 500)), .zero)
    }

    func testLisbonOpensBelowItsLegend() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let s = MapDataSession(pointSets: [try PointSetLoader.load(path: url.appendingPathComponent("data/points/lisbon.geojson").path)])
        let start = Camera(center: GeoCoordinate(latitude: 20, longitude: 0), zoom: 2, viewportSize: ScreenSize(width: 1100, height: 650))
        let card = ScreenSize(width: 190, height: 70)
        let insets = ChromeLayout.openingInsets(legendCard: card, viewport: start.viewportSize)
        let view = try XCTUnwrap(s.openingCamera(from: start, insets: insets))
        for i in 0..<s.pointCount {
            let p = view.screenPoint(for: s.places.coordinates[i])
            let underCard = p.x < 12 + card.width + 8 && p.y < 12 + card.height + 8
            XCTAssertFalse(underCard, "stay \(i) at \(p) is under the legend")
            XCTAssertTrue(p.y > 0 && p.y < 650 && p.x > 0 && p.x < 1100)
        }
    }

    func testTheBannerGoesDownOnlyOverAnOpenCard() {
        let banner = ScreenSize(width: 420, height: 52)
        // A card near the top centre: under the banner's top spot.
        XCTAssertTrue(ChromeLayout.bannerMovesDown(callout: ScreenRect(x: 400, y: 30, width: 260, height: 160), bannerSize: banner, mapWidth: 1100))
        // A card lower down, or off to the side, or none: the banner stays at the top.
        XCTAssertFalse(ChromeLayout.bannerMovesDown(callout: ScreenRect(x: 400, y: 200, width: 260, height: 160), bannerSize: banner, mapWidth: 1100))
        XCTAssertFalse(ChromeLayout.bannerMovesDown(callout: ScreenRect(x: 20, y: 30, width: 260, height: 160), bannerSize: banner, mapWidth: 1100))
        XCTAssertFalse(ChromeLayout.bannerMovesDown(callout: nil, bannerSize: banner, mapWidth: 1100))
    }

    func testAnOpeningViewLeavesRoomForNamesOnTheRight() {
        let i = ChromeLayout.openingInsetsWithNames(legendCard: ScreenSize(width: 200, height: 80), viewport: ScreenSize(width: 1280, height: 800))
        XCTAssertEqual(i, ScreenInsets(top: 100, right: ChromeLayout.nameRoom))
        XCTAssertGreaterThan(ChromeLayout.nameRoom, 40)
    }
}

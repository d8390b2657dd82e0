import AppSupport
import XCTest

/// The MapTiler source: a key becomes a raster template with `@2x` on HiDPI; things that can't be
/// keys (spaces, URL syntax that would change the request, too short) are refused.
final class MapTilerSourceTests: XCTestCase {
    func testKeysAndTemplates() {
        XCTAssertEqual(MapTilerSource.template(key: "  AbCdEf123456  "),
                       "https://api.maptiler.com/maps/streets-v2/256/{z}/{x}/{y}{r}.png?key=AbCdEf123456")
        XCTAssertTrue(MapTilerSource.isMapTiler(MapTilerSource.template(key: "AbCdEf123456")!))
        XCTAssertFalse(MapTilerSource.isMapTiler(LaunchOptions.openStreetMapTemplate))
        for bad in ["", "short", "has space inside", "abc&evil=1xyz", "abcdefgh/../x", String(repeating: "a", count: 200)] {
            XCTAssertNil(MapTilerSource.template(key: bad), bad)
        }
        // The template is one `--basemap` accepts.
        XCTAssertNotNil(try LaunchOptions.parseBasemap(MapTilerSource.template(key: "AbCdEf123456")!))
    }
}

import XCTest
import Foundation

/// `0` with a filter on frames the places that pass (review-s16 finding 14): a filter keeping
/// only the places near Japan, then `0`, puts the camera over Japan, not over the whole data.
final class HomeFitsFilterTests: XCTestCase {
    func testZeroFitsThePassingPlaces() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        var csv = "lat,lon,kind\n"
        for i in 0..<200 {
            // "a" around Madrid, "b" around Tokyo.
            csv += i % 2 == 0 ? "\(40 + Double(i % 10) * 0.05),\(-3.7 + Double(i / 10) * 0.05),a\n"
                              : "\(35.6 + Double(i % 10) * 0.05),\(139.7 + Double(i / 10) * 0.05),b\n"
        }
        let path = h.workDir + "/two.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        try h.launch([path, "--where", "kind = b", "--size", "1200x800", "--reduce-motion"], timeout: 60)
        let filtered = try h.waitForEvent("filter", timeout: 30) { $0["passing"] as? Int == 100 }
        let first = try h.waitForEvent("camera", timeout: 30)
        XCTAssertLessThan(first.event["lon"] as? Double ?? 999, 120, "the first frame shows all the data")
        try h.key("0")
        let home = try h.waitForEvent("camera", after: max(first.index, filtered.index) + 1, timeout: 15)
        let lon = home.event["lon"] as? Double ?? 0, lat = home.event["lat"] as? Double ?? 0
        XCTAssertEqual(lon, 139.7 + 0.45, accuracy: 1, "\(home.event)")
        XCTAssertEqual(lat, 35.6 + 0.225, accuracy: 1, "\(home.event)")
        XCTAssertGreaterThan(home.event["zoom"] as? Double ?? 0, first.event["zoom"] as? Double ?? 0)
        h.assertNoGtkWarnings()
    }
}

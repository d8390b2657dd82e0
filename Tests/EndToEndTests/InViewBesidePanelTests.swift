import Foundation
import XCTest

/// In View (F9) lists what is visible beside it (review-s16 finding 12c): the panel narrows the
/// map, and a place that was at the right edge is then out of view, so it leaves the list without
/// the person moving the map.
final class InViewBesidePanelTests: XCTestCase {
    func testInViewJustOpenedListsOnlyThePlacesVisibleBesideIt() throws {
        try AppHarness.requireTools()
        let csv = NSTemporaryDirectory() + "inview-\(UInt32.random(in: 0...UInt32.max)).csv"
        // At zoom 4 a degree is ~11.4 px: in a 1000 px map centred on 0° "Far" (40° E) is at
        // x ≈ 955; once the panel takes the right ~300 px, it is past the map's edge.
        try """
            name,latitude,longitude
            West,0,-30
            Middle West,0,-15
            Centre,0,0
            Middle East,0,15
            Far,0,40
            """.write(toFile: csv, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: csv) }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([csv, "--center", "0,0", "--zoom", "4", "--size", "1000x700", "--reduce-motion"])
        _ = try h.waitForEvent("scene") { ($0["pins"] as? [[String: Any]] ?? []).count == 5 }
        // Everything loaded (until then the base map's names report the scene again and again):
        // nothing else reports the narrower scene after the panel opens.
        let scene = try h.waitForEvent("basemap", timeout: 30)
        try h.key("F9")
        func names(_ e: [String: Any]) -> Set<String> {
            Set((e["rows"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        }
        let list = try h.waitForEvent("list", after: scene.index, timeout: 20) { !names($0).isEmpty && !names($0).contains("Far") }
        XCTAssertEqual(names(list.event), ["West", "Middle West", "Centre", "Middle East"])
        // The panel sits beside the map (not over it): the map's scene is the narrower one.
        let narrowed = try h.waitForEvent("scene", after: scene.index, timeout: 20) { ($0["pins"] as? [[String: Any]] ?? []).count == 4 }
        XCTAssertNotNil(narrowed)
    }
}

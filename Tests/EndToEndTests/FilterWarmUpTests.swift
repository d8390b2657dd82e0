import XCTest
import Foundation

/// The first filter of a session does not wait for the properties to be decoded (issue 29): the
/// window decodes them in the background once a load is shown, without the panel being opened,
/// and logs `filter-ready` after `load-done`.
final class FilterWarmUpTests: XCTestCase {
    func testTheWindowDecodesTheFiltersTableAfterALoadWithoutThePanel() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let (rows, path) = try FilterWindowTests.writeFixture(in: h)

        try h.launch([path, "--size", "1000x700", "--reduce-motion"], timeout: 60)
        let loaded = try h.waitForEvent("load-done", timeout: 60)
        let ready = try h.waitForEvent("filter-ready", after: loaded.index, timeout: 30)
        XCTAssertEqual(FilterWindowTests.field(ready.event, "places"), rows.count)
        XCTAssertEqual(ready.event["decoded"] as? Bool, true, "decoded by the warm-up, not by a filter")
        XCTAssertFalse(h.events().contains { $0["event"] as? String == "filter-catalog" }, "the panel was never opened")
    }
}

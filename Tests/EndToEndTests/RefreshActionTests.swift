import Foundation
import XCTest

/// "Refresh Now" is offered only when there is something to refresh (issue 32 item 8): greyed out
/// for a bundled dataset, enabled for a watched file.
final class RefreshActionTests: XCTestCase {
    func testRefreshNowIsDisabledForStaticDataAndEnabledForAWatchedFile() throws {
        try AppHarness.requireTools()
        do {
            let h = try AppHarness()
            defer { h.stop() }
            try h.launch(["--dataset", "madrid"])
            let first = try h.waitForEvent("refresh-action")
            XCTAssertEqual(first.event["enabled"] as? Bool, false, "bundled data has nothing to refresh")
            _ = try h.waitForEvent("scene", after: first.index) { !(($0["pins"] as? [Any]) ?? []).isEmpty }
            XCTAssertNil(h.events().first { $0["event"] as? String == "refresh-action" && $0["enabled"] as? Bool == true })
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("refresh-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("places.ndjson")
        try """
        {"type":"Feature","properties":{"name":"A"},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}
        {"type":"Feature","properties":{"name":"B"},"geometry":{"type":"Point","coordinates":[2.36,48.86]}}

        """.write(to: file, atomically: true, encoding: .utf8)
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([file.path])
        let before = try h.waitForEvent("refresh-action")
        XCTAssertEqual(before.event["enabled"] as? Bool, false, "nothing to refresh while the file loads")
        _ = try h.waitForEvent("watch", after: before.index)
        _ = try h.waitForEvent("refresh-action", after: before.index) { $0["enabled"] as? Bool == true }
    }
}

import XCTest

/// The callout reads like a card (SPEC §7, issue 12 item 6): formatted place line, ids behind
/// "More", "Copy coordinates" and a close button, clicked for real.
final class CalloutCardE2ETests: XCTestCase {
    private func button(_ action: String, in callout: [String: Any]) -> (Double, Double)? {
        guard let b = (callout["buttons"] as? [[String: Any]])?.first(where: { $0["action"] as? String == action }) else { return nil }
        return (b["x"] as! Double, b["y"] as! Double)
    }

    func testLisbonCardMoreCopyAndClose() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let csv = h.workDir + "/cities.csv"
        try """
        geonameid,name,lat,lon,country,admin1,population,timezone
        2267057,Lisbon,38.71667,-9.13333,PT,14,517802,Europe/Lisbon
        2742032,Porto,41.14961,-8.61099,PT,17,249633,Europe/Lisbon

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        try h.launch([csv, "--center", "38.70,-9.13333", "--zoom", "12"])
        let scene = try h.waitForEvent("scene", timeout: 30) { e in
            ((e["pins"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "Lisbon" }
        }
        let pin = ((scene.event["pins"] as? [[String: Any]]) ?? []).first { $0["name"] as? String == "Lisbon" }!
        try h.click(at: pin["x"] as! Double, pin["y"] as! Double)
        let callout = try h.waitForEvent("callout", after: scene.index)
        XCTAssertEqual(callout.event["title"] as? String, "Lisbon")
        let lines = callout.event["lines"] as? [String] ?? []
        XCTAssertEqual(lines, ["Lisbon, Portugal · population 517,802"], "no ids, no raw numbers")
        // Logged at rest: the card has grown and is drawn. (No pauses between the clicks: each
        // button is far from the last click, so none of them is a double-click.)
        let shot = try h.screenshot(name: "callout-card")
        print("callout screenshot: \(shot.path)")

        // "More" shows the ids; the card grows in place.
        let more = try XCTUnwrap(button("more", in: callout.event), "\(callout.event)")
        try h.click(at: more.0, more.1)
        let expanded = try h.waitForEvent("callout", after: callout.index + 1)
        XCTAssertTrue((expanded.event["lines"] as? [String] ?? []).contains("GeoNames ID: 2267057"), "\(expanded.event)")
        XCTAssertNotNil(button("less", in: expanded.event))

        let copy = try XCTUnwrap(button("copyCoordinates", in: expanded.event))
        try h.click(at: copy.0, copy.1)
        let copied = try h.waitForEvent("copy", after: expanded.index)
        XCTAssertEqual(copied.event["text"] as? String, "38.71667, -9.13333")

        let latest = try h.waitForEvent("callout", after: copied.index)
        let close = try XCTUnwrap(button("close", in: latest.event))
        try h.click(at: close.0, close.1)
        try h.waitForEvent("deselect", after: latest.index)
    }
}

import Foundation
import XCTest

/// Select a place, read its callout, close it, and keep the selection through re-clustering (SPEC §5.3).
final class SelectionTests: XCTestCase {
    private func pins(_ e: [String: Any]) -> [[String: Any]] { e["pins"] as? [[String: Any]] ?? [] }
    private func bubbles(_ e: [String: Any]) -> [[String: Any]] { e["bubbles"] as? [[String: Any]] ?? [] }

    /// Lisbon's stays as a plain file: the bundled dataset keeps its priced stays out of
    /// clustering (issue 32 item 1), and this test needs the place to join a bubble.
    static var lisbonFile: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("data/points/lisbon.geojson").path
    }

    func testSelectCalloutEscapeAndSelectionSurvivesZoom() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([SelectionTests.lisbonFile, "--center", "38.7125,-9.138", "--zoom", "15"])
        let scene = try h.waitForEvent("scene") { !(($0["pins"] as? [Any]) ?? []).isEmpty }
        guard let loft = pins(scene.event).first(where: { $0["name"] as? String == "Rooftop Loft" }) else {
            return XCTFail("no Rooftop Loft pin in \(scene.event)")
        }
        try h.click(at: loft["x"] as! Double, loft["y"] as! Double)
        let select = try h.waitForEvent("select", after: scene.index)
        XCTAssertEqual(select.event["name"] as? String, "Rooftop Loft")
        let callout = try h.waitForEvent("callout", after: select.index)
        XCTAssertEqual(callout.event["id"] as? Int, select.event["id"] as? Int)
        XCTAssertGreaterThan(callout.event["width"] as! Double, 60)
        XCTAssertGreaterThan(callout.event["height"] as! Double, 30)
        // The callout sits above the pin.
        XCTAssertLessThan((callout.event["y"] as! Double) + (callout.event["height"] as! Double), loft["y"] as! Double)

        try h.key("Escape")
        let deselect = try h.waitForEvent("deselect", after: callout.index)

        // Select again (after the double-click time, so it is a new click), then zoom out until
        // the place is inside a bubble.
        h.waitPastDoubleClickTime()
        try h.click(at: loft["x"] as! Double, loft["y"] as! Double)
        var last = try h.waitForEvent("select", after: deselect.index)
        var marked = false
        for _ in 0..<8 {
            try h.key("minus")
            let s = try h.waitForEvent("scene", after: last.index + 1)
            last = s
            let selectedPins = pins(s.event).filter { $0["selected"] as? Bool == true }
            XCTAssertEqual(selectedPins.count, 1, "the selected pin stays drawn: \(s.event)")
            if bubbles(s.event).contains(where: { $0["marked"] as? Bool == true }) { marked = true; break }
        }
        XCTAssertTrue(marked, "zooming out, the selected place joined a bubble that is marked")
        XCTAssertNil(h.events()[(deselect.index + 1)...].first { $0["event"] as? String == "deselect" })

        // Zoom back in: the place stands alone again and is still selected.
        for _ in 0..<3 {
            let mark = h.events().count
            try h.key("plus")
            try h.waitForEvent("camera", after: mark)  // each zoom step comes to rest
        }
        let back = try h.waitForEvent("scene", after: last.index + 1) { e in
            !self.bubbles(e).contains { $0["marked"] as? Bool == true }
        }
        let sel = pins(back.event).filter { $0["selected"] as? Bool == true }
        XCTAssertEqual(sel.first?["name"] as? String, "Rooftop Loft")
    }

    /// A new click on the selected place closes its card (issue 32 item 7); a double-click on a
    /// place leaves it selected.
    func testClickingTheSelectedPlaceAgainDeselectsIt() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "lisbon", "--center", "38.7125,-9.138", "--zoom", "15"])
        let scene = try h.waitForEvent("scene") { !(($0["pins"] as? [Any]) ?? []).isEmpty }
        guard let loft = pins(scene.event).first(where: { $0["name"] as? String == "Rooftop Loft" }) else {
            return XCTFail("no Rooftop Loft pin in \(scene.event)")
        }
        try h.click(at: loft["x"] as! Double, loft["y"] as! Double)
        let select = try h.waitForEvent("select", after: scene.index)
        // Where the selected pin is once the camera has eased to show its card.
        let shown = try h.waitForEvent("scene", after: select.index) { e in
            self.pins(e).contains { $0["selected"] as? Bool == true }
        }
        h.waitPastDoubleClickTime()  // the next click is a new one
        let latest = h.events().last { $0["event"] as? String == "scene" } ?? shown.event
        guard let pin = pins(latest).first(where: { $0["selected"] as? Bool == true }) else {
            return XCTFail("no selected pin in \(latest)")
        }
        try h.click(at: pin["x"] as! Double, pin["y"] as! Double)
        let deselect = try h.waitForEvent("deselect", after: shown.index)
        XCTAssertNil(h.events()[(deselect.index + 1)...].first { $0["event"] as? String == "select" },
                     "the click deselects, it does not select again")
    }

    func testSameSpotFanAndList() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // 6 places on one spot (a fan) and 200 on another (a list).
        var features: [String] = []
        for i in 0..<200 { features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[2.3522,48.8566]},"properties":{"name":"Stall \#(i)"}}"#) }
        for i in 0..<6 { features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[2.2945,48.8584]},"properties":{"name":"Tower \#(i)"}}"#) }
        let path = h.workDir + "/samespot.geojson"
        try #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        try h.launch([path])
        let scene = try h.waitForEvent("scene") { ($0["bubbles"] as? [Any])?.count == 2 }
        let b = bubbles(scene.event)
        let six = b.first { $0["count"] as? Int == 6 }!, many = b.first { $0["count"] as? Int == 200 }!
        try h.click(at: six["x"] as! Double, six["y"] as! Double)
        let fan = try h.waitForEvent("fan-open", after: scene.index)
        XCTAssertEqual(fan.event["count"] as? Int, 6)
        let fanned = try h.waitForEvent("scene", after: fan.index) { self.pins($0).count == 6 }
        // Each fanned place is selectable.
        let tower = pins(fanned.event)[2]
        try h.click(at: tower["x"] as! Double, tower["y"] as! Double)
        let sel = try h.waitForEvent("select", after: fanned.index)
        XCTAssertTrue((sel.event["name"] as? String ?? "").hasPrefix("Tower"))
        try h.key("Escape")
        try h.waitForEvent("fan-close", after: sel.index)
        try h.click(at: many["x"] as! Double, many["y"] as! Double)
        let list = try h.waitForEvent("fan-open", after: sel.index) { $0["count"] as? Int == 200 }
        XCTAssertEqual(list.event["list"] as? Bool, true)
    }
}

import XCTest
import Foundation

/// The filter panel in the real window (issue 29 items 1, 7, 8): a category unticked and a range
/// dragged with xdotool, read back from the `filter` events; the passing counts are computed
/// here from the fixture's own rows. Then the filter is remembered for the file and comes back
/// when it is opened again.
final class FilterWindowTests: XCTestCase {
    struct Row { var lat, lon, mag: Double; var kind: String }

    /// A fixture made at test time: 600 places in four kinds, magnitudes 0.0–9.9.
    static func fixture() -> [Row] {
        var s: UInt64 = 0x2545F4914F6CDD1D
        func next() -> Double {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return Double(s % 1_000_000) / 1_000_000
        }
        let kinds = ["fire", "flood", "quake", "storm"]
        return (0..<600).map { i in
            Row(lat: -50 + next() * 100, lon: -160 + next() * 320, mag: (next() * 99).rounded() / 10,
                kind: kinds[i % 7 == 0 ? 3 : Int(next() * 3)])
        }
    }

    static func field(_ e: [String: Any], _ name: String) -> Int { (e[name] as? NSNumber)?.intValue ?? -1 }

    /// `fixture()` written as `events.csv` in the harness's folder: the rows and the file's path.
    static func writeFixture(in h: AppHarness) throws -> ([Row], String) {
        let rows = fixture()
        let path = h.workDir + "/events.csv"
        let csv = "lat,lon,mag,kind\n" + rows.map { "\($0.lat),\($0.lon),\($0.mag),\($0.kind)" }.joined(separator: "\n") + "\n"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        return (rows, path)
    }

    func testUntickingACategoryAndDraggingARangeFilterTheMap() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let (rows, path) = try Self.writeFixture(in: h)

        try h.launch([path, "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let loaded = try h.waitForEvent("load-done", timeout: 60)
        XCTAssertEqual(Self.field(loaded.event, "points"), rows.count)
        let toggle = try h.waitForEvent("widget", timeout: 15) { $0["name"] as? String == "filter-toggle" }
        try h.click(at: toggle.event["x"] as! Double, toggle.event["y"] as! Double)
        let built = try h.waitForEvent("filter-rows", timeout: 20)
        XCTAssertEqual(built.event["rows"] as? [String], ["mag:number", "kind:category"])

        // Untick "storm" (the rarest kind: its box is the last of the four).
        let storm = try h.waitForEvent("widget", after: built.index, timeout: 15) { $0["name"] as? String == "filter-check:kind=storm" }
        try h.click(at: storm.event["x"] as! Double, storm.event["y"] as! Double)
        let unticked = try h.waitForEvent("filter", after: storm.index, timeout: 20)
        // The checklist lists the kinds most common first; the condition keeps that order.
        var counts: [String: Int] = [:]
        for r in rows where r.kind != "storm" { counts[r.kind, default: 0] += 1 }
        let kept = counts.sorted { $0.value > $1.value }.map { "'\($0.key)'" }.joined(separator: ", ")
        XCTAssertEqual(unticked.event["expression"] as? String, "kind in (\(kept))")
        XCTAssertEqual(Self.field(unticked.event, "passing"), rows.filter { $0.kind != "storm" }.count)
        XCTAssertEqual(Self.field(unticked.event, "places"), rows.count)
        let count = try h.waitForEvent("filter-count", after: storm.index, timeout: 10)
        XCTAssertEqual(count.event["text"] as? String, "\(rows.filter { $0.kind != "storm" }.count) of 600 places")

        // Drag the magnitude's "from" slider to the middle of its track.
        let from = try h.waitForEvent("widget-bounds", after: built.index, timeout: 15) { $0["name"] as? String == "filter-range:mag:from" }
        let x = from.event["x"] as! Double, y = from.event["y"] as! Double + (from.event["height"] as! Double) / 2
        let width = from.event["width"] as! Double
        try h.drag(from: (x + 9, y), to: (x + width * 0.55, y), steps: 15)
        let dragged = try h.waitForEvent("filter", after: unticked.index, timeout: 20) {
            ($0["expression"] as? String)?.contains("mag >= ") == true
        }
        // Let go, the drag settles: `filter-settled` comes once the last value asked is shown.
        let settled = try h.waitForEvent("filter-settled", after: dragged.index, timeout: 20)
        let lastFilter = try XCTUnwrap(h.events()[...settled.index].lastIndex { $0["event"] as? String == "filter" })
        let last = h.events()[lastFilter]
        XCTAssertEqual(settled.event["expression"] as? String, last["expression"] as? String, "the settled value is the last one shown")
        XCTAssertEqual(Self.field(settled.event, "passing"), Self.field(last, "passing"))
        let expression = try XCTUnwrap(last["expression"] as? String)
        XCTAssertTrue(expression.hasPrefix("(kind in (\(kept))) and (mag >= "), expression)
        let lower = try XCTUnwrap(Double(expression.components(separatedBy: "mag >= ")[1].dropLast()))
        XCTAssertGreaterThan(lower, 3, "dragged about half way along 0–9.9")
        XCTAssertLessThan(lower, 7)
        let expected = rows.filter { $0.kind != "storm" && $0.mag >= lower }.count
        XCTAssertEqual(Self.field(last, "passing"), expected, expression)
        // The map shows exactly that many places: the bubbles and pins of the scene drawn after
        // the last filter (the file opens fitted, so all of them are in view) add up to it.
        let scene = try h.waitForEvent("scene", after: lastFilter, timeout: 15)
        let bubbles = (scene.event["bubbles"] as? [[String: Any]]) ?? []
        let pins = (scene.event["pins"] as? [[String: Any]]) ?? []
        XCTAssertEqual(bubbles.reduce(0) { $0 + Self.field($1, "count") } + pins.count, expected)

        // Keyboard: Escape in the panel closes it, F8 opens it again with a control focused.
        try h.key("Escape")
        let closed = try h.waitForEvent("filter-panel", after: lastFilter, timeout: 10)
        XCTAssertEqual(closed.event["shown"] as? Bool, false)
        try h.key("F8")
        let reopened = try h.waitForEvent("filter-panel", after: closed.index + 1, timeout: 10)
        XCTAssertEqual(reopened.event["shown"] as? Bool, true)

        // The kind's chip over the map: its close button takes that condition away.
        // Where chip 0 stands with the panel open again (its row moves when the panel opens or
        // closes and is reported again then; an earlier report can be of the other layout).
        let chip = try h.waitForEvent("widget", after: reopened.index, timeout: 10) { $0["name"] as? String == "filter-chip-0" }
        try h.click(at: chip.event["x"] as! Double, chip.event["y"] as! Double)
        let unchipped = try h.waitForEvent("filter", after: chip.index, timeout: 20)
        let magOnly = try XCTUnwrap(unchipped.event["expression"] as? String)
        XCTAssertEqual(magOnly, "mag >= \(expression.components(separatedBy: "mag >= ")[1].dropLast())")
        let expectedMagOnly = rows.filter { $0.mag >= lower }.count
        XCTAssertEqual(Self.field(unchipped.event, "passing"), expectedMagOnly)

        // Quit and open the file again: the filter comes back.
        let before = h.events().count
        try h.key("ctrl+q")
        _ = try h.waitForEvent("state-saved", after: before - 1, timeout: 10)
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        // The state file was written before `state-saved` was logged: no pause needed.
        let state = try String(contentsOfFile: h.workDir + "/config/clustermap/state", encoding: .utf8)
        XCTAssertTrue(state.contains("filter={"), state)
        try h.launch([path, "--size", "1400x900", "--reduce-motion"], timeout: 60)
        _ = try h.waitForEvent("filter-restored", timeout: 60)
        let restored = try h.waitForEvent("filter", timeout: 30)
        XCTAssertEqual(restored.event["expression"] as? String, magOnly)
        XCTAssertEqual(Self.field(restored.event, "passing"), expectedMagOnly)
        let chips = try h.waitForEvent("filter-count", timeout: 10)
        XCTAssertEqual(chips.event["text"] as? String, "\(expectedMagOnly) of 600 places")
    }

    /// Reads the filter panel's names and roles from the accessibility tree (pyatspi, which
    /// Orca uses). (GTK 4.8 gives check boxes no AT-SPI action; people press Space on them.)
    static let probe = """
    import json, sys, time, pyatspi
    def walk(node, out, depth=0):
        if node is None or depth > 40: return
        try:
            out.append(node)
            for c in node: walk(c, out, depth + 1)
        except Exception: pass
    deadline = time.time() + 15
    while True:
        try:
            desk = pyatspi.Registry.getDesktop(0)
            app = next((a for a in desk if a is not None and (a.name or '').lower() == 'clustermap'), None)
            nodes = []
            walk(app, nodes)
            named = [(n.getRoleName(), n.name or '') for n in nodes]
            storm = next((n for n in nodes if (n.name or '').startswith('storm, ') and n.getRoleName() == 'check box'), None)
            if storm is not None:
                print(json.dumps([list(x) for x in named if x[1]])); sys.exit(0)
        except Exception as e:
            err = e
            print("probe: " + repr(e), file=sys.stderr)
        if time.time() > deadline:
            print("no 'storm' check box in the accessibility tree: " + repr([x for x in named if x[1]][:80]), file=sys.stderr); sys.exit(2)
        time.sleep(0.3)
    """

    func testThePanelIsNamedForScreenReadersAndWorksByKeyboard() throws {
        try AppHarness.requireTools()
        try AccessibilityBus.requireTools()
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let h = try AppHarness()
        defer { h.stop() }
        let (rows, path) = try Self.writeFixture(in: h)
        try h.launch([path, "--size", "1400x900"], accessibilityBus: bus, timeout: 60)
        _ = try h.waitForEvent("load-done", timeout: 60)
        try h.key("F8")
        let built = try h.waitForEvent("filter-rows", timeout: 20)
        let json = try bus.python(Self.probe, display: h.display, timeout: 40)
        let named = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
        func has(_ role: String, _ name: String) -> Bool { named.contains { $0 == [role, name] } }
        let storms = rows.filter { $0.kind == "storm" }.count
        XCTAssertTrue(has("check box", "storm, \(storms) places"), "\(named.prefix(60))")
        XCTAssertTrue(has("slider", "mag from") && has("slider", "mag to"), "\(named.prefix(60))")
        XCTAssertTrue(named.contains { $0[1] == "Type of mag" }, "the type drop-down is named")
        XCTAssertTrue(named.contains { $0[1] == "Filters" }, "the panel and its toggle are named")
        XCTAssertTrue(named.contains { $0[1].hasPrefix("mag, number, 600 places, from ") }, "the row says what it holds: \(named.prefix(12))")
        // Keyboard only: the panel opened with its first control focused (mag's type); Tab
        // walks from/to sliders, kind's type, its All and None, then the kinds most common first,
        // each followed by its "only" button — storm is last.
        for _ in 0..<12 { try h.key("Tab"); usleep(60_000) }
        try h.key("space")
        let filtered = try h.waitForEvent("filter", after: built.index, timeout: 20)
        XCTAssertEqual(Self.field(filtered.event, "passing"), rows.count - storms)
    }
}

import XCTest
import Foundation

/// Screen readers (SPEC §5.7), through the real AT-SPI bus: the "in view" list's rows and the map
/// carry accessible names with exact counts; activating a row flies; the selected place's
/// callout text is the map's accessible description.
final class AccessibilityTests: XCTestCase {
    /// Reads the map and the list rows from the accessibility tree as JSON (pyatspi, which
    /// dogtail and Orca use). Waits for the list to have rows.
    static let probe = probePrelude + """
    def box(n):
        e = n.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return {"x": e.x, "y": e.y, "w": e.width, "h": e.height}
    deadline = time.time() + 12
    while True:
        try:
            a = app()
            lst = a and find(a, lambda n: n.getRoleName() == 'list' and n.name == 'Places in view')
            items = [c for c in lst if c is not None and c.getRoleName() == 'list item'] if lst else []
            if items and all(i.name for i in items):
                mp = find(a, lambda n: (n.name or '').startswith('Map'))
                out = {"map": {"role": mp.getRoleName(), "name": mp.name, "description": mp.description} if mp else None,
                       "rows": [dict(name=i.name, description=i.description, **box(i)) for i in items]}
                print(json.dumps(out)); sys.exit(0)
        except Exception as e:
            err = e
        if time.time() > deadline:
            print("no list rows in the accessibility tree", file=sys.stderr); sys.exit(2)
        time.sleep(0.3)  # how often the tree is read again (a condition wait, not a guess)
    """

    struct Tree: Decodable {
        struct Node: Decodable { let role: String; let name: String; let description: String }
        struct Row: Decodable { let name: String; let description: String; let x, y, w, h: Double }
        let map: Node?
        let rows: [Row]
    }

    private func readTree(_ bus: AccessibilityBus, _ h: AppHarness) throws -> Tree { try Self.readTree(bus, h) }

    /// Clicks a row found in the tree (window coordinates + the window's surface origin) and
    /// presses Enter on it.
    private func activate(_ row: Tree.Row, origin: (Double, Double), in h: AppHarness) throws {
        // X delivers the click before the key: the row has the focus when Return comes.
        try h.click(at: origin.0 + row.x + row.w / 2, origin.1 + row.y + row.h / 2)
        try h.key("Return")
    }

    func testListRowsAreNamedWithExactCountsAndActivateLikeTheMap() throws {
        let (h, bus) = try Self.harnessOnBus()
        defer { h.stop(); bus.stop() }
        // F9 shows the list; the list event names the rows with their exact counts.
        let madrid = try Self.launchMadridWithList(h, bus: bus)
        let origin = madrid.origin, list = madrid.list
        let logged = list.event["rows"] as? [[String: Any]] ?? []
        XCTAssertEqual(logged.first?["kind"] as? String, "bubble", "\(logged)")
        XCTAssertEqual(logged.first?["count"] as? Int, 9, "\(logged)")

        // The accessibility tree: the map is an image named "Map…", the bubble row says "9 places".
        let tree = try readTree(bus, h)
        XCTAssertEqual(tree.map?.role, "image", "\(String(describing: tree.map))")
        let bubble = try XCTUnwrap(tree.rows.first { $0.name.hasPrefix("9 places") }, "rows: \(tree.rows.map(\.name))")
        XCTAssertTrue(bubble.name.contains("museum"), "top category in \(bubble.name)")

        // Activating the bubble row flies into it, like clicking the bubble: flight and camera events.
        try activate(bubble, origin: origin, in: h)
        let flight = try h.waitForEvent("flight-start", after: list.index)
        let camera = try h.waitForEvent("camera", after: flight.index, timeout: 10)
        let after = try h.waitForEvent("list", after: camera.index)
        let rows = after.event["rows"] as? [[String: Any]] ?? []
        XCTAssertTrue(rows.contains { $0["kind"] as? String == "place" }, "places in view after flying in: \(rows)")

        // A place row: activating it selects the place; the callout text becomes the map's
        // accessible description and the row's.
        let zoomed = try readTree(bus, h)
        let placeName = try XCTUnwrap(rows.first { $0["kind"] as? String == "place" }?["name"] as? String)
        let placeRow = try XCTUnwrap(zoomed.rows.first { $0.name.hasPrefix(placeName) }, "rows: \(zoomed.rows.map(\.name))")
        try activate(placeRow, origin: origin, in: h)
        let select = try h.waitForEvent("select", after: after.index)
        XCTAssertEqual(select.event["name"] as? String, placeName.components(separatedBy: ", ")[0])
        var described: Tree?
        try AppHarness.poll(timeout: 10) {
            described = try readTree(bus, h)
            return described?.map?.description.contains(placeName) == true
        }
        XCTAssertTrue(described?.map?.description.hasPrefix("Selected: \(placeName.components(separatedBy: ", ")[0])") == true,
                      "map description: \(String(describing: described?.map?.description))")
    }
}

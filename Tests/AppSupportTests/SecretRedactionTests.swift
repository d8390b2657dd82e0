import XCTest
@testable import AppSupport

/// Keys stay secret (issue 34): URLs in events and log lines show `key=***`; event strings are
/// bounded.
final class SecretRedactionTests: XCTestCase {
    func testKeysInURLsAreHidden() throws {
        let key = "Ab12Cd34Ef56Gh78"
        let template = try XCTUnwrap(MapTilerSource.template(key: key))
        XCTAssertEqual(SecretRedaction.redacted(template), "https://api.maptiler.com/maps/streets-v2/256/{z}/{x}/{y}{r}.png?key=***")
        let cases: [(String, String)] = [
            ("https://h/t/{z}/{x}/{y}.png?api_key=s3cret&lang=en", "https://h/t/{z}/{x}/{y}.png?api_key=***&lang=en"),
            ("https://h/a.json?lang=en&ACCESS_TOKEN=pk.eyJ1#top", "https://h/a.json?lang=en&ACCESS_TOKEN=***#top"),
            ("couldn't get https://me:pw@feeds.example.org/q.geojson (HTTP 500)",
             "couldn't get https://me:***@feeds.example.org/q.geojson (HTTP 500)"),
            ("\"https://h/x?token=abc\" failed", "\"https://h/x?token=***\" failed"),
            ("https://h/x?monkey=banana&keyboard=1", "https://h/x?monkey=banana&keyboard=1"),
            ("mail me@example.org, a=b", "mail me@example.org, a=b"),
            ("no secrets here", "no secrets here"),
            ("https://h/x?key=", "https://h/x?key=***"),
        ]
        for (input, expected) in cases { XCTAssertEqual(SecretRedaction.redacted(input), expected, input) }
    }

    func testEventsShowNoKeyAndNoHugeString() throws {
        let path = NSTemporaryDirectory() + "eventlog-secret-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = "Zz98Yy76Xx54Ww32"
        let template = try XCTUnwrap(MapTilerSource.template(key: key))
        let log = EventLog(path: path)
        // What the window writes when a MapTiler map is chosen and its tiles come in.
        log.emit("basemap", [("level", .string("tiles")), ("source", .string(template))])
        log.emit("tiles", [("source", .string(template)), ("requested", .int(16))])
        log.emit("select", [("title", .string(String(repeating: "é", count: 1_000_000))),
                            ("lines", .array([.string(String(repeating: "x", count: 100_000))]))])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(text.contains(key), "the key is in the event log")
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[0].contains("?key=***"))
        XCTAssertTrue(lines[1].contains("?key=***"))
        XCTAssertLessThan(lines[2].utf8.count, 3 * EventLog.maxFieldLength + 100, "a 1 MB value made a 1 MB line")
        let select = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any])
        XCTAssertEqual((select["title"] as? String)?.unicodeScalars.count, EventLog.maxFieldLength + 1, "cut, with …")
        XCTAssertTrue((select["title"] as? String)?.hasSuffix("…") ?? false)
    }
}

import XCTest
@testable import AppSupport

final class EventLogTests: XCTestCase {
    func testEncodesOneObjectPerLine() throws {
        let path = NSTemporaryDirectory() + "eventlog-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let log = EventLog(path: path)
        log.emit("ready", [("ms", .int(412))])
        log.emit("scene", [("bubbles", .array([.object([("id", .int(3)), ("x", .number(1.5))])])),
                           ("pins", .array([.object([("name", .string("Caf\u{e9} \"Q\"\n"))])]))])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        for l in lines {
            let obj = try JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any]
            XCTAssertNotNil(obj)
        }
        XCTAssertEqual(String(lines[0]), #"{"event":"ready","ms":412}"#)
        let scene = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as! [String: Any]
        let pins = scene["pins"] as! [[String: Any]]
        XCTAssertEqual(pins[0]["name"] as? String, "Caf\u{e9} \"Q\"\n")
    }

    func testNonFiniteNumbersBecomeNull() {
        XCTAssertEqual(JSONValue.number(.nan).encoded, "null")
        XCTAssertEqual(JSONValue.number(2.5).encoded, "2.5")
        XCTAssertEqual(JSONValue.number(3).encoded, "3")
    }

    func testProcessClockIsSane() {
        let ms = ProcessClock.millisecondsSinceStart()
        XCTAssertGreaterThan(ms, 0)
        XCTAssertLessThan(ms, 3_600_000)
    }
}

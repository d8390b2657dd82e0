import XCTest
@testable import GeoData

/// Messages about hostile files (issue 15 items 1, 4, 8): short excerpts, no raw control bytes,
/// invalid UTF-8 replaced, one bounded line; skips counted by point and by feature.
final class HostileMessageTests: XCTestCase {
    /// No control character (C0, DEL, C1) and no line break survives.
    func assertSafeLine(_ text: String, maxScalars: Int = MessageText.lineLength + 1,
                        file: StaticString = #filePath, line: UInt = #line) {
        for s in text.unicodeScalars {
            let v = s.value
            XCTAssertFalse(v < 0x20 || (0x7F...0x9F).contains(v), "raw control U+\(String(v, radix: 16)) in \(text.debugDescription)",
                           file: file, line: line)
        }
        XCTAssertLessThanOrEqual(text.unicodeScalars.count, maxScalars, "too long: \(text.unicodeScalars.count)", file: file, line: line)
    }

    func testExcerptEscapesControlsAndCutsLongText() {
        XCTAssertEqual(MessageText.excerpt("a\u{1b}]0;owned\u{07}\u{1b}[2Jb\u{0}"), "a\\x1b]0;owned\\x07\\x1b[2Jb\\x00")
        XCTAssertEqual(MessageText.excerpt("tab\tnew\nline"), "tab new line")
        XCTAssertEqual(MessageText.excerpt("\u{9b}31m \u{202e}evil"), "\\u009b31m \\u202eevil")
        let long = String(repeating: "x", count: 20_000)
        XCTAssertEqual(MessageText.excerpt(long), String(repeating: "x", count: 60) + "…")
        XCTAssertEqual(MessageText.excerpt(bytes: [0x61, 0xFF, 0xFE, 0x62]), "a\u{FFFD}\u{FFFD}b")
        // One character with a million combining marks is long too (scalars are counted).
        let zalgo = "e" + String(repeating: "\u{301}", count: 1_000_000)
        XCTAssertEqual(MessageText.excerpt(zalgo).unicodeScalars.count, 61)
    }

    func testLineIsBoundedAndLinesAreEachSafe() {
        let huge = String(repeating: "word ", count: 220_000)   // 1.1 MB with spaces
        XCTAssertEqual(MessageText.line(huge).unicodeScalars.count, MessageText.lineLength + 1)
        let two = MessageText.lines("a.csv: bad\u{1b}[2J\nb.csv: also bad")
        XCTAssertEqual(two, "a.csv: bad\\x1b[2J\nb.csv: also bad")
    }

    func testHugeTypeValueIsQuotedShort() throws {
        let word = String(repeating: "T", count: 20_000)
        let e = try XCTUnwrap(loadError("{\"type\":\"\(word)\",\"features\":[]}", name: "long.geojson"))
        XCTAssertTrue(e.description.contains("\"" + String(repeating: "T", count: 60) + "…\""), e.description)
        assertSafeLine(e.description, maxScalars: 200)
    }

    func testHugeCSVHeaderFieldIsQuotedShort() throws {
        let field = String(repeating: "h", count: 20_000)
        let e = try XCTUnwrap(loadError("\(field),other\n1,2\n", name: "long.csv"))
        assertSafeLine(e.description, maxScalars: 200)
        XCTAssertTrue(e.description.contains("…"), e.description)
        let many = (0..<5_000).map { "c\($0)" }.joined(separator: ",")
        let e2 = try XCTUnwrap(loadError(many + "\n", name: "wide.csv"))
        assertSafeLine(e2.description)
        XCTAssertTrue(e2.description.contains("4,988 more"), e2.description)
    }

    func testControlBytesInAHeaderAreEscaped() throws {
        let header = "name\u{1b}]0;pwned\u{07}\u{1b}[2J,\u{0}other\n"
        let e = try XCTUnwrap(loadError(header + "a,b\n", name: "evil\u{1b}[31m.csv"))
        assertSafeLine(e.description)
        XCTAssertTrue(e.description.contains("\\x1b]0;pwned\\x07\\x1b[2J"), e.description)
        XCTAssertTrue(e.description.hasPrefix("evil\\x1b[31m.csv:"), e.description)
    }

    func testMultiPointSkipsCountPointsAndFeatures() throws {
        let bad = #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[500,1],[600,1],[700,1],[1,1]]},"properties":{}}"#
        let bad2 = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[900,1]},"properties":{}}"#
        let set = try load(collection(bad, bad2))
        XCTAssertEqual(set.count, 1)
        let s = try XCTUnwrap(set.report.skips[.outOfRange])
        XCTAssertEqual(s.count, 2, "features")
        XCTAssertEqual(s.points, 4, "points")
        XCTAssertEqual(s.firstPositions, [0, 1])
        XCTAssertEqual(set.report.messages, ["4 points in 2 features skipped: coordinates out of range (features 1, 2)"])
    }

    func testLoneSurrogateEscapesAreReplacedInCopiedJSON() throws {
        let f = #"{"type":"Feature","id":"\ud800x","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":"\ud800","b":"\ud83d\ude00","c":"\\ud800","d":"\udc00\u0041"}}"#
        let set = try load(collection(f))
        let props = set.propertiesJSON(at: 0)
        XCTAssertEqual(props, #"{"a":"\ufffd","b":"\ud83d\ude00","c":"\\ud800","d":"\ufffd\u0041"}"#)
        XCTAssertEqual(set.idJSON(at: 0), #""\ufffdx""#)
        // What a strict reader says: the output decodes.
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(props.utf8)))
    }
}

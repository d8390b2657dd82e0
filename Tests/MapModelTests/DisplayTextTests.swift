import XCTest
@testable import MapModel

/// Text from data can't break the map (issue 34): bounded, and direction overrides shown.
final class DisplayTextTests: XCTestCase {
    func testOrdinaryNamesAreUntouched() {
        for name in ["Lisbon", "São Paulo", "القاهرة", "תל אביב–יפו", "東京都", "Zürich \u{200F}(CH)", String(repeating: "あ", count: 64)] {
            XCTAssertEqual(DisplayText.line(name), name)
        }
    }

    func testLongTextIsCut() {
        let huge = String(repeating: "Quake ", count: 200_000)
        let shown = DisplayText.line(huge)
        XCTAssertEqual(shown.unicodeScalars.count, DisplayText.nameLength, "63 characters and …")
        XCTAssertTrue(shown.hasPrefix("Quake Quake") && shown.hasSuffix("Qua…"), shown)
        let marks = "e" + String(repeating: "\u{301}", count: 100_000)
        XCTAssertEqual(DisplayText.line(marks).unicodeScalars.count, DisplayText.nameLength, "combining marks count")
        XCTAssertEqual(DisplayText.line(huge, limit: 10), "Quake Qua…")
        XCTAssertEqual(DisplayText.line("Quake Quake", limit: 7), "Quake…", "no space before …")
        XCTAssertEqual(DisplayText.line("abc\u{202E}def", limit: 7), "abc…", "an escape is not split")
    }

    func testDirectionOverridesAreShownNotObeyed() {
        XCTAssertEqual(DisplayText.line("Quake\u{202E}gpj.exe"), "Quake\\u202egpj.exe")
        XCTAssertEqual(DisplayText.line("a\u{2066}b\u{2069}c\u{202B}d"), "a\\u2066b\\u2069c\\u202bd")
        XCTAssertEqual(DisplayText.line("two\nlines\r\n\tand\u{0}nul"), "two lines and nul")
        XCTAssertEqual(DisplayText.line("para\u{2029}graph"), "para graph")
        for s in ["x\u{202E}", "\u{85}", "\u{7F}", "\u{2028}"] { XCTAssertFalse(DisplayText.isSafe(s, limit: 64), s) }
    }
}

import XCTest
import Foundation
import ClusterCore

/// The one JSON string quoter (the event log, cluster-tile cards, `clusters` output): whatever
/// the text, Foundation's JSON parser reads back exactly the same string.
final class JSONTextTests: XCTestCase {
    func testEveryStringRoundTripsThroughAJSONParser() throws {
        var texts = ["", "plain", "quote \" and \\ backslash", "line\nfeed\rreturn\ttab", "Málaga · 東京 · 🚒",
                     "\u{0}\u{1}\u{1f}\u{7f}", "</script>", "\u{2028}\u{2029}"]
        var random = SeededRandom(seed: 29)
        for _ in 0..<200 {
            let n = Int(random.next() % 12)
            texts.append(String(String.UnicodeScalarView((0..<n).compactMap { _ in
                Unicode.Scalar(UInt32(random.next() % 3 == 0 ? random.next() % 0x20 : 0x20 + random.next() % 0x2000))
            })))
        }
        for text in texts {
            let quoted = JSONText.quoted(text)
            let back = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
            XCTAssertEqual(back, [text], quoted)
        }
        XCTAssertEqual(JSONText.quoted("a\u{1}b\"c"), "\"a\\u0001b\\\"c\"")
    }
}

import XCTest
@testable import GeoData

/// Broken GeoJSON: each error names the file, line, column, byte offset and feature.
final class GeoJSONErrorTests: XCTestCase {
    /// Three features on lines 2–4, so errors in feature k are on line k + 2.
    let lines = [
        #"{"type":"FeatureCollection","features":["#,
        #"{"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Point","coordinates":[1,2]}},"#,
        #"{"type":"Feature","properties":{"name":"b"},"geometry":{"type":"Point","coordinates":[3,4]}},"#,
        #"{"type":"Feature","properties":{"name":"c"},"geometry":{"type":"Point","coordinates":[5,6]}}"#,
        #"]}"#,
    ]

    func broken(_ edit: (inout [String]) -> Void) -> String {
        var l = lines
        edit(&l)
        return l.joined(separator: "\n")
    }

    func testTheUnbrokenFileLoads() throws {
        XCTAssertEqual(try load(broken { _ in }).count, 3)
    }

    func testMissingCommaBetweenProperties() throws {
        let text = broken { $0[2] = $0[2].replacingOccurrences(of: #""name":"b""#, with: #""name":"b" "x":1"#) }
        let e = try XCTUnwrap(loadError(text, name: "cities.geojson"))
        XCTAssertEqual(e.kind, .syntax)
        XCTAssertEqual(e.line, 3)
        XCTAssertEqual(e.featureIndex, 1)
        XCTAssertEqual(e.column, 44)
        XCTAssertEqual(e.description, "cities.geojson: line 3, column 44 (byte 178), feature 2: expected ',' or '}' after a property, found '\"'")
    }

    func testTruncatedFileKeepsTheWholeFeatures() throws {
        let full = broken { _ in }
        let cut = String(full.prefix(full.count - 60))   // inside feature 2's geometry (the third)
        let set = try load(cut)
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set.report.warnings,
                       ["the file ends in the middle of feature 3 (byte \(cut.utf8.count), truncated?): the 2 features before it are read"])
    }

    func testTruncatedInsideAString() throws {
        let full = broken { _ in }
        let cut = String(full[..<full.range(of: #""name":"c"#)!.upperBound])
        XCTAssertEqual(try load(cut).count, 2)
        // Cut inside the first feature: nothing whole to keep, the error it always was.
        let first = String(full[..<full.range(of: #""name":"a"#)!.upperBound])
        let e = try XCTUnwrap(loadError(first))
        XCTAssertEqual(e.featureIndex, 0)
        XCTAssertEqual(e.message, "unterminated string, the file ends here (truncated?)")
    }

    func testMissingClosingBracketAtTheEnd() throws {
        let e = try XCTUnwrap(loadError(broken { $0[4] = "}" }))
        XCTAssertEqual(e.line, 5)
        XCTAssertEqual(e.column, 1)
        XCTAssertNil(e.featureIndex)   // the error is after the last feature
        XCTAssertEqual(e.message, "expected ',' or ']' after a feature, found '}'")
    }

    func testBadNumbers() throws {
        for bad in ["01", "1.", "-", "1e", ".5", "+1", "1.2.3", "0x10", "NaN", "Infinity"] {
            let text = broken { $0[1] = $0[1].replacingOccurrences(of: "[1,2]", with: "[\(bad),2]") }
            let e = try XCTUnwrap(loadError(text), bad)
            XCTAssertEqual(e.line, 2, bad)
            XCTAssertEqual(e.featureIndex, 0, bad)
            XCTAssertEqual(e.kind, .syntax, bad)
        }
        let e = try XCTUnwrap(loadError(broken { $0[1] = $0[1].replacingOccurrences(of: "[1,2]", with: "[1.,2]") }))
        XCTAssertEqual(e.message, "invalid number")
        XCTAssertEqual(e.column, 87)   // where the number starts
    }

    func testInvalidUTF8InAString() throws {
        var bytes = Array(broken { _ in }.utf8)
        let i = bytes.firstIndex(of: UInt8(ascii: "b"))!   // the "b" of feature 1's name
        bytes[i] = 0xE9                                     // Latin-1 é
        let e = try XCTUnwrap(loadError(bytes: bytes, name: "latin1.geojson"))
        XCTAssertEqual(e.kind, .invalidUTF8)
        XCTAssertEqual(e.line, 3)
        XCTAssertEqual(e.featureIndex, 1)
        XCTAssertEqual(e.description,
                       "latin1.geojson: line 3, column 41 (byte 175), feature 2: invalid UTF-8 byte 0xE9 in a string (the file must be UTF-8)")
    }

    func testOverlongAndSurrogateUTF8AreRejected() throws {
        for seq: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE2, 0x82]] {
            let bytes = Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":""#.utf8)
                + seq + Array(#""},"geometry":null}]}"#.utf8)
            XCTAssertEqual(loadError(bytes: bytes)?.kind, .invalidUTF8, "\(seq)")
        }
    }

    func testEmptyFile() throws {
        for text in ["", "  \n\t ", "\u{FEFF}"] {
            let e = try XCTUnwrap(loadError(text, name: "empty.geojson"))
            XCTAssertEqual(e.kind, .empty)
            XCTAssertEqual(e.description, "empty.geojson: the file is empty")
        }
    }

    func testNotAFeatureCollection() throws {
        XCTAssertEqual(loadError(#"{"type":"Topology","objects":{}}"#)?.description,
                       "test.geojson: not a GeoJSON FeatureCollection or Feature (the top-level type is \"Topology\")")
        XCTAssertEqual(loadError(#"{"type":"FeatureCollection"}"#)?.message, "a FeatureCollection without a \"features\" array")
        XCTAssertEqual(loadError(#"[1,2,3]"#)?.kind, .notGeoJSON)
        XCTAssertEqual(loadError(#"{"a":1}"#)?.kind, .notGeoJSON)
        XCTAssertEqual(loadError(#"{"type":"FeatureCollection","features":{}}"#)?.kind, .notGeoJSON)
        XCTAssertEqual(loadError(#"{"type":"Point","coordinates":[1,2]}"#)?.kind, .notGeoJSON)
    }

    func testStructuralErrors() throws {
        let cases: [(String, String)] = [
            (#"{"type":"FeatureCollection","features":[1]}"#, "expected a feature object '{', found '1'"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2}}]}"#,
             "expected ',' or ']' after a coordinate, found '}'"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":"here"}]}"#,
             "expected \"geometry\" to be an object or null, found '\"'"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":[1]}]}"#,
             "expected \"properties\" to be an object or null, found '['"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":tru}}]}"#,
             "expected a JSON value, found 't'"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":"x\q"}}]}"#,
             "invalid escape '\\'q'' in a string"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":"\u12"}}]}"#,
             "invalid \\u escape in a string: expected 4 hex digits"),
            ("{\"type\":\"FeatureCollection\",\"features\":[{\"properties\":{\"a\":\"tab\there\"}}]}",
             "control character (byte 0x9) inside a string; it must be escaped"),
            (#"{"type":"FeatureCollection","features":[]} x"#, "unexpected 'x' after the end of the GeoJSON object"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature" "geometry":null}]}"#,
             "expected ',' or '}' after a member of the feature, found '\"'"),
            (#"{"type":"FeatureCollection","features":[{type:"Feature"}]}"#, "expected a member name in quotes, found 't'"),
        ]
        for (text, message) in cases {
            XCTAssertEqual(loadError(text)?.message, message, text)
        }
    }

    func testDeepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000)
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":"# + deep
        let e = try XCTUnwrap(loadError(text))
        XCTAssertEqual(e.kind, .tooLarge)
    }

    func testUnreadableFile() throws {
        XCTAssertThrowsError(try PointSetLoader.load(path: "/nonexistent/dir/places.geojson")) { error in
            let e = error as? GeoDataError
            XCTAssertEqual(e?.kind, .unreadable)
            XCTAssertEqual(e?.description, "places.geojson: cannot open the file: No such file or directory")
        }
    }
}

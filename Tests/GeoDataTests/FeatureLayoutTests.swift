import XCTest
import ClusterCore
@testable import GeoData

/// Reading features by a learnt layout (`FeatureLayout`, issue 14) gives exactly what the
/// general reader gives: points, skips, categories, numeric values, names, properties, ids and
/// the first error — on files where most features share a layout and some don't.
final class FeatureLayoutTests: XCTestCase {
    /// Features that mostly repeat one layout (as programs write them) with values of every
    /// shape, and now and then one that differs in a way the layout must notice.
    /// `plain`: no property the reader keeps (their names are not roles), so that the layout is a
    /// `PlainLayout` and the values it skips take every shape.
    static func repetitiveCollection(features n: Int, seed: UInt64, pretty: Bool, plain: Bool = false) -> String {
        var rng = SeededRandom(seed: seed)
        func pick(_ k: Int) -> Int { Int(rng.next() % UInt64(k)) }
        let numbers = ["0", "-0", "12.5", "-179.9999999", "1e2", "-1.5E-3", "123456789.123456789", "0.000001",
                       "179.99999999999999999", "3.14159265358979323846", "90", "-90.0"]
        let colon = pretty ? ": " : ":", comma = pretty ? ", " : ","
        var parts: [String] = []
        for i in 0..<n {
            var lon = numbers[pick(numbers.count)], lat = String(format: "%.7f", Double(pick(17000)) / 100 - 85)
            var coordinates = "[\(lon)\(comma)\(lat)]"
            var name = #""Place \#(i)""#
            var mag = "\(pick(90)).\(pick(10))"
            var id = "\(i)"
            var extra = ""
            var geometryType = "Point"
            switch pick(40) {
            case 0: coordinates = "[\(lon)\(comma)\(lat)\(comma)\(pick(3000))]"          // altitude
            case 1: coordinates = "[\(lon)]"                                                // too few
            case 2: coordinates = "[\"\(lon)\"\(comma)\(lat)]"                              // a string
            case 3: coordinates = "[null\(comma)\(lat)]"
            case 4: lon = "400"; coordinates = "[\(lon)\(comma)\(lat)]"                    // out of range
            case 5: name = #""Caf\u00e9 \"\#(i)\"""#                                        // escapes
            case 6: name = "null"
            case 7: name = "\(i)"
            case 8: name = #"{"nested":[1,{"a":"},{"}]}"#
            case 9: mag = #""7.5""#                                                         // numeric as text
            case 10: mag = "true"
            case 11: id = #""f\#(i)""#
            case 12: id = "[1,2]"
            case 13: extra = "\(comma)\"bbox\"\(colon)[0,0,1,1]"                           // another member
            case 14: geometryType = "MultiPoint"; coordinates = "[[\(lon)\(comma)\(lat)]]"
            case 15: name = "\"Sant\u{2019}Angelo\""                                          // UTF-8
            case 16: mag = "01"                                                             // not a JSON number: an error
            default: break
            }
            let (nameKey, magKey, categoryKey) = plain ? ("note", "size", "kind") : ("name", "mag", "category")
            if plain && pick(3) == 0 { mag = "\(pick(10_000_000))" }   // plain integers of 1 to 7 digits
            var properties = "{\"\(nameKey)\"\(colon)\(name)\(comma)\"\(magKey)\"\(colon)\(mag)\(comma)\"\(categoryKey)\"\(colon)\"c\(pick(4))\"}"
            if pick(60) == 0 { properties = "null" }
            if pick(60) == 0 { properties = "{\"\(magKey)\"\(colon)\(mag)\(comma)\"\(nameKey)\"\(colon)\(name)}" }   // another order
            var geometry = "{\"type\"\(colon)\"\(geometryType)\"\(comma)\"coordinates\"\(colon)\(coordinates)}"
            if pick(60) == 0 { geometry = "null" }
            if pick(60) == 0 { geometry = "{\"coordinates\"\(colon)\(coordinates)\(comma)\"type\"\(colon)\"Point\"}" }
            let space = pick(50) == 0 ? "  " : ""   // white space that differs now and then
            parts.append("{\"type\"\(colon)\"Feature\"\(comma)\"id\"\(colon)\(id)\(comma)\(space)\"properties\"\(colon)\(properties)"
                         + "\(comma)\"geometry\"\(colon)\(geometry)\(extra)}")
        }
        return #"{"type":"FeatureCollection","features":["# + "\n" + parts.joined(separator: ",\n") + "\n]}\n"
    }

    func load(_ bytes: [UInt8], layouts: Bool, threads: Int) throws -> PointSet {
        var options = LoadOptions(numericProperty: "mag")
        options.learnsFeatureLayouts = layouts
        var split = ParallelScanTests.fine
        split.threads = threads
        return try PointSetLoader.load(buffer: FileBuffer(bytes: bytes), name: "layout.geojson", format: .geoJSON,
                                       options: options, progress: nil, isCancelled: nil, split: split)
    }

    func testTheLayoutGivesWhatTheGeneralReaderGives() throws {
        var compared = 0
        for seed: UInt64 in 1...8 {
            for pretty in [false, true] {
                var text = FeatureLayoutTests.repetitiveCollection(features: 2500, seed: seed, pretty: pretty, plain: seed > 6)
                // "mag": 01 is an error for both readers; most files here must load.
                if seed % 2 == 0 { text = text.replacingOccurrences(of: ":01,", with: ":1,").replacingOccurrences(of: ": 01,", with: ": 1,") }
                let bytes = Array(text.utf8)
                for threads in [1, 3] {
                    let general = Result { try load(bytes, layouts: false, threads: threads) }
                    let layout = Result { try load(bytes, layouts: true, threads: threads) }
                    switch (general, layout) {
                    case (.success(let a), .success(let b)):
                        XCTAssertGreaterThan(a.count, 2000)
                        XCTAssertGreaterThan(a.report.totalSkipped, 50)
                        assertSameAnswers(a, b, "seed \(seed), pretty \(pretty), \(threads) threads")
                        compared += 1
                    case (.failure(let a), .failure(let b)):
                        XCTAssertEqual(a as? GeoDataError, b as? GeoDataError, "seed \(seed)")
                    default:
                        XCTFail("general: \(general), layout: \(layout)")
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 16)
    }

    func testABrokenByteStopsBothReadersAtTheSameError() throws {
        try brokenBytesStopBothReadersAtTheSameError(plain: false)
        try brokenBytesStopBothReadersAtTheSameError(plain: true)
    }

    func brokenBytesStopBothReadersAtTheSameError(plain: Bool) throws {
        var text = FeatureLayoutTests.repetitiveCollection(features: 1200, seed: 77, pretty: false, plain: plain)
        text = text.replacingOccurrences(of: ":01,", with: ":1,")
        let valid = Array(text.utf8)
        var rng = SeededRandom(seed: 5)
        var errors = 0
        for _ in 0..<300 {
            var bytes = valid
            for _ in 0..<(1 + Int(rng.next() % 2)) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = [UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "5"),
                            UInt8(ascii: " "), UInt8(ascii: "e"), 0xFF, 0xC3][Int(rng.next() % 9)]
            }
            let general = Result { try load(bytes, layouts: false, threads: 1) }
            let layout = Result { try load(bytes, layouts: true, threads: 1) }
            if assertSameOutcome(general, layout, "after a harmless change") { errors += 1 }
        }
        XCTAssertGreaterThan(errors, 100, "most changes break the file")
    }

    /// The plain path reads the separators between features itself: every wrong byte there
    /// (and white space, which is right) gives what the general reader gives, on one thread and
    /// split into chunks.
    func testSeparatorsBetweenPlainFeaturesAreCheckedLikeTheGeneralReader() throws {
        let text = FeatureLayoutTests.repetitiveCollection(features: 600, seed: 31, pretty: false, plain: true)
            .replacingOccurrences(of: ":01,", with: ":1,")
        let valid = Array(text.utf8)
        // The `,` after a feature's closing `}}`, well past the first (where layouts are learnt).
        let commas = valid.indices.filter { $0 > 2000 && valid[$0] == UInt8(ascii: ",") && valid[$0 - 1] == UInt8(ascii: "}")
            && valid[$0 - 2] == UInt8(ascii: "}") && valid[$0 + 1] == 10 }
        XCTAssertGreaterThan(commas.count, 400)
        var rng = SeededRandom(seed: 12)
        var errors = 0
        for _ in 0..<40 {
            let i = commas[Int(rng.next() % UInt64(commas.count))]
            for replacement: [UInt8] in [[59], [35], [93], [125], [123], [32, 44], [10, 44], [44, 44], [58]] {
                let bytes = Array(valid[..<i]) + replacement + Array(valid[(i + 1)...])
                for threads in [1, 3] {
                    let general = Result { try load(bytes, layouts: false, threads: threads) }
                    let layout = Result { try load(bytes, layouts: true, threads: threads) }
                    if assertSameOutcome(general, layout, "\(replacement) at \(i), \(threads) threads") { errors += 1 }
                }
            }
        }
        XCTAssertGreaterThan(errors, 300, "most of the replacements break the file")
    }

    func testALayoutIsLearntOnlyFromAPlainPointFeature() {
        func layout(_ s: String) -> FeatureLayout? {
            let bytes = Array(s.utf8) + [UInt8](repeating: 0, count: 16)
            return bytes.withUnsafeBufferPointer { b in
                FeatureLayout(b.baseAddress!, from: 0, to: s.utf8.count) { _, _ in 0 }
            }
        }
        XCTAssertNotNil(layout(#"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#)?.plain,
                        "no property kept: read by the plain pieces")
        XCTAssertNotNil(layout(#"{ "geometry": { "coordinates": [ 1.5, -2, 30 ], "type": "Point" }, "id": "x" }"#))
        XCTAssertNil(layout(#"{"type":"Feature","geometry":null}"#))
        XCTAssertNil(layout(#"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,2]]}}"#))
        XCTAssertNil(layout(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#))
        XCTAssertNil(layout(#"{"type":"Feature","geometry":{"type":"Point","coordinates":["1",2]}}"#))
        XCTAssertNil(layout(#"{"type":"Feature","geo\u006detry":{"type":"Point","coordinates":[1,2]}}"#))
        XCTAssertNil(layout(#"{"geometry":{"type":"Point","coordinates":[1,2]},"geometry":{"type":"Point","coordinates":[1,2]}}"#))
        XCTAssertNil(layout(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2],"crs":null}}"#))
    }

    func testAFileWhoseFeaturesAllDifferStillReadsTheSame() throws {
        // Every feature has another set of members: the layout keeps missing, is dropped and
        // learnt again a few times, then the general reader reads on alone.
        var parts: [String] = []
        for i in 0..<400 {
            let members = (0..<(i % 7)).map { #""k\#($0)_\#(i % 5)":\#($0)"# }.joined(separator: ",")
            parts.append(#"{"type":"Feature","properties":{\#(members)},"geometry":{"type":"Point","coordinates":[\#(i % 180),\#(i % 90)]}}"#)
        }
        let bytes = Array((#"{"type":"FeatureCollection","features":["# + parts.joined(separator: ",") + "]}").utf8)
        let a = try load(bytes, layouts: false, threads: 1)
        let b = try load(bytes, layouts: true, threads: 1)
        XCTAssertEqual(a.count, 400)
        assertSameAnswers(a, b, "features that all differ")
    }
}

import XCTest
@testable import GeoData

/// A GeoJSON file cut short (a download or copy that stopped) keeps every whole feature before
/// the cut and says where it ends (SPEC §9: the rest still loads); the one-reader path and the
/// parallel scan agree at every cut.
final class GeoJSONTruncationTests: XCTestCase {
    /// Features with differing layouts (so the plain fast path, the general reader and a
    /// relearnt layout all meet the cut), and where each one's text ends.
    static func file(features n: Int) -> (bytes: [UInt8], ends: [Int]) {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        var ends: [Int] = []
        for i in 0..<n {
            if i > 0 { text += ",\n" }
            switch i % 4 {
            case 0, 1: text += pointFeature("\(i % 170).5", "\(i % 80).25", properties: "{\"name\":\"p\(i)\",\"mag\":\(i)}")
            case 2: text += pointFeature("\(i % 170)", "\(i % 80)", properties: "{\"ok\":true,\"none\":null,\"no\":false}")
            default: text += #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,\#(i % 80)],[2,\#(i % 80)]]},"properties":{"s":"é😀\#(i)"}}"#
            }
            ends.append(text.utf8.count)
        }
        text += "\n]}\n"
        return (Array(text.utf8), ends)
    }

    static func pointsIn(firstFeatures k: Int) -> Int { (0..<k).reduce(0) { $0 + ($1 % 4 == 3 ? 2 : 1) } }

    func check(cut: Int, of f: (bytes: [UInt8], ends: [Int]), split: ParallelScan.Options, file: StaticString = #filePath,
               line: UInt = #line) throws {
        let whole = f.ends.filter { $0 <= cut }.count
        let bytes = Array(f.bytes[..<cut])
        let load = { try PointSetLoader.load(buffer: FileBuffer(bytes: bytes), name: "cut.geojson", format: .geoJSON,
                                             options: LoadOptions(), progress: nil, isCancelled: nil, split: split) }
        guard whole > 0 else {
            XCTAssertThrowsError(try load(), "cut \(cut)", file: file, line: line)
            return
        }
        let set = try load()
        XCTAssertEqual(set.count, GeoJSONTruncationTests.pointsIn(firstFeatures: whole), "cut \(cut)", file: file, line: line)
        XCTAssertEqual(set.report.itemsRead, whole, "cut \(cut)", file: file, line: line)
        let said = set.report.messages.joined(separator: "\n")
        if whole == f.ends.count {
            XCTAssertTrue(said.isEmpty || said.contains("all \(whole) features read") || said.contains("after feature \(whole) "),
                          "cut \(cut): \(said)", file: file, line: line)
        } else {
            let rest = f.bytes[f.ends[whole - 1]..<cut]
            let between = rest.allSatisfy { $0 == 10 || $0 == UInt8(ascii: ",") }
            let expected = between
                ? "the file ends after feature \(whole) (byte \(formatCount(cut)), truncated?), before the list of features is closed: \(whole) \(whole == 1 ? "feature" : "features") read"
                : "the file ends in the middle of feature \(whole + 1) (byte \(formatCount(cut)), truncated?): the \(whole) \(whole == 1 ? "feature" : "features") before it are read"
            XCTAssertEqual(set.report.warnings, [expected], "cut \(cut)", file: file, line: line)
        }
    }

    func testEveryCutKeepsTheWholeFeaturesBeforeIt() throws {
        let f = GeoJSONTruncationTests.file(features: 24)
        for cut in 1..<f.bytes.count - 1 {
            try check(cut: cut, of: f, split: ParallelScan.Options(threads: 1))
        }
    }

    func testTheParallelScanAgreesAtEveryCut() throws {
        let f = GeoJSONTruncationTests.file(features: 400)
        let split = ParallelScan.Options(threads: 4, minimumBytes: 0, chunkBytes: 1500)
        for cut in stride(from: f.ends[0] - 3, to: f.bytes.count - 1, by: 97) {
            try check(cut: cut, of: f, split: split)
            try check(cut: cut, of: f, split: ParallelScan.Options(threads: 1))
        }
    }

    /// The words a person sees, and the load report's counts.
    func testTheMessageNamesTheFeatureAndTheByte() throws {
        let full = collection(pointFeature("1", "1"), pointFeature("2", "2"), pointFeature("3", "3"), pointFeature("4", "4"))
        let cut = String(full.prefix(full.count - 30))
        let set = try load(cut, name: "trunc.geojson")
        XCTAssertEqual(set.count, 3)
        XCTAssertEqual(set.report.messages, ["the file ends in the middle of feature 4 (byte \(cut.utf8.count), truncated?): the 3 features before it are read"])
        let noClose = String(full.dropLast(2))   // `]}` lost: every feature is whole
        XCTAssertEqual(try load(noClose).count, 4)
        XCTAssertEqual(try load(noClose).report.warnings,
                       ["the file ends after feature 4 (byte \(noClose.utf8.count), truncated?), before the list of features is closed: 4 features read"])
        let noBrace = String(full.dropLast(1))
        XCTAssertEqual(try load(noBrace).report.warnings,
                       ["the file ends at byte \(noBrace.utf8.count) before its last '}' (truncated?): all 4 features read"])
        // Nothing whole before the cut: still the error it was.
        let e = try XCTUnwrap(loadError(String(full.prefix(60))))
        XCTAssertTrue(e.message.contains("truncated"), e.message)
    }
}

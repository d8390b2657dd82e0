import XCTest
import ClusterCore
@testable import GeoData

/// The parallel scan and the mapped file (issue 14): splitting a file's features over threads,
/// and reading places back from a mapped file, give exactly what one reader going front to back
/// over bytes in memory gives — points, skips, names, properties, ids, and the first error with
/// its position and feature number.
final class ParallelScanTests: XCTestCase {
    /// A FeatureCollection with every kind of feature, and text that looks like a feature
    /// boundary (`},{`) inside strings and nested values, where cuts are likely to land.
    static func mixedCollection(features n: Int, seed: UInt64) -> String {
        var rng = SeededRandom(seed: seed)
        func pick(_ k: Int) -> Int { Int(rng.next() % UInt64(k)) }
        var parts: [String] = []
        for i in 0..<n {
            let lon = String(format: "%.5f", Double(pick(36000)) / 100 - 180)
            let lat = String(format: "%.5f", Double(pick(17000)) / 100 - 85)
            let geometry: String
            switch pick(12) {
            case 0: geometry = "null"
            case 1: geometry = #"{"type":"MultiPoint","coordinates":[[\#(lon),\#(lat)],[1,2],[400,1]]}"#
            case 2: geometry = #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#
            case 3: geometry = #"{"type":"Point","coordinates":[\#(lon),95]}"#
            case 4: geometry = #"{"coordinates":[\#(lon),\#(lat)],"type":"Point"}"#
            default: geometry = #"{"type":"Point","coordinates":[\#(lon),\#(lat)]}"#
            }
            var props: [String] = []
            switch pick(4) {
            case 0: props.append(#""name":"Place \#(i) },{ \"x\":1 }""#)
            case 1: props.append(#""title":"T\u00e9 \#(i)""#)
            case 2: props.append(#""name":\#(i)"#)
            default: break
            }
            if pick(3) == 0 { props.append(#""label":"€\#(pick(99))""#) }
            if pick(4) == 0 { props.append(#""description":"a\nb }, { c""#) }
            if pick(5) == 0 { props.append(##""marker-color":"#ff88\##(pick(10))0""##) }
            if pick(2) == 0 { props.append(#""category":"c\#(pick(6))""#) }
            if pick(3) == 0 { props.append(#""mag":\#(pick(90)).5"#) }
            if pick(4) == 0 { props.append(#""nested":[{"a":1},{"b":[{"c":"},{"}]}]"#) }
            var members = [#""type":"Feature""#, #""geometry":\#(geometry)"#]
            switch pick(4) {
            case 0: members.append(#""properties":null"#)
            case 1: break
            default: members.append(#""properties":{\#(props.joined(separator: pick(2) == 0 ? "," : ",\n  "))}"#)
            }
            switch pick(4) {
            case 0: members.append(#""id":\#(i)"#)
            case 1: members.append(#""id":"f\#(i)""#)
            default: break
            }
            if pick(2) == 0 { members.reverse() }
            parts.append("{" + members.joined(separator: pick(3) == 0 ? ", " : ",") + "}")
        }
        return #"{"type":"FeatureCollection","features":["# + "\n" + parts.joined(separator: ",\n") + "\n]}\n"
    }

    static let fine = ParallelScan.Options(threads: 4, minimumBytes: 0, chunkBytes: 2048)

    func load(_ bytes: [UInt8], split: ParallelScan.Options, options: LoadOptions = LoadOptions(numericProperty: "mag")) throws -> PointSet {
        try PointSetLoader.load(buffer: FileBuffer(bytes: bytes), name: "mixed.geojson", format: .geoJSON,
                                options: options, progress: nil, isCancelled: nil, split: split)
    }

    func testASplitScanEqualsOneReader() throws {
        for seed: UInt64 in 1...3 {
            let bytes = Array(ParallelScanTests.mixedCollection(features: 3000, seed: seed).utf8)
            let one = try load(bytes, split: ParallelScan.Options(threads: 1))
            XCTAssertGreaterThan(one.count, 2000)
            XCTAssertGreaterThan(one.report.totalSkipped, 100)
            for threads in [2, 3, 8] {
                var split = ParallelScanTests.fine
                split.threads = threads
                let many = try load(bytes, split: split)
                assertSameAnswers(one, many, "seed \(seed), \(threads) threads")
            }
        }
    }

    func testASplitScanStopsAtTheSameFirstError() throws {
        let valid = Array(ParallelScanTests.mixedCollection(features: 1500, seed: 9).utf8)
        var rng = SeededRandom(seed: 42)
        var compared = 0
        for _ in 0..<300 {
            var bytes = valid
            // One or two broken bytes anywhere, mostly in the later half where other threads read.
            for _ in 0..<(1 + Int(rng.next() % 2)) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = [UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: ","), 0xFF][Int(rng.next() % 5)]
            }
            let one = Result { try load(bytes, split: ParallelScan.Options(threads: 1)) }
            let many = Result { try load(bytes, split: ParallelScanTests.fine) }
            if assertSameOutcome(one, many, "after a harmless change") { compared += 1 }
        }
        XCTAssertGreaterThan(compared, 150, "most changes break the file")
    }

    func testAMappedFileGivesWhatItsBytesGive() throws {
        let text = ParallelScanTests.mixedCollection(features: 2000, seed: 5)
        let path = NSTemporaryDirectory() + "mapped-\(getpid()).geojson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let mapped = try PointSetLoader.load(path: path, options: LoadOptions(numericProperty: "mag"), progress: nil,
                                             streamProgress: nil, isCancelled: nil, mapThreshold: 0)
        XCTAssertTrue(mapped.buffer.isMapped)
        let copied = try load(Array(text.utf8), split: ParallelScan.Options(threads: 1))
        assertSameAnswers(copied, mapped, "mapped")
        var names: [String?] = []
        mapped.forEachName { i, name in
            XCTAssertEqual(i, names.count)
            names.append(name)
        }
        XCTAssertEqual(names, (0..<copied.count).map { copied.name(at: $0) })
    }

    func testACSVFileMappedGivesWhatItsBytesGive() throws {
        var text = "id,name,lat,lon,label,description,marker-color,category,pop\n"
        for i in 0..<3000 {
            let name = i % 7 == 0 ? "\"Q \"\"\(i)\"\", x\"" : (i % 5 == 0 ? "" : "N\(i)")
            let lat = i % 97 == 0 ? "" : String(Double(i % 170) - 85)
            text += "\(i % 3 == 0 ? "\"\(i)\"" : String(i)),\(name),\(lat),\(Double(i % 360) - 180),L\(i % 4),d,#00\(i % 10)000,c\(i % 3),\(i * 7)\n"
            if i % 500 == 0 { text += "bad,row\n" }
        }
        let path = NSTemporaryDirectory() + "mapped-\(getpid()).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let options = LoadOptions(numericProperty: "pop")
        let mapped = try PointSetLoader.load(path: path, options: options, progress: nil, streamProgress: nil,
                                             isCancelled: nil, mapThreshold: 0)
        XCTAssertTrue(mapped.buffer.isMapped)
        let copied = try PointSetLoader.load(bytes: Array(text.utf8), name: "mapped.csv", options: options)
        assertSameAnswers(copied, mapped, "csv")
        XCTAssertEqual(mapped.columnNames, copied.columnNames)
    }

    func testAFileChangedOnDiskIsNotReadAgain() throws {
        let text = ParallelScanTests.mixedCollection(features: 200, seed: 2)
        let path = NSTemporaryDirectory() + "changed-\(getpid()).geojson"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { unlink(path) }
        let set = try PointSetLoader.load(path: path, options: LoadOptions(), progress: nil, streamProgress: nil,
                                          isCancelled: nil, mapThreshold: 0)
        let named = (0..<set.count).first { set.name(at: $0) != nil }
        XCTAssertNotNil(named)
        XCTAssertTrue(set.isSourceUnchanged)
        // Truncated in place: reading the mapping past the new end would be a bus error.
        XCTAssertEqual(truncate(path, 10), 0)
        XCTAssertFalse(set.isSourceUnchanged)
        for i in 0..<set.count {
            XCTAssertNil(set.name(at: i))
            XCTAssertTrue(set.properties(at: i).isEmpty)
            XCTAssertEqual(set.propertiesJSON(at: i), "{}")
            XCTAssertNil(set.idJSON(at: i))
        }
        set.forEachName { _, name in XCTAssertNil(name) }
        XCTAssertEqual(set.coordinates.count, set.count, "the points stay")
    }

    func testAFileWithoutSkipsStoresNothingButCoordinatesAndOffsets() throws {
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<1000 { text += (i > 0 ? "," : "") + pointFeature("\(i % 180)", "\(i % 90)", properties: #"{"id":\#(i)}"#) }
        text += "]}"
        let set = try load(Array(text.utf8), split: ParallelScanTests.fine)
        XCTAssertEqual(set.count, 1000)
        guard case .identity = set.sourcePositions.storage, case .constant(-1) = set.categoryIndices.storage else {
            return XCTFail("per-point columns were stored: \(set.sourcePositions.storage), \(set.categoryIndices.storage)")
        }
        XCTAssertEqual(Array(set.sourcePositions), (0..<1000).map(Int32.init))
        XCTAssertTrue(set.categoryIndices.allEqual(-1))
        XCTAssertEqual(set.offsets.count, 1000)
        XCTAssertFalse(set.hasNames)
    }

    /// Everything a point set answers, point by point.
}

extension XCTestCase {
    /// Fails unless two reads of the same bytes both succeed with the same answers or both fail
    /// with the same error (position, feature, message); returns whether they failed.
    @discardableResult
    func assertSameOutcome(_ a: Result<PointSet, Error>, _ b: Result<PointSet, Error>, _ what: String,
                           file: StaticString = #filePath, line: UInt = #line) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            assertSameAnswers(x, y, what, file: file, line: line)
            return false
        case (.failure(let x), .failure(let y)):
            XCTAssertEqual(x as? GeoDataError, y as? GeoDataError, what, file: file, line: line)
            return true
        default:
            XCTFail("\(what): one read gave \(a), the other \(b)", file: file, line: line)
            return false
        }
    }

    /// Fails unless two point sets give the same answers: points to the bit, record positions,
    /// categories, numeric values, the report, and every place's name, texts, properties and id.
    func assertSameAnswers(_ a: PointSet, _ b: PointSet, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, what, file: file, line: line)
        guard a.count == b.count else { return }
        XCTAssertTrue(zip(a.coordinates, b.coordinates).allSatisfy {
            $0.latitude.bitPattern == $1.latitude.bitPattern && $0.longitude.bitPattern == $1.longitude.bitPattern
        }, what, file: file, line: line)
        XCTAssertEqual(a.sourcePositions, b.sourcePositions, what, file: file, line: line)
        XCTAssertEqual(a.categoryNames, b.categoryNames, what, file: file, line: line)
        XCTAssertEqual(a.categoryIndices, b.categoryIndices, what, file: file, line: line)
        XCTAssertEqual(a.numericValues.map(\.bitPattern), b.numericValues.map(\.bitPattern), what, file: file, line: line)
        XCTAssertEqual(a.report, b.report, what, file: file, line: line)
        XCTAssertEqual(a.report.messages, b.report.messages, what, file: file, line: line)
        XCTAssertEqual([a.hasNames, a.hasLabels, a.hasDescriptions, a.hasMarkerColors],
                       [b.hasNames, b.hasLabels, b.hasDescriptions, b.hasMarkerColors], what, file: file, line: line)
        for i in 0..<a.count {
            guard a.name(at: i) == b.name(at: i), a.label(at: i) == b.label(at: i),
                  a.description(at: i) == b.description(at: i), a.markerColor(at: i) == b.markerColor(at: i),
                  a.propertiesJSON(at: i) == b.propertiesJSON(at: i), a.idJSON(at: i) == b.idJSON(at: i),
                  a.id(at: i) == b.id(at: i),
                  a.properties(at: i).map({ "\($0.key)=\($0.value)" }) == b.properties(at: i).map({ "\($0.key)=\($0.value)" })
            else {
                return XCTFail("\(what): point \(i) differs: \(String(describing: a.name(at: i))) / \(String(describing: b.name(at: i))), "
                               + "\(a.propertiesJSON(at: i)) / \(b.propertiesJSON(at: i))", file: file, line: line)
            }
        }
    }
}

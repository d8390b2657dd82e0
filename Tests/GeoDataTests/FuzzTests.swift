import XCTest
import ClusterCore
@testable import GeoData

/// Seeded random mutations and truncations of valid files: never a crash; either a load or a
/// `GeoDataError`, and a load never holds an invalid coordinate.
final class FuzzTests: XCTestCase {
    static let geoJSONSeed = """
    {"type":"FeatureCollection","bbox":[-10,-10,10,10],"features":[
    {"type":"Feature","id":1,"properties":{"name":"Caf\\u00e9 \\ud83c\\udf55","label":"$12","n":[1,{"a":null}],"mag":-1.5e2},"geometry":{"type":"Point","coordinates":[-3.6921,40.4138]}},
    {"geometry":{"coordinates":[[1,2],[3,4.5e-1]],"type":"MultiPoint"},"type":"Feature","properties":{"category":"x","marker-color":"#fff"}},
    {"type":"Feature","properties":null,"geometry":null},
    {"type":"Feature","properties":{"d":"ü ✓"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}
    ]}
    """
    static let ndjsonSeed = """
    {"type":"Feature","properties":{"name":"a\\u0000b"},"geometry":{"type":"Point","coordinates":[1,2]}}
    {"type":"Feature","properties":{"name":"Köln"},"geometry":{"type":"MultiPoint","coordinates":[[6.9,50.9],[500,1]]}}
    \u{1E}{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}}

    """
    static let csvSeed = "\u{FEFF}name,lat,lon,mag\r\n\"Smith, \"\"J\"\"\",1.5,2.5,3\r\n\"two\nlines\",-3,4,\r\nü,91,0,x\r\n,,,\r\nA,1,2\r\n"

    func mutate(_ seed: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var b = seed
        let interesting: [UInt8] = Array("{}[],:\"\\-.eE0123456789 \n\r".utf8) + [0, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        for _ in 0..<(1 + Int(rng.next() % 4)) {
            guard !b.isEmpty else { break }
            let i = Int(rng.next() % UInt64(b.count))
            switch rng.next() % 5 {
            case 0: b[i] = interesting[Int(rng.next() % UInt64(interesting.count))]
            case 1: b.remove(at: i)
            case 2: b.insert(interesting[Int(rng.next() % UInt64(interesting.count))], at: i)
            case 3: b = Array(b[..<i])                                  // truncation
            default: b[i] = UInt8(truncatingIfNeeded: rng.next())
            }
        }
        return b
    }

    func fuzz(seed: String, name: String, iterations: Int, seedValue: UInt64) {
        var rng = SeededRandom(seed: seedValue)
        let base = Array(seed.utf8)
        var loaded = 0, failed = 0
        for _ in 0..<iterations {
            let bytes = mutate(base, &rng)
            do {
                let set = try PointSetLoader.load(bytes: bytes, name: name)
                loaded += 1
                for i in 0..<set.count {
                    XCTAssertTrue(set.coordinates[i].isValid)
                    _ = set.name(at: i)
                    _ = set.properties(at: i)
                    _ = set.propertiesJSON(at: i)
                    _ = set.id(at: i)
                }
                XCTAssertEqual(set.sourcePositions.count, set.count)
            } catch let e as GeoDataError {
                failed += 1
                XCTAssertFalse(e.description.isEmpty)
                // Every message is one safe, bounded line (issue 15): no raw control characters.
                XCTAssertFalse(e.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                               e.description.debugDescription)
                XCTAssertLessThanOrEqual(e.description.unicodeScalars.count, MessageText.lineLength + 1)
                if let offset = e.byteOffset { XCTAssertLessThanOrEqual(offset, bytes.count) }
            } catch {
                XCTFail("unexpected error type: \(error)")
            }
        }
        XCTAssertGreaterThan(loaded, 0)
        XCTAssertGreaterThan(failed, 0)
    }

    /// Iterations per test; `GEODATA_FUZZ_ITERATIONS` raises it for a long run.
    let iterations = ProcessInfo.processInfo.environment["GEODATA_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 4_000

    func testGeoJSONMutations() {
        XCTAssertEqual((try? load(FuzzTests.geoJSONSeed))?.count, 4)   // the LineString at its middle
        fuzz(seed: FuzzTests.geoJSONSeed, name: "fuzz.geojson", iterations: iterations, seedValue: 1)
    }

    func testCSVMutations() {
        XCTAssertEqual((try? load(FuzzTests.csvSeed, name: "fuzz.csv"))?.count, 2)
        fuzz(seed: FuzzTests.csvSeed, name: "fuzz.csv", iterations: iterations, seedValue: 2)
    }

    func testNDJSONMutations() {
        XCTAssertEqual((try? load(FuzzTests.ndjsonSeed, name: "fuzz.ndjson"))?.count, 3)
        fuzz(seed: FuzzTests.ndjsonSeed, name: "fuzz.ndjson", iterations: iterations, seedValue: 3)
    }

    /// The early check on a file's first megabyte (issue 15 item 7) never disagrees with the full
    /// parse: mutated files over a megabyte load the same from a path as from memory.
    func testTheEarlyCheckAgreesWithTheFullParse() throws {
        var rng = SeededRandom(seed: 4)
        let feature = #"{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#
        let big = Array(("{\"type\":\"FeatureCollection\",\"features\":[" + Array(repeating: feature, count: 12_000).joined(separator: ",") + "]}").utf8)
        XCTAssertGreaterThan(big.count, InputReader.checkBytes)
        let path = NSTemporaryDirectory() + "fuzz-early-\(getpid()).geojson"
        defer { unlink(path) }
        let replacements = Array("{}[],:\"x0 \n".utf8)
        for _ in 0..<max(20, iterations / 200) {
            var bytes = big
            // Mutate the first megabyte, where the check looks.
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let i = Int(rng.next() % UInt64(InputReader.checkBytes))
                bytes[i] = replacements[Int(rng.next() % UInt64(replacements.count))]
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromMemory = Result { try PointSetLoader.load(bytes: bytes, name: (path as NSString).lastPathComponent) }
            let fromPath = Result { try PointSetLoader.load(path: path) }
            switch (fromMemory, fromPath) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a.count, b.count)
            case (.failure(let a), .failure(let b)): XCTAssertEqual(a as? GeoDataError, b as? GeoDataError)
            default: XCTFail("the early check disagrees: \(fromMemory) vs \(fromPath)")
            }
        }
    }

    /// Every cut either fails with a message (nothing whole before it) or keeps the whole
    /// features before it — a prefix of the full file's points, growing with the cut — and says
    /// the file ends early (SPEC §9).
    func testEveryTruncationOfAValidFile() throws {
        let bytes = Array(FuzzTests.geoJSONSeed.utf8)
        let full = try PointSetLoader.load(bytes: bytes, name: "t.geojson")
        var kept = 0
        for n in 0..<bytes.count {
            do {
                let set = try PointSetLoader.load(bytes: Array(bytes[..<n]), name: "t.geojson")
                XCTAssertGreaterThanOrEqual(set.count, kept, "\(n)")
                XCTAssertEqual(set.coordinates, Array(full.coordinates.prefix(set.count)), "\(n)")
                XCTAssertTrue(set.report.warnings.contains { $0.contains("truncated?") }, "\(n): \(set.report.messages)")
                kept = set.count
            } catch {
                XCTAssertTrue(error is GeoDataError, "\(n): \(error)")
                XCTAssertEqual(kept, 0, "\(n): an error after features were kept")
            }
        }
        XCTAssertEqual(kept, full.count)
    }
}

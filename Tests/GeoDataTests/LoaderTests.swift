import XCTest
import Synchronization
@testable import GeoData

/// Progress, cancellation and background use of the loader.
final class LoaderTests: XCTestCase {
    /// A GeoJSON file of `n` points written to a temporary file.
    func temporaryGeoJSON(points n: Int) throws -> String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        for i in 0..<n {
            text += pointFeature(String(Double(i % 360) - 180), String(Double(i % 170) - 85), properties: "{\"i\":\(i)}")
            text += i < n - 1 ? ",\n" : "\n"
        }
        text += "]}\n"
        let path = NSTemporaryDirectory() + "loader-\(getpid())-\(n).geojson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testProgressIsReportedInSmallStepsUpToOne() throws {
        let path = try temporaryGeoJSON(points: 20_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fractions = Mutex<[Double]>([])
        let set = try PointSetLoader.load(path: path, progress: { f in fractions.withLock { $0.append(f) } })
        XCTAssertEqual(set.count, 20_000)
        let seen = fractions.withLock { $0 }
        XCTAssertGreaterThan(seen.count, 50)
        XCTAssertEqual(seen.last, 1)
        XCTAssertEqual(seen, seen.sorted())
        XCTAssertTrue(seen.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    func testCancellationStopsTheLoad() throws {
        let path = try temporaryGeoJSON(points: 20_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calls = Atomic<Int>(0)
        XCTAssertThrowsError(try PointSetLoader.load(path: path, isCancelled: {
            calls.add(1, ordering: .relaxed).newValue > 10
        })) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func testOneHugeMultiPointReportsProgressAndCanBeCancelled() throws {
        let positions = (0..<20_000).map { "[\($0 % 180),\($0 % 90)]" }.joined(separator: ",")
        let text = #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":["# + positions + "]}}"
        let steps = Atomic<Int>(0)
        let set = try PointSetLoader.load(bytes: Array(text.utf8), name: "multi.geojson",
                                          progress: { _ in steps.add(1, ordering: .relaxed) })
        XCTAssertEqual(set.count, 20_000)
        XCTAssertEqual(Set(set.sourcePositions), [0])
        XCTAssertGreaterThan(steps.load(ordering: .relaxed), 20)   // one per 4 KB here
        XCTAssertThrowsError(try PointSetLoader.load(bytes: Array(text.utf8), name: "multi.geojson", isCancelled: { true }))
    }

    func testLoadsOnABackgroundThread() throws {
        let path = try temporaryGeoJSON(points: 1_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let done = expectation(description: "loaded")
        let result = Mutex<Int>(-1)
        Thread.detachNewThread {
            let n = (try? PointSetLoader.load(path: path))?.count ?? -2
            result.withLock { $0 = n }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(result.withLock { $0 }, 1_000)
    }

    func testSourceNameIsTheFileName() throws {
        let path = try temporaryGeoJSON(points: 3)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try PointSetLoader.load(path: path).sourceName, URL(fileURLWithPath: path).lastPathComponent)
    }

    func testAFolderIsNotAFile() {
        XCTAssertEqual(loadErrorAtPath(NSTemporaryDirectory())?.kind, .unreadable)
    }

    func loadErrorAtPath(_ path: String) -> GeoDataError? {
        do { _ = try PointSetLoader.load(path: path) } catch let e as GeoDataError { return e } catch {}
        return nil
    }

    func testFormatCount() {
        XCTAssertEqual(formatCount(0), "0")
        XCTAssertEqual(formatCount(999), "999")
        XCTAssertEqual(formatCount(1_204), "1,204")
        XCTAssertEqual(formatCount(1_234_567), "1,234,567")
        XCTAssertEqual(formatCount(-12_345), "-12,345")
    }
}

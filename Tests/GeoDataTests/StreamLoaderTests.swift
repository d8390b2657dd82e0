import XCTest
import Synchronization
@testable import GeoData

/// Pipes, FIFOs and early rejection (issue 15 items 6 and 7): no size needed up front, progress
/// by bytes read, and a hopeless file rejected from its first megabyte.
final class StreamLoaderTests: XCTestCase {
    override func setUp() {
        super.setUp()
        // Writers here outlive the reads (a rejected stream stops reading): EPIPE must fail a
        // write, not kill the test run with SIGPIPE, whatever order the tests run in.
        signal(SIGPIPE, SIG_IGN)
    }

    let twoPoints = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"a"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"name":"b"}}]}"#

    /// A pipe whose reading end is `/dev/fd/N` (what `<(cat f)` gives a program).
    func withPipe(_ body: (_ path: String, _ writer: FileHandle) throws -> Void) rethrows {
        let pipe = Pipe()
        try body("/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", pipe.fileHandleForWriting)
    }

    func testAPipeIsReadAsAStream() throws {
        try withPipe { path, writer in
            let text = twoPoints
            let t = Thread { writer.write(Data(text.utf8)); try? writer.close() }
            t.start()
            let set = try PointSetLoader.load(path: path)
            XCTAssertEqual(set.count, 2)
            XCTAssertEqual(set.name(at: 1), "b")
        }
    }

    func testAFIFOIsReadAsAStreamWithProgressByBytes() throws {
        let path = NSTemporaryDirectory() + "fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).geojson"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        defer { unlink(path) }
        // 3 MB of points arrive slowly, in pieces.
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for i in 0..<30_000 {
            text += (i > 0 ? "," : "") + pointFeature(String(i % 180), String(i % 80), properties: "{\"name\":\"p\(i)\"}")
        }
        text += "]}"
        let bytes = Array(text.utf8)
        let writer = Thread {
            guard let h = FileHandle(forWritingAtPath: path) else { return }
            var i = 0
            while i < bytes.count {
                h.write(Data(bytes[i..<min(i + 500_000, bytes.count)]))
                i += 500_000
                usleep(20_000)
            }
            try? h.close()
        }
        writer.start()
        let seen = Mutex<[Int]>([])
        let set = try PointSetLoader.load(path: path, streamProgress: { n in seen.withLock { $0.append(n) } })
        XCTAssertEqual(set.count, 30_000)
        let reported = seen.withLock { $0 }
        XCTAssertGreaterThanOrEqual(reported.count, 2, "\(reported)")
        XCTAssertEqual(reported.last, bytes.count)
        XCTAssertEqual(reported, reported.sorted())
    }

    func testAFIFOWithoutAWriterCanBeCancelled() throws {
        let path = NSTemporaryDirectory() + "fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        defer { unlink(path) }
        let cancelled = Atomic<Bool>(false)
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancelled.store(true, ordering: .relaxed) }
        XCTAssertThrowsError(try PointSetLoader.load(path: path, isCancelled: { cancelled.load(ordering: .relaxed) })) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "cancelled while waiting for a writer")
    }

    /// Garbage keeps coming and the stream never ends, yet the error comes at once: the loader
    /// stopped at the first fatal error instead of reading (and holding) everything.
    func testAHopelessStreamIsRejectedBeforeItEnds() throws {
        try withPipe { path, writer in
            let stop = Atomic<Bool>(false)
            let t = Thread {
                var rng: UInt64 = 0x1234_5678
                var block = [UInt8](repeating: 0, count: 65_536)
                while !stop.load(ordering: .relaxed) {
                    for i in block.indices { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; block[i] = UInt8(truncatingIfNeeded: rng) }
                    block[0] = UInt8(ascii: "x")
                    guard (try? writer.write(contentsOf: block)) != nil else { return }
                }
            }
            t.start()
            defer { stop.store(true, ordering: .relaxed); try? writer.close() }
            let started = Date()
            XCTAssertThrowsError(try PointSetLoader.load(path: path, options: LoadOptions(format: .geoJSON))) { error in
                let e = error as? GeoDataError
                XCTAssertEqual(e?.kind, .notGeoJSON, "\(error)")
                XCTAssertEqual(e?.byteOffset, 0)
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        }
    }

    /// A stream that goes wrong after 5 MB of good features, and then never ends: the check at
    /// 32 MB stops it, with the error at its real position.
    func testAStreamBrokenAfterTheFirstMegabyteIsStoppedAtTheNextCheck() throws {
        signal(SIGPIPE, SIG_IGN)   // the writer outlives the read; EPIPE must not kill the run
        let pipe = Pipe()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let writer = pipe.fileHandleForWriting
        let stop = Atomic<Bool>(false)
        let written = Atomic<Int>(0)
        let feature = Array((pointFeature("1.5", "2.5", properties: "{\"name\":\"x\"}") + ",\n").utf8)
        let t = Thread {
            var block: [UInt8] = Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
            while block.count < 65_536 { block += feature }
            var sent = 0, broken = false
            while !stop.load(ordering: .relaxed) && sent < 400 << 20 {
                var chunk = block
                if sent >= 5 << 20 && !broken { chunk = Array("!!!\n".utf8) + chunk; broken = true }   // not a feature
                guard (try? writer.write(contentsOf: chunk)) != nil else { return }
                sent += chunk.count
                written.store(sent, ordering: .relaxed)
                block = Array(block.drop(while: { $0 != UInt8(ascii: "\n") }).dropFirst())   // no header again
                while block.count < 65_536 { block += feature }
            }
            try? writer.close()
        }
        t.start()
        defer { stop.store(true, ordering: .relaxed) }
        XCTAssertThrowsError(try PointSetLoader.load(path: path, options: LoadOptions(format: .geoJSON))) { error in
            let e = error as? GeoDataError
            XCTAssertEqual(e?.kind, .syntax, "\(error)")
            XCTAssertGreaterThan(e?.byteOffset ?? 0, 5 << 20)
            XCTAssertLessThan(e?.byteOffset ?? .max, (5 << 20) + 140_000)
        }
        // The check runs beside the reading and is waited for at 64 MB; the writer is at most a pipe
        // buffer and a block ahead of the reader.
        XCTAssertLessThan(written.load(ordering: .relaxed), (64 << 20) + (1 << 20), "stopped by the 32 MB check, not at the end")
    }

    func testEarlyRejectionGivesTheSameErrorAsTheFullParse() throws {
        // A CSV whose header has no coordinate columns, 3 MB long: the same message either way.
        var csv = "name,value\n"
        for i in 0..<200_000 { csv += "n\(i),\(i)\n" }
        let path = NSTemporaryDirectory() + "early-\(getpid()).csv"
        let whole = try XCTUnwrap(loadError(csv, name: (path as NSString).lastPathComponent))
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        XCTAssertThrowsError(try PointSetLoader.load(path: path)) { error in
            XCTAssertEqual(error as? GeoDataError, whole)
        }
    }

    func testAnErrorNearTheCutIsLeftToTheFullParse() throws {
        // Valid GeoJSON whose first megabyte ends inside a long string: the check must not
        // mistake the cut for an error.
        let long = String(repeating: "é", count: 600_000)   // 1.2 MB of two-byte characters
        let text = collection(pointFeature("1", "2", properties: "{\"name\":\"\(long)\"}"), pointFeature("3", "4"))
        let path = NSTemporaryDirectory() + "cut-\(getpid()).geojson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        XCTAssertEqual(try PointSetLoader.load(path: path).count, 2)
    }

    func testStandardInputHasAName() {
        XCTAssertEqual(PointSetLoader.displayName(of: "-"), "standard input")
        XCTAssertEqual(PointSetLoader.displayName(of: "/a/b.csv"), "b.csv")
    }
}

import XCTest
@testable import GeoData

/// Streams that can't be a point file stop at their first megabyte (issue 34): `clusters
/// /dev/zero` read 4.2 GB and 3 GB of blank space on standard input took 3 GB before failing.
final class StreamStartTests: XCTestCase {
    override func setUp() {
        super.setUp()
        signal(SIGPIPE, SIG_IGN)  // the writer outlives the rejected read
    }

    /// Peak resident memory in MB, restarted first (writing 5 to clear_refs sets it to the current size).
    func peakRise(_ body: () -> Void) -> Double {
        func field(_ name: String) -> Double {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        }
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
        let before = field("VmRSS")
        body()
        return field("VmHWM") - before
    }

    func testDevZeroStopsAtItsFirstByte() throws {
        var message = ""
        let started = Date()
        let rise = peakRise {
            do { _ = try PointSetLoader.load(path: "/dev/zero") } catch { message = "\(error)" }
        }
        XCTAssertEqual(message, "zero: line 1, column 1 (byte 0): starts with the byte 0x00, which no GeoJSON or CSV file starts with")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertLessThan(rise, 32, "peak rise in MB")
    }

    /// Writes `total` bytes of `byte` into a pipe on another thread; the bytes it got rid of are counted.
    func loadPipe(of byte: UInt8, total: Int, after prefix: [UInt8] = []) -> (error: String, written: Int, rise: Double) {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let written = Counter()
        let t = Thread {
            let chunk = [UInt8](repeating: byte, count: 1 << 20)
            var sent = 0
            if !prefix.isEmpty { _ = prefix.withUnsafeBytes { Glibc.write(writer.fileDescriptor, $0.baseAddress, $0.count) } }
            while sent < total {
                let n = chunk.withUnsafeBytes { Glibc.write(writer.fileDescriptor, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                sent += n
                written.set(sent)
            }
            try? writer.close()
        }
        t.start()
        var failure = ""
        let rise = peakRise {
            do { _ = try PointSetLoader.load(path: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)") } catch { failure = "\(error)" }
        }
        try? pipe.fileHandleForReading.close()
        while !t.isFinished { usleep(1000) }
        return (failure, written.value, rise)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func set(_ v: Int) { lock.withLock { n = v } }
        var value: Int { lock.withLock { n } }
    }

    func testBlankSpaceStopsAtTheFirstMegabyte() throws {
        let (error, written, rise) = loadPipe(of: 0x20, total: 3 << 30)
        XCTAssertTrue(error.hasSuffix("nothing but blank space in its first 1 MB; not a GeoJSON or CSV file"), error)
        XCTAssertLessThan(written, 64 << 20, "stopped reading")
        XCTAssertLessThan(rise, 32, "peak rise in MB")
    }

    func testAControlByteAfterBlankSpaceStopsToo() throws {
        let (error, written, _) = loadPipe(of: 0x00, total: 1 << 30, after: Array("\n\n  ".utf8))
        XCTAssertTrue(error.hasSuffix("line 3, column 3 (byte 4): starts with the byte 0x00, which no GeoJSON or CSV file starts with"), error)
        XCTAssertLessThan(written, 64 << 20)
    }

    func testWhatCanStartAFileIsLeftAlone() {
        for text in ["{\"type\"", "\u{FEFF}  \n{", "\u{1E}{", "lat,lon\n", "\"name\",lat", "Ünïcode,lat,lon", "   "] {
            let bytes = Array(text.utf8)
            let problem = bytes.withUnsafeBufferPointer { StreamStart.problem(in: $0, fileName: "t") }
            XCTAssertNil(problem, text)
        }
    }
}

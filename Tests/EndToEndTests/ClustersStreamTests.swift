import XCTest
import Foundation

/// `clustermap clusters` with hostile input (issue 15): no control bytes on stderr, pipes, FIFOs
/// and `-` read as streams, a hopeless file rejected without reading it all, lone surrogates
/// replaced, and `--lat` / `--lon`.
final class ClustersStreamTests: XCTestCase {
    static let twoPoints = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"a"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"name":"b"}}]}"#

    private func temp(_ ext: String) -> String {
        let path = NSTemporaryDirectory() + "clusters-stream-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(ext)"
        addTeardownBlock { unlink(path) }
        return path
    }

    /// Runs a shell command line (for `<(…)` and redirections) with `$CM` set to the binary.
    private func shell(_ command: String, timeout: TimeInterval = 30) throws -> ProgramRun.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        var env = ProcessInfo.processInfo.environment
        env["CM"] = AppHarness.binaryPath
        env.removeValue(forKey: "DISPLAY")
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        return ProgramRun.Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self),
                                 err: String(decoding: e, as: UTF8.self))
    }

    private func pointCount(_ r: ProgramRun.Result, file: StaticString = #filePath, line: UInt = #line) -> Int? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
              let features = json["features"] as? [[String: Any]] else {
            XCTFail("not GeoJSON: \(r.out.prefix(200)) / \(r.err)", file: file, line: line)
            return nil
        }
        return features.reduce(0) { $0 + ((($1["properties"] as? [String: Any])?["point_count"] as? Int) ?? 1) }
    }

    func testNoControlBytesReachTheTerminal() throws {
        let path = temp("csv")
        try Data("name\u{1b}]0;pwned\u{07}\u{1b}[2J,\u{0},z\n1,2,3\n".utf8).write(to: URL(fileURLWithPath: path))
        let r = try ProgramRun.clustermap(["clusters", path, "--zoom", "0"])
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.err.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0 || $0.value == 7 }, r.err.debugDescription)
        XCTAssertTrue(r.err.contains("\\x1b]0;pwned\\x07\\x1b[2J"), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, "one line")
    }

    func testProcessSubstitutionStdinAndDevStdin() throws {
        let path = temp("geojson")
        try ClustersStreamTests.twoPoints.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["\"$CM\" clusters <(cat '\(path)') --zoom 0",
                        "cat '\(path)' | \"$CM\" clusters - --zoom 0",
                        "\"$CM\" clusters /dev/stdin --zoom 0 < <(cat '\(path)')"] {
            let r = try shell(command)
            XCTAssertEqual(r.status, 0, "\(command): \(r.err)")
            XCTAssertEqual(pointCount(r), 2, command)
        }
    }

    func testAFIFOIsReadToItsEnd() throws {
        let path = temp("geojson")
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let r = try shell("(sleep 0.5; printf '%s' '\(ClustersStreamTests.twoPoints)' > '\(path)') & \"$CM\" clusters '\(path)' --zoom 0", timeout: 20)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(pointCount(r), 2)
    }

    func testStandardInputErrorsSayStandardInput() throws {
        let r = try shell("printf 'a,b\\n1,2\\n' | \"$CM\" clusters - --zoom 0")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("clustermap clusters: standard input: line 1:"), r.err)
    }

    /// 256 MB of random bytes named .geojson: rejected at byte 0 without reading it all (the issue's
    /// 2 GB case peaked at 2.3 GB resident).
    func testAHugeHopelessFileIsRejectedWithLittleMemory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("no /usr/bin/time") }
        let path = temp("geojson")
        let gen = try shell("head -c 268435456 /dev/urandom > '\(path)'; printf 'x' | dd of='\(path)' bs=1 count=1 conv=notrunc 2>/dev/null", timeout: 120)
        XCTAssertEqual(gen.status, 0, gen.err)
        let r = try shell("/usr/bin/time -f 'maxrss=%M' \"$CM\" clusters '\(path)' --zoom 0")
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("byte 0): not a GeoJSON object: expected '{' at the start"), r.err)
        let kb = r.err.split(separator: "\n").last { $0.hasPrefix("maxrss=") }.flatMap { Int($0.dropFirst(7)) } ?? .max
        print("rejected 256 MB of random bytes with \(kb / 1024) MB peak RSS")
        XCTAssertLessThan(kb, 100 * 1024, "peak RSS in KB")
    }

    /// The CLI's peak RSS in MB from `/usr/bin/time -f maxrss=%M` on stderr.
    private func peakMB(_ r: ProgramRun.Result) -> Int {
        (r.err.split(separator: "\n").last { $0.hasPrefix("maxrss=") }.flatMap { Int($0.dropFirst(7)) } ?? .max) / 1024
    }

    /// 2 GB of random bytes (a random megabyte, then a hole: nothing on disk) named .geojson:
    /// the mapped file is rejected at byte 0 after touching one page (issue 15 item 7).
    func testATwoGigabyteFileOfRandomBytesIsRejectedAtOnce() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("no /usr/bin/time") }
        let path = temp("geojson")
        let gen = try shell("head -c 1048576 /dev/urandom > '\(path)' && printf 'x' | dd of='\(path)' bs=1 count=1 conv=notrunc 2>/dev/null"
                            + " && truncate -s 2G '\(path)'")
        XCTAssertEqual(gen.status, 0, gen.err)
        let r = try shell("/usr/bin/time -f 'maxrss=%M' \"$CM\" clusters '\(path)' --zoom 0")
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("byte 0): not a GeoJSON object: expected '{' at the start"), r.err)
        print("rejected 2 GB of random bytes with \(peakMB(r)) MB peak RSS")
        XCTAssertLessThan(peakMB(r), 60)
    }

    /// A file that is fine for its first 34 MB and then broken, then goes on to 2 GB: the scan
    /// stops at the error (before: the whole file was read first, 2 GB resident, because the
    /// early checks only look at the first 32 MB).
    func testAFileBrokenAfter32MBStopsAtItsError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("no /usr/bin/time") }
        let path = temp("geojson")
        let feature = #"{"type":"Feature","properties":{"name":"p"},"geometry":{"type":"Point","coordinates":[12.3456789,-45.6789012]}},"#
        let count = (34 << 20) / feature.utf8.count
        var text = #"{"type":"FeatureCollection","features":["# + "\n"
        text += String(repeating: feature + "\n", count: count)
        let brokenAt = text.utf8.count + feature.utf8.count - 1
        text += feature.dropLast() + "#"   // where the next ',' or ']' belongs
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(truncate(path, 2 << 30), 0)
        let r = try shell("/usr/bin/time -f 'maxrss=%M' \"$CM\" clusters '\(path)' --zoom 0", timeout: 120)
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("(byte \(formatted(brokenAt))): expected ',' or ']' after a feature, found '#'"), r.err)
        print("stopped at byte \(brokenAt) of a 2 GB file with \(peakMB(r)) MB peak RSS")
        XCTAssertLessThan(peakMB(r), 200)
    }

    private func formatted(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.enumerated() {
            if i > 0 && (s.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    func testLoneSurrogatesAreReplacedInTheOutput() throws {
        let path = temp("geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"\ud800"}}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try ProgramRun.clustermap(["clusters", path, "--zoom", "0"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.lowercased().contains("\\ud800"), r.out)
        XCTAssertTrue(r.out.contains(#""name":"\ufffd""#), r.out)
    }

    func testLatAndLonNameTheColumns() throws {
        let path = temp("csv")
        try "name,north,east\na,10,20\nb,11,21\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try ProgramRun.clustermap(["clusters", path, "--zoom", "0", "--lat", "north", "--lon", "east"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(pointCount(r), 2)
        let bad = try ProgramRun.clustermap(["clusters", path, "--zoom", "0", "--lat", "nope", "--lon", "east"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("no latitude column named \"nope\""), bad.err)
    }
}

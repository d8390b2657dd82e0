import XCTest
import Foundation

/// Hostile files in the real window (issue 15): long words in messages don't freeze it, control
/// bytes never reach the terminal or the banner, every broken file is reported, and closing
/// during a load touches nothing that is gone.
final class HostileInputTests: XCTestCase {
    static let good = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"name":"Paris"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[-3.7,40.4]},"properties":{"name":"Madrid"}}]}"#

    private func write(_ text: String, _ name: String, in h: AppHarness) throws -> String {
        let path = h.workDir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func stderrText(_ h: AppHarness) -> String {
        (try? String(contentsOfFile: h.workDir + "/app-stderr.log", encoding: .utf8)) ?? ""
    }

    /// A 1 MB word in an error (and a 20,000-character CSV header field) used to spin Pango for
    /// minutes. Now the banner quotes a short excerpt and the map answers keys at once.
    func testALongWordInAnErrorDoesNotFreezeTheWindow() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let good = try write(HostileInputTests.good, "good.geojson", in: h)
        let word = String(repeating: "W", count: 1_000_000)
        let bad = try write("{\"type\":\"\(word)\",\"features\":[]}", "longtype.geojson", in: h)
        let csv = try write(String(repeating: "h", count: 20_000) + ",x\n1,2\n", "longheader.csv", in: h)
        try h.launch([good, bad, csv], timeout: 60)
        let banner = try h.waitForEvent("message", timeout: 30) { $0["error"] as? Bool == true }
        let text = banner.event["text"] as? String ?? ""
        XCTAssertLessThan(text.unicodeScalars.count, 1_000, "a short message")
        XCTAssertTrue(text.contains("longtype.geojson") && text.contains("WWWW…"), text)
        XCTAssertTrue(text.contains("longheader.csv") && text.contains("hhhh…"), text)
        // The window still answers: a key zooms and a frame is drawn.
        try h.move(to: 640, 400)
        try h.key("plus")
        let cam = try h.waitForEvent("camera", after: banner.index, timeout: 5)
        XCTAssertNotNil(cam.event["zoom"])
        // The banner is drawn, with text in it (a 1.1 MB message used to show an empty card).
        _ = try h.waitForEvent("widget", after: banner.index, timeout: 10) { $0["name"] as? String == "banner" }
        let cardRegion = { (s: Screenshot) in (s.width / 2 - 150, 66, 300, 60) }
        let shot = try h.screenshot(name: "long-word-banner") {
            $0.fraction(near: (249, 224, 224), tolerance: 8, region: cardRegion($0)) > 0.3
        }
        let card = shot.fraction(near: (249, 224, 224), tolerance: 8, region: cardRegion(shot))
        let ink = shot.fraction(near: (40, 40, 40), tolerance: 40, region: (shot.width / 2 - 300, 70, 600, 80))
        XCTAssertGreaterThan(card, 0.3, "the error card at the top (\(shot.path))")
        XCTAssertGreaterThan(ink, 0.02, "with text in it")
    }

    /// Control bytes in a file (a terminal title change, clear screen, NUL) are escaped in the
    /// window's message, the event log and on stderr.
    func testControlBytesAreEscapedEverywhere() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let good = try write(HostileInputTests.good, "good.geojson", in: h)
        let evil = try write("name\u{1b}]0;pwned\u{07}\u{1b}[2J,\u{0},z\n1,2,3\n", "evil.csv", in: h)
        try h.launch([good, evil])
        let error = try h.waitForEvent("error", timeout: 30)
        let message = error.event["message"] as? String ?? ""
        XCTAssertTrue(message.contains("\\x1b]0;pwned\\x07\\x1b[2J"), message)
        XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 }, message)
        let banner = try h.waitForEvent("message", timeout: 5) { $0["error"] as? Bool == true }
        XCTAssertEqual(banner.event["text"] as? String, message)
        let err = try Data(contentsOf: URL(fileURLWithPath: h.workDir + "/app-stderr.log"))
        XCTAssertFalse(err.contains(0x1b), "no ESC on stderr: \(String(decoding: err, as: UTF8.self))")
        XCTAssertFalse(err.contains(0x00), "no NUL on stderr")
        XCTAssertTrue(stderrText(h).contains("evil.csv"))
    }

    /// Two broken files beside a good one: both errors are shown (one banner, one line each),
    /// logged and printed; the good file loads.
    func testEveryBrokenFileIsReported() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let good = try write(HostileInputTests.good, "good.geojson", in: h)
        let first = try write("{\"type\":\"FeatureCollection\",\"features\":[", "first.geojson", in: h)
        let second = try write("a,b\n1,2\n", "second.csv", in: h)
        try h.launch([first, good, second])
        let done = try h.waitForEvent("load-done", timeout: 30)
        XCTAssertEqual(done.event["points"] as? Int, 2)
        let banner = try h.waitForEvent("message", timeout: 5) { $0["error"] as? Bool == true }
        let lines = (banner.event["text"] as? String ?? "").split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("first.geojson:") == true, "\(lines)")
        XCTAssertTrue(lines.last?.hasPrefix("second.csv:") == true, "\(lines)")
        let errors = h.events().filter { $0["event"] as? String == "error" }.compactMap { $0["message"] as? String }
        XCTAssertEqual(errors.count, 2, "\(errors)")
        let err = stderrText(h)
        XCTAssertTrue(err.contains("clustermap: first.geojson:") && err.contains("clustermap: second.csv:"), err)
    }

    /// A FIFO given on the command line loads when its writer is done (it used to load nothing and
    /// never finish), with progress by bytes read.
    func testAFIFOLoadsInTheWindow() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        signal(SIGPIPE, SIG_IGN)   // an app that stops reading must fail the test, not kill it
        let fifo = h.workDir + "/points.geojson"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        var features: [String] = []
        for i in 0..<20_000 {
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(i % 360 - 180),\(i % 160 - 80)]},\"properties\":{\"name\":\"p\(i)\"}}")
        }
        let bytes = Array("{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}".utf8)
        let log = h.logPath
        let writer = Thread {
            // The window is up and waiting (its first frame drawn) before the data comes.
            AppHarness.poll(timeout: 30) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("{\"event\":\"ready\"")
            }
            guard let out = FileHandle(forWritingAtPath: fifo) else { return }
            try? out.write(contentsOf: Data(bytes))   // EPIPE if the app stopped reading
            try? out.close()
        }
        writer.start()
        try h.launch([fifo], timeout: 60)
        let done = try h.waitForEvent("load-done", timeout: 30)
        XCTAssertEqual(done.event["points"] as? Int, 20_000)
        let byBytes = h.events().filter { $0["event"] as? String == "load-progress" }.compactMap { $0["bytes"] as? Int }
        XCTAssertEqual(byBytes.last, bytes.count, "progress by bytes read, up to all of them")
    }

    /// `clustermap -` reads standard input.
    func testDashReadsStandardInput() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = try write(HostileInputTests.good, "piped.geojson", in: h)
        h.standardInputForNextLaunch = FileHandle(forReadingAtPath: path)
        try h.launch(["-"])
        let done = try h.waitForEvent("load-done", timeout: 30)
        XCTAssertEqual(done.event["points"] as? Int, 2)
    }
}

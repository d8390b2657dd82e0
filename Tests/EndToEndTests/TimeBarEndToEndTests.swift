import XCTest
import Foundation

/// The time bar in the real window (issue 29 item 4), driven with xdotool and read back from the
/// event log: a click on the histogram, the window mode, steps and play/pause by keys, each
/// range reaching the filter, whose passing count is checked against the fixture itself; and
/// the earthquake replay, which is this bar, stepped and sped up with the map's keys.
final class TimeBarEndToEndTests: XCTestCase {
    /// 2011-01-01T00:00:00Z
    static let start = 1_293_840_000.0

    /// 600 places around Madrid over 2011, three kinds; returns their times (UTC seconds).
    func writeFixture(_ path: String) throws -> [Double] {
        var state: UInt64 = 2911
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var times: [Double] = [], features: [String] = []
        let formatter = ISO8601DateFormatter()
        for i in 0..<600 {
            let t = (TimeBarEndToEndTests.start + next() * 365 * 86400).rounded()
            times.append(t)
            features.append("""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[\(-3.7 + (next() - 0.5) * 0.3),\(40.42 + (next() - 0.5) * 0.2)]},\
            "properties":{"name":"Case \(i)","kind":"\(["fire", "flood", "theft"][i % 3])","when":"\(formatter.string(from: Date(timeIntervalSince1970: t)))"}}
            """)
        }
        try ("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return times
    }

    /// How many fixture times a `time-bar` event's since…until (inclusive) holds.
    func count(_ times: [Double], _ event: [String: Any]) throws -> Int {
        let f = ISO8601DateFormatter()
        let since = try XCTUnwrap(f.date(from: event["since"] as? String ?? "")).timeIntervalSince1970
        let until = try XCTUnwrap(f.date(from: event["until"] as? String ?? "")).timeIntervalSince1970
        return times.filter { $0 >= since && $0 <= until }.count
    }

    /// Waits for the filter the bar event asked for and checks its passing count.
    /// (`after`: where to look from; a range asked while playing may land before its event.)
    func assertFilterShows(_ h: AppHarness, _ bar: (event: [String: Any], index: Int), times: [Double], after: Int? = nil,
                           file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let until = bar.event["until"] as? String ?? "?"
        let filter = try h.waitForEvent("filter", after: after ?? bar.index, timeout: 20) { ($0["expression"] as? String ?? "").contains(until) }
        XCTAssertEqual(filter.event["passing"] as? Int, try count(times, bar.event), "\(filter.event)", file: file, line: line)
        return filter.index
    }

    func testTheBarIsClickedSteppedAndPlayedWithKeysAndTheMapFollows() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/cases.geojson"
        let times = try writeFixture(path)
        try h.launch([path, "--time", "when"], timeout: 60)
        let shown = try h.waitForEvent("time-bar", timeout: 60) { $0["reason"] as? String == "shown" }
        XCTAssertEqual(shown.event["property"] as? String, "when")
        XCTAssertEqual(shown.event["since"] as? String, "", "a new bar shows everything: no time filter")
        let area = try h.waitForEvent("widget", timeout: 20) { $0["name"] as? String == "time-bar" }
        let x = area.event["x"] as? Double ?? 0, y = area.event["y"] as? Double ?? 0

        // A click left of the middle: everything up to about a third of the year.
        try h.click(at: x - 40, y)
        let seek = try h.waitForEvent("time-bar", after: area.index, timeout: 10) { $0["reason"] as? String == "seek" }
        var last = try assertFilterShows(h, seek, times: times)
        XCTAssertLessThan(try count(times, seek.event), 600)

        // W: a 7-day window; Right steps a window at a time (the bar has the keyboard focus now).
        try h.pressKey("w")
        let mode = try h.waitForEvent("time-bar", after: last, timeout: 10) { $0["reason"] as? String == "mode" }
        XCTAssertEqual(mode.event["mode"] as? String, "window")
        last = try assertFilterShows(h, mode, times: times)
        var playhead = mode.event["playhead"] as? String ?? ""
        for _ in 0..<3 {
            try h.pressKey("Right")
            let step = try h.waitForEvent("time-bar", after: last, timeout: 10) { $0["reason"] as? String == "step" }
            let next = step.event["playhead"] as? String ?? ""
            XCTAssertGreaterThan(next, playhead, "a step moves the playhead on")
            playhead = next
            last = try assertFilterShows(h, step, times: times)
        }

        // P plays: the bar reports the window's frames each second; P again pauses.
        try h.pressKey("p")
        let play = try h.waitForEvent("time-bar", after: last, timeout: 10) { $0["reason"] as? String == "play" }
        XCTAssertEqual(play.event["playing"] as? Bool, true)
        let frames = try h.waitForEvent("time-bar-play", after: play.index, timeout: 10)
        XCTAssertGreaterThan(frames.event["frames"] as? Int ?? 0, 0, "\(frames.event)")
        try h.pressKey("p")
        let pause = try h.waitForEvent("time-bar", after: frames.index, timeout: 10) { $0["reason"] as? String == "pause" }
        XCTAssertEqual(pause.event["playing"] as? Bool, false)
        XCTAssertGreaterThan(pause.event["playhead"] as? String ?? "", playhead, "playing moved it on")
        _ = try assertFilterShows(h, pause, times: times, after: play.index)
        h.assertNoGtkWarnings()
    }

    /// The bar is remembered with the file (issue 29 item 7): window mode, playhead and speed
    /// come back after Ctrl+Q and reopening the file without `--time`, and so does its range.
    func testTheBarComesBackWhereItWasLeftWhenTheFileIsOpenedAgain() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/cases.geojson"
        let times = try writeFixture(path)
        try h.launch([path, "--time", "when"], timeout: 60)
        _ = try h.waitForEvent("time-bar", timeout: 60) { $0["reason"] as? String == "shown" }
        let area = try h.waitForEvent("widget", timeout: 20) { $0["name"] as? String == "time-bar" }
        try h.click(at: (area.event["x"] as? Double ?? 0) - 40, area.event["y"] as? Double ?? 0)
        var last = try h.waitForEvent("time-bar", after: area.index, timeout: 10) { $0["reason"] as? String == "seek" }
        try h.pressKey("w")
        last = try h.waitForEvent("time-bar", after: last.index, timeout: 10) { $0["reason"] as? String == "mode" }
        try h.pressKey("Right")
        last = try h.waitForEvent("time-bar", after: last.index, timeout: 10) { $0["reason"] as? String == "step" }
        let landed = try assertFilterShows(h, last, times: times)
        try h.pressKey("bracketright")
        last = try h.waitForEvent("time-bar", after: landed, timeout: 10) { $0["reason"] as? String == "speed" }

        let before = h.events().count
        try h.key("ctrl+q")
        _ = try h.waitForEvent("state-saved", after: before - 1, timeout: 10)
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        // The state file was written before `state-saved` was logged: no pause needed.
        let state = try String(contentsOfFile: h.workDir + "/config/clustermap/state", encoding: .utf8)
        XCTAssertTrue(state.contains("\"timeBar\":{"), state)
        try h.launch([path], timeout: 60)
        let restored = try h.waitForEvent("time-bar", timeout: 60) { $0["reason"] as? String == "restored" }
        for key in ["property", "mode", "playhead", "since", "until", "speed"] {
            XCTAssertEqual(restored.event[key] as? String, last.event[key] as? String, key)
        }
        XCTAssertEqual(restored.event["mode"] as? String, "window")
        XCTAssertEqual(restored.event["playing"] as? Bool, false, "reopened paused")
        XCTAssertEqual(restored.event["was_playing"] as? Bool, false)
        _ = try assertFilterShows(h, restored, times: times, after: 0)

        // Left playing: the state says so, and the bar comes back paused where it was, saying
        // it was playing (TimeBar.restored says why it doesn't start by itself).
        try h.pressKey("p")
        let playing = try h.waitForEvent("time-bar", after: restored.index, timeout: 10) { $0["reason"] as? String == "play" }
        let quitting = h.events().count
        try h.key("ctrl+q")
        _ = try h.waitForEvent("state-saved", after: quitting - 1, timeout: 10)
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        let playingState = try String(contentsOfFile: h.workDir + "/config/clustermap/state", encoding: .utf8)
        XCTAssertTrue(playingState.contains("\"playing\":true"), playingState)
        try h.launch([path], timeout: 60)
        let again = try h.waitForEvent("time-bar", timeout: 60) { $0["reason"] as? String == "restored" }
        XCTAssertEqual(again.event["playing"] as? Bool, false, "reopened paused")
        XCTAssertEqual(again.event["was_playing"] as? Bool, true)
        XCTAssertGreaterThanOrEqual(again.event["playhead"] as? String ?? "", playing.event["playhead"] as? String ?? "~", "where it was")
        let text = try h.waitForEvent("time-bar-text", after: again.index, timeout: 10)
        XCTAssertTrue((text.event["text"] as? String ?? "").hasSuffix("was playing: P plays on"), "\(text.event)")
    }

    func testTheReplayIsTheBarAndStepsWithTheMapsKeys() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "live-earthquakes", "--replay-speed", "1"], timeout: 60)
        let chip = try h.waitForEvent("replay-chip", timeout: 60)
        XCTAssertTrue((chip.event["text"] as? String ?? "").hasPrefix("Replaying 1965-"), "\(chip.event)")
        let first = try h.waitForEvent("replay", after: chip.index, timeout: 20)
        let before = first.event["shown"] as? Int ?? 0
        // Period: a step forward (30 days for fifty years of quakes) adds that month's quakes at once.
        try h.key("period")
        let step = try h.waitForEvent("time-bar", after: first.index, timeout: 10) { $0["reason"] as? String == "step" }
        XCTAssertEqual(step.event["mode"] as? String, "cumulative")
        let added = try h.waitForEvent("replay", after: first.index, timeout: 10) { ($0["shown"] as? Int ?? 0) > before + 10 }
        XCTAssertGreaterThan(added.event["date"] as? String ?? "", first.event["date"] as? String ?? "")
        try h.key("bracketright")
        let speed = try h.waitForEvent("replay-speed", after: first.index, timeout: 10)
        XCTAssertEqual(speed.event["days_per_second"] as? Double, 2)
        h.assertNoGtkWarnings()
    }

    /// The bar as a screen reader finds it (AT-SPI): a slider named "Time" whose description is
    /// the shown range and speed. (GTK 4.8 gives a drawing area no AT-SPI Value interface, so
    /// the value properties the bar sets are not read here.)
    static let probe = AccessibilityTests.probePrelude + """
    deadline = time.time() + 12
    while True:
        try:
            s = find(app(), lambda n: n.getRoleName() == 'slider' and n.name == 'Time')
            if s:
                out = {"description": s.description}
                try:
                    v = s.queryValue()
                    out["value"] = v.currentValue
                    out["max"] = v.maximumValue
                except Exception as e:
                    out["error"] = str(e)
                print(json.dumps(out)); sys.exit(0)
        except Exception as e:
            err = e
        if time.time() > deadline:
            print("no time slider in the accessibility tree", file=sys.stderr); sys.exit(2)
        time.sleep(0.3)
    """

    func testAScreenReaderFindsTheBarAsASliderThatFollowsTheKeys() throws {
        try AppHarness.requireTools()
        try AccessibilityBus.requireTools()
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/cases.geojson"
        _ = try writeFixture(path)
        try h.launch([path, "--time", "when"], accessibilityBus: bus)
        let area = try h.waitForEvent("widget", timeout: 60) { $0["name"] as? String == "time-bar" }
        func read() throws -> [String: Any] {
            let json = try bus.python(TimeBarEndToEndTests.probe, display: h.display)
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
        let atEnd = try read()
        XCTAssertTrue((atEnd["description"] as? String ?? "").hasPrefix("2011-01-01 – 2011-12-31, "), "a new bar shows the year: \(atEnd)")
        try h.click(at: area.event["x"] as? Double ?? 0, area.event["y"] as? Double ?? 0)
        let seek = try h.waitForEvent("time-bar", after: area.index, timeout: 10) { $0["reason"] as? String == "seek" }
        try h.pressKey("Home")
        _ = try h.waitForEvent("time-bar", after: seek.index, timeout: 10) { $0["reason"] as? String == "start" }
        let start = try read()
        XCTAssertTrue((start["description"] as? String ?? "").hasPrefix("2011-01-01 – 2011-01-01, "), "Home: the start \(start)")
    }
}

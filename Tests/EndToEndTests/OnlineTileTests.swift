import Foundation
import XCTest

/// Online raster tiles in the real window, from a loopback tile server (test support): tiles
/// appear, the User-Agent is honest, requests stay within 4 in flight, a second launch is served
/// from the HTTP cache without a request, and a failing server stays quiet (no banner).
final class OnlineTileTests: XCTestCase {
    /// The loopback server (Tests/TilesTests/Support/tile_server.py) and its statistics file.
    final class TileServer {
        private let server: LoopbackServer
        let statsPath: String
        var port: Int { server.port }
        init(folder: String) throws {
            statsPath = folder + "/server-stats.json"
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("TilesTests/Support/tile_server.py").path
            server = try LoopbackServer(script: script, arguments: [statsPath])
        }
        func stats() -> [String: Any] {
            guard let data = FileManager.default.contents(atPath: statsPath),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
            return json
        }
        func stop() { server.stop() }
    }

    /// The window's environment: a private HTTP cache folder in the test's work folder.
    func environment(_ h: AppHarness) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = h.workDir + "/cache"
        return env
    }

    func testTilesLoadWithAnHonestUserAgentAndASecondLaunchComesFromTheCache() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let server = try TileServer(folder: h.workDir)
        defer { server.stop() }
        let env = environment(h)
        let url = "http://127.0.0.1:\(server.port)/png/{z}/{x}/{y}"
        try h.launch(["--dataset", "madrid", "--center", "40.42,-3.70", "--zoom", "6", "--basemap", url],
                     environment: env, timeout: 30)
        let done = try h.waitForEvent("tiles", timeout: 30) { ($0["loaded"] as? Int ?? 0) > 0 }
        let stats = server.stats()
        let agents = stats["user_agents"] as? [String] ?? []
        XCTAssertFalse(agents.isEmpty)
        XCTAssertTrue(agents.allSatisfy { $0.hasPrefix("ClusterMap/") && $0.contains("+http") }, "\(agents.prefix(2))")
        XCTAssertLessThanOrEqual(stats["max_in_flight"] as? Int ?? 99, 4, "at most 4 requests per host")
        let events = h.events().prefix(done.index + 1).filter { $0["event"] as? String == "tiles" }
        XCTAssertEqual(events.reduce(0) { $0 + ($1["failed"] as? Int ?? 0) }, 0)
        // Tiles keep arriving (4 at a time) and fade in: the view fills with the server's colour.
        let shot = try h.screenshot(name: "online", until: { $0.fraction(near: (0xC8, 0x3C, 0xB4), tolerance: 6) > 0.8 }, timeout: 20)
        let filled = shot.fraction(near: (0xC8, 0x3C, 0xB4), tolerance: 6)
        XCTAssertGreaterThan(filled, 0.8, "the server's tiles fill the view in \(shot.path)")
        // Quit the way a person does (the cache index is written at exit), then launch again.
        try h.key("ctrl+q")
        XCTAssertTrue(h.waitForExit(timeout: 15))
        // The window closed inside the key sequence, so its key releases never went out: release
        // them now, or X repeats Ctrl+Q into the next window.
        try h.run("xdotool", ["keyup", "ctrl+q"])
        let requestsBefore = server.stats()["count"] as? Int ?? 0
        try h.launch(["--dataset", "madrid", "--center", "40.42,-3.70", "--zoom", "6", "--basemap", url],
                     environment: env, timeout: 30)
        try h.waitForEvent("tiles", after: 0, timeout: 30) { ($0["loaded"] as? Int ?? 0) > 0 }
        XCTAssertEqual(server.stats()["count"] as? Int ?? -1, requestsBefore, "the second launch was served from the cache")
    }

    func testAFailingServerLeavesTheBuiltInMapAndNoBanner() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let server = try TileServer(folder: h.workDir)
        defer { server.stop() }
        let env = environment(h)
        try h.launch(["--dataset", "madrid", "--center", "40.42,-3.70", "--zoom", "6",
                      "--basemap", "http://127.0.0.1:\(server.port)/error/{z}/{x}/{y}"], environment: env, timeout: 30)
        try h.waitForEvent("tiles", timeout: 60) { ($0["failed"] as? Int ?? 0) > 0 }
        XCTAssertFalse(h.events().contains { $0["event"] as? String == "error" }, "no banner for failing tiles")
        let shot = try h.screenshot(name: "failing")
        XCTAssertGreaterThan(shot.fraction(near: MapColors.light.1), 0.2, "the built-in land is drawn")
    }

    /// `clustermap render --basemap URL` waits for the view's tiles (through the same HTTP stack
    /// and cache as the window); a second render is served from the cache; a server slower than
    /// `--tile-timeout` leaves the built-in map and one line on stderr.
    func testRenderWaitsForOnlineTilesAndUsesTheCache() throws {
        let folder = NSTemporaryDirectory() + "clustermap-render-online-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try TileServer(folder: folder)
        defer { server.stop() }
        let env = ["XDG_CACHE_HOME": folder + "/cache"]
        func render(_ kind: String, _ extra: [String] = []) throws -> (ProgramRun.Result, Screenshot) {
            let out = folder + "/\(kind)-\(UUID().uuidString).png"
            let r = try ProgramRun.clustermap(["render", "--center", "40.42,-3.70", "--zoom", "4", "--size", "640x400",
                                               "--basemap", "http://127.0.0.1:\(server.port)/\(kind)/{z}/{x}/{y}",
                                               "--output", out] + extra, environment: env)
            XCTAssertEqual(r.status, 0, r.err)
            return (r, try Screenshot(pngPath: out))
        }
        let (first, picture) = try render("png")
        XCTAssertEqual(first.err, "", "every tile came in")
        XCTAssertGreaterThan(picture.fraction(near: (0xC8, 0x3C, 0xB4), tolerance: 6), 0.8, "the server's tiles fill the picture")
        let stats = server.stats()
        let agents = stats["user_agents"] as? [String] ?? []
        XCTAssertFalse(agents.isEmpty)
        XCTAssertTrue(agents.allSatisfy { $0.hasPrefix("ClusterMap/") && $0.contains("+http") }, "\(agents.prefix(2))")
        let count = stats["count"] as? Int ?? 0
        let (_, again) = try render("png")
        XCTAssertEqual(server.stats()["count"] as? Int ?? -1, count, "the second render came from the HTTP cache")
        XCTAssertGreaterThan(again.fraction(near: (0xC8, 0x3C, 0xB4), tolerance: 6), 0.8)
        // Slower than the time-out: the built-in map and a single line saying so.
        let (slow, builtIn) = try render("slow", ["--tile-timeout", "0.1"])
        XCTAssertTrue(slow.err.contains("not in after 0.1 s"), slow.err)
        XCTAssertEqual(slow.err.split(separator: "\n").count, 1, slow.err)
        // Each tile counted once (issue 34): late tiles cancelled at the deadline are not "failed" too.
        XCTAssertFalse(slow.err.contains("failed"), slow.err)
        XCTAssertLessThan(builtIn.fraction(near: (0xC8, 0x3C, 0xB4), tolerance: 6), 0.05)
        XCTAssertGreaterThan(builtIn.fraction(near: MapColors.light.1), 0.2, "the built-in land is drawn")
    }
}

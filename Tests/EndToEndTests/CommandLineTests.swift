import XCTest
import Foundation
import MapModel
import MapRender

/// The command line without a display: help, bad options, headless render.
final class CommandLineTests: XCTestCase {
    private func run(_ args: [String]) throws -> ProgramRun.Result {
        try ProgramRun.clustermap(args)
    }

    func testHelpListsOptions() throws {
        let r = try run(["--help"])
        XCTAssertEqual(r.status, 0)
        for o in ["--dataset", "--center", "--zoom", "--size", "--reduce-motion", "--event-log"] {
            XCTAssertTrue(r.out.contains(o), o)
        }
    }

    func testBadOptionsAreOneLineAndStatusTwo() throws {
        for args in [["--bogus"], ["--zoom", "nineteen"], ["--center", "100,0"], ["--size", "0x0"], ["--dataset", "atlantis"],
                     ["render"], ["render", "--output"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, "\(args): \(r.err)")
            XCTAssertTrue(r.err.hasPrefix("clustermap: "), r.err)
            XCTAssertFalse(r.err.contains("Fatal error"), r.err)
        }
    }

    func testHeadlessRenderDrawsMapAndBubbles() throws {
        let out = NSTemporaryDirectory() + "render-\(UInt32.random(in: 0...UInt32.max)).png"
        let r = try run(["render", "--dataset", "madrid", "--output", out, "--size", "640x400"])
        XCTAssertEqual(r.status, 0, r.err)
        let image = try ImageSurface.load(png: URL(fileURLWithPath: out))
        XCTAssertEqual(image.pixelWidth, 640)
        XCTAssertEqual(image.pixelHeight, 400)
        // The nine Madrid places are one bubble at world view: find its fill colour (a bubble
        // whose ring shows the categories inside has the neutral mix fill, issue 32 item 5).
        let fill = MapColor(hex: BubbleLook.mixFill)
        var hits = 0
        for y in 0..<image.pixelHeight {
            for x in 0..<image.pixelWidth {
                let p = image.pixel(x: x, y: y)
                if abs(Double(p.r) / 255 - fill.red) < 0.05 && abs(Double(p.g) / 255 - fill.green) < 0.05
                    && abs(Double(p.b) / 255 - fill.blue) < 0.05 { hits += 1 }
            }
        }
        XCTAssertGreaterThan(hits, 200, "the bubble is drawn (\(hits) pixels of its colour) in \(out)")
    }

    func testRenderOfAMissingFileFailsCleanly() throws {
        let r = try run(["render", "/nonexistent/places.geojson", "--output", NSTemporaryDirectory() + "x.png"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("places.geojson"), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
    }
}

import Foundation
import MapRender
import XCTest

/// `render … --total` says what the numbers on the bubbles are, as the window's legend card does
/// (top-left; narrower than the window's collapse width: its title only); a table and a file on one
/// command line are refused (status 2) rather than the file silently dropped.
final class RenderLegendTests: XCTestCase {
    private func darkPixels(_ image: ImageSurface, x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y { for xx in x { let p = image.pixel(x: xx, y: yy); if Int(p.r) + Int(p.g) + Int(p.b) < 200 { n += 1 } } }
        return n
    }

    func testATotalIsSaidInTheLegendCard() throws {
        let path = NSTemporaryDirectory() + "legend-\(UInt32.random(in: 0...UInt32.max)).csv"
        try "lat,lon,deaths\n40.4,-3.7,5\n40.41,-3.69,7\n48.85,2.35,1\n".write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        var dark: [Int] = []
        for args in [[], ["--total", "sum:deaths"]] {
            let out = NSTemporaryDirectory() + "legend-\(UInt32.random(in: 0...UInt32.max)).png"
            addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
            let r = try ProgramRun.clustermap(["render", path, "--center", "44,0", "--zoom", "4", "--size", "900x600", "--output", out] + args)
            XCTAssertEqual(r.status, 0, r.err)
            // The card's lines: title and entries, in the chrome's dark text, left of x 250 and above y 140.
            dark.append(darkPixels(try ImageSurface.load(png: URL(fileURLWithPath: out)), x: 20..<250, y: 20..<140))
        }
        XCTAssertLessThan(dark[0], 40, "no legend without a total (\(dark))")
        XCTAssertGreaterThan(dark[1], 400, "the legend's words with a total (\(dark))")
    }

    func testATableBesideAFileIsRefused() throws {
        let table = "postgresql://nobody@127.0.0.1:1/none?table=public.quakes"
        for command in [["render", "--output", NSTemporaryDirectory() + "mixed.png", table, "places.csv"], [table, "places.csv"],
                        [table, table.replacingOccurrences(of: "quakes", with: "other")]] {
            let r = try ProgramRun.clustermap(command)
            XCTAssertEqual(r.status, 2, "\(command): \(r.err)")
            XCTAssertTrue(r.err.contains(command.count == 2 && command[1].hasPrefix("postgresql") ? "one database table at a time"
                                         : "a database table opens alone: public.quakes and places.csv"), r.err)
        }
    }
}

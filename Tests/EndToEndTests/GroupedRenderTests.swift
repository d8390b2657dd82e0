import XCTest
import Foundation
import MapRender

/// "Cluster by" drawn (issue 29 item 5), read back from the pixels of `clustermap render`: three
/// categories' places all on one spot come out as three bubbles side by side, each in its
/// category's colour, every one fully visible; mixed, they are one bubble in the count colour.
final class GroupedRenderTests: XCTestCase {
    /// The categorical palette's first three colours (`PlaceColors.categorical`).
    static let colours: [(Int, Int, Int)] = [(0x2F, 0x7E, 0xD8), (0xE0, 0x70, 0x2A), (0x13, 0x9E, 0x73)]

    func pixels(near c: (Int, Int, Int), in image: ImageSurface) -> Int {
        var n = 0
        for y in 0..<image.pixelHeight {
            for x in 0..<image.pixelWidth {
                let p = image.pixel(x: x, y: y)
                if abs(Int(p.r) - c.0) <= 6 && abs(Int(p.g) - c.1) <= 6 && abs(Int(p.b) - c.2) <= 6 { n += 1 }
            }
        }
        return n
    }

    func testThreeCategoriesOnOneSpotSitSideBySideInTheirColours() throws {
        var features: [String] = []
        for (k, kind) in ["alpha", "bravo", "charlie"].enumerated() {
            for i in 0..<5 {
                features.append("""
                {"type":"Feature","geometry":{"type":"Point","coordinates":[-3.7,40.42]},\
                "properties":{"name":"\(kind) \(i)","kind":"\(kind)","damage":\(100 * (k + 1) + i)}}
                """)
            }
        }
        let path = NSTemporaryDirectory() + "grouped-\(UInt32.random(in: 0...UInt32.max)).geojson"
        try ("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}")
            .write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        for grouped in [true, false] {
            let out = NSTemporaryDirectory() + "grouped-\(UInt32.random(in: 0...UInt32.max)).png"
            addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
            let r = try ProgramRun.clustermap(["render", path, "--center", "40.42,-3.7", "--zoom", "12", "--size", "400x300",
                                               "--total", "mean:damage", "--output", out] + (grouped ? ["--by", "kind"] : []))
            XCTAssertEqual(r.status, 0, r.err)
            let image = try ImageSurface.load(png: URL(fileURLWithPath: out))
            let counts = GroupedRenderTests.colours.map { pixels(near: $0, in: image) }
            if grouped {
                // A bubble of 5 places has a 15-px radius: ~700 px, of which its fill (inside the
                // white outline, less its number) is ~360. Each shows whole: as much as the others.
                for (k, n) in counts.enumerated() {
                    XCTAssertGreaterThan(n, 300, "category \(k) shows (\(counts)) in \(out)")
                    XCTAssertGreaterThan(Double(n), 0.85 * Double(counts.max()!), "category \(k) is not covered (\(counts))")
                }
            } else {
                XCTAssertLessThan(counts.max() ?? 0, 100, "mixed: one bubble in the count colour (\(counts)) in \(out)")
            }
        }
    }
}

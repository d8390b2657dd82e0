import XCTest
import Foundation

/// Options that `tiles` (and `clusters` on a database table) parse but do not apply yet are
/// refused with status 2, instead of writing every place as if it were the filtered answer.
final class UnreadOptionsRefusedTests: XCTestCase {
    private func csv() throws -> String {
        let path = NSTemporaryDirectory() + "unread-options-\(UInt32.random(in: 0...UInt32.max)).csv"
        try "lat,lon,mag,kind,when\n1,1,5,a,2010-01-01\n1.1,1.1,7,b,2012-01-01\n".write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testTilesRefusesFiltersAndGroupingItDoesNotApply() throws {
        let input = try csv()
        let output = NSTemporaryDirectory() + "unread-options-\(UInt32.random(in: 0...UInt32.max)).pmtiles"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: output) }
        let cases: [([String], String)] = [
            (["--where", "mag >= 6"], "--where (for a file) is not read by tiles yet"),
            (["--since", "2011-01-01"], "--since is not read by tiles yet"),
            (["--until", "2011-01-01"], "--until is not read by tiles yet"),
            (["--by", "kind"], "--by is not read by tiles yet"),
        ]
        for (args, message) in cases {
            let r = try ProgramRun.clustermap(["tiles", input, "--output", output, "--max-zoom", "2"] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(args): a tile file was written")
        }
        // Without them the same file still makes tiles.
        let r = try ProgramRun.clustermap(["tiles", input, "--output", output, "--max-zoom", "2"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    }

    func testClustersOnATableRefusesTheTimeWindowAndGroupingBeforeConnecting() throws {
        // Port 1: nothing listens, so only a refusal made while parsing gives status 2.
        let address = "postgresql://nobody@127.0.0.1:1/none?table=t"
        for (args, message) in [(["--since", "2011-01-01"], "--since is not read for a database table yet"),
                                (["--until", "2011-12-31"], "--until is not read for a database table yet"),
                                (["--by", "kind"], "--by is not read for a database table yet")] {
            let r = try ProgramRun.clustermap(["clusters", address, "--zoom", "1"] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
            XCTAssertTrue(r.out.isEmpty, "\(args)")
        }
    }
}

import Foundation
import GeoData
import XCTest
@testable import PostGIS

/// The time bar over a table's date column (issue 31 with SPEC §10): its extent and its rows per
/// bin read on the server equal the file bar's histogram of the same values in process
/// (`PropertyColumn.histogram`: same bins, a value on an edge in the same bin) and SQL's own
/// per-bin counts, for timestamptz, date and timestamp columns in a database whose time zone is
/// not UTC; the first date column is the default; a sampled big table says so.
extension PostGISColumnCatalogTests {
    func testTheTimeBarsBinsEqualTheFileBarsAndSQLsCountsPerBin() throws {
        let r = try reader()
        let local = Self.inProcess()
        XCTAssertEqual(try r.dateColumns(), ["at", "day", "local"], "in the table's column order")
        let first = try XCTUnwrap(try r.timeBar(column: nil))
        XCTAssertEqual(first.column, "at", "the first date column, as a file's bar takes its first date property")
        guard let s = Self.server else { throw XCTSkip("no server") }
        let c = try s.connect()
        for name in ["at", "day", "local"] {
            let bar = try XCTUnwrap(try r.timeBar(column: name, bins: 120), name)
            XCTAssertNil(bar.sampledPercent)
            let mine = try XCTUnwrap(local.column(name), name)
            XCTAssertEqual(bar.extent, mine.numberRange(), name)
            XCTAssertEqual(bar.counts, mine.histogram(bins: 120, over: bar.extent), name)
            // SQL's own count per bin, bin by bin, from the UTC seconds of each row.
            let epoch = name == "at" ? "extract(epoch FROM \(name))" : "extract(epoch FROM \(name)::timestamp)"
            let lo = bar.extent.lowerBound, width = (bar.extent.upperBound - bar.extent.lowerBound) / 120
            let rows = try c.query("SELECT LEAST(floor((\(epoch)::float8 - $1::float8) / $2::float8)::int4, 119), count(*)::int8 FROM things "
                                   + "WHERE geom IS NOT NULL AND \(name) IS NOT NULL GROUP BY 1", ["\(lo)", "\(width)"])
            var sql = [Int](repeating: 0, count: 120)
            for i in 0..<rows.rowCount {
                let b = Int(rows.integer(i, 0)!)
                guard sql.indices.contains(b) else { XCTFail("\(name): a row in SQL's bin \(b), outside the bar"); continue }
                sql[b] += Int(rows.integer(i, 1)!)
            }
            // Division by the width vs the file's (v − lo) / span × bins may part on a bin's very
            // edge; no value of this fixture sits within a millisecond of one.
            XCTAssertEqual(bar.counts, sql, name)
            XCTAssertEqual(bar.counts.reduce(0, +), Int(try c.query("SELECT count(\(name))::int8 FROM things WHERE geom IS NOT NULL").integer(0, 0)!))
        }
        XCTAssertThrowsError(try r.timeBar(column: "mag")) { XCTAssertTrue("\($0)".contains("holds double precision, not dates"), "\($0)") }
        XCTAssertThrowsError(try r.timeBar(column: "nope")) { XCTAssertTrue("\($0)".contains("has no column 'nope'"), "\($0)") }
    }

    func testABigTablesTimeBarCountsFromASampleWithTheExactExtent() throws {
        let r = try reader()
        r.sampleAbove = 100
        r.sampleRows = 1500
        let bar = try XCTUnwrap(try r.timeBar(column: "at"))
        XCTAssertEqual(try XCTUnwrap(bar.sampledPercent), 50, accuracy: 0.5)
        XCTAssertEqual(bar.extent, Self.inProcess().column("at")?.numberRange(), "the extent is read from every row")
        let present = Self.placed.filter { Self.at($0) != nil }.count
        XCTAssertEqual(Double(bar.counts.reduce(0, +)), Double(present), accuracy: Double(present) * 0.1, "scaled to the whole table")
    }
}

import ClusterCore
import Foundation
import GeoData
import XCTest
@testable import PostGIS

/// `--where` in the filter grammar against the real server: the rows it passes are exactly those
/// the in-process filter evaluation passes over the same values (hostile texts included), every
/// value is a parameter, and names that are not columns are refused.
extension PostGISSourceTests {
    private func serverCount(_ src: PostGISSource, _ filter: String, algorithm: PostGISViewOptions.Algorithm = .grid) throws -> Int {
        var o = PostGISViewOptions()
        o.algorithm = algorithm
        o.filter = try PostGISWhere(parsing: filter)
        return try src.clusters(in: .world, zoom: 0, options: o).items.map(\.count).reduce(0, +)
    }

    private func localCount(_ filter: String) throws -> Int {
        let table = PropertyTable(count: Self.points.count, values: [
            (name: "mag", values: Self.points.map { PropertyValue.number($0.mag) }),
            (name: "kind", values: Self.points.map { PropertyValue.string($0.kind) }),
        ])
        return try FilterEvaluator(table: table).selection(for: filter).chosenCount
    }

    func testFilterGrammarPassesTheSameRowsAsTheInProcessFilters() throws {
        let src = try source()
        let filters = [
            "mag >= 6", "mag >= 6 and kind = 'a'", "not (kind in ('a', 'b'))", "kind contains '%_'",
            "kind = 'c''; DROP TABLE pts; --'", "kind = \"100%_\\\\x\"", "kind contains 'ÜN'", "mag < 3 or kind = town",
            "kind > 'b'", "mag != 5", "kind is null", "kind is not null", "(mag = 1 or mag = 2) and not kind contains 'a'",
            "kind not in ('town', 'same')", "mag in (1, 2.5, 12)", "kind not contains 'x'",
        ]
        for f in filters {
            let expected = try localCount(f)
            XCTAssertEqual(try serverCount(src, f), expected, f)
            XCTAssertEqual(try serverCount(src, f, algorithm: .hierarchical), expected, "\(f), fetched")
        }
        XCTAssertGreaterThan(try localCount("kind = 'c''; DROP TABLE pts; --'"), 0, "the hostile kind is in the data")
        // Still all there.
        XCTAssertEqual(try src.clusters(in: .world, zoom: 0, options: PostGISViewOptions()).items.map(\.count).reduce(0, +),
                       Self.points.count)
    }

    func testFilterValuesAreParametersAndNamesMustBeColumns() throws {
        let src = try source()
        let sql = try PostGISWhere(parsing: "kind = 'x''); DROP TABLE pts; --' or mag in (1, 2)")
            .sql(table: src.table, quote: { "\"\($0)\"" }, firstParameter: 5)
        XCTAssertFalse(sql.sql.contains("DROP"), sql.sql)
        XCTAssertEqual(sql.values, ["x'); DROP TABLE pts; --", "1.0", "2.0"])
        XCTAssertTrue(sql.sql.contains("$5") && sql.sql.contains("$7"), sql.sql)
        for bad in ["`kind\"; DROP TABLE pts; --` = 'x'", "nosuch > 3"] {
            XCTAssertThrowsError(try serverCount(src, bad), bad) {
                guard case PostGISError.badFilter(let m)? = $0 as? PostGISError else { return XCTFail("\($0)") }
                XCTAssertTrue(m.contains("has no column"), m)
            }
        }
        XCTAssertThrowsError(try serverCount(src, "mag = 'abc'")) { XCTAssertTrue("\($0)".contains("can't be compared"), "\($0)") }
        XCTAssertThrowsError(try PostGISWhere(parsing: "mag >= ")) { XCTAssertTrue("\($0)".contains("column"), "\($0)") }
    }

    func testAMissingValueFailsEveryConditionAsForFiles() throws {
        guard let s = Self.server else { throw XCTSkip("no server") }
        let c = try s.connect()
        _ = try c.query("CREATE TABLE gaps (id serial PRIMARY KEY, geom geometry(Point, 4326), mag float8, kind text)")
        _ = try c.query("INSERT INTO gaps (geom, mag, kind) VALUES (ST_MakePoint(1, 1), 1, 'a'), (ST_MakePoint(2, 2), NULL, NULL), "
                        + "(ST_MakePoint(3, 3), 5, NULL)")
        let src = try source("gaps")
        XCTAssertEqual(try serverCount(src, "mag != 1"), 1, "NULL != 1 is false, as for files")
        XCTAssertEqual(try serverCount(src, "not mag = 1"), 2, "not makes it true")
        XCTAssertEqual(try serverCount(src, "kind is null"), 2)
        XCTAssertEqual(try serverCount(src, "not (kind = 'a' or mag > 3)"), 1)
    }
}

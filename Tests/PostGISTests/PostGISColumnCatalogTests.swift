import Foundation
import GeoData
import XCTest
@testable import PostGIS

/// The filter panel's catalogue of a table read from the server (issue 31 item 5) equals SQL's own
/// counts and the in-process catalogue of the same values; conditions the panel makes, turned into
/// parameterised WHERE clauses, pass exactly the rows the in-process filter passes (hostile texts).
final class PostGISColumnCatalogTests: XCTestCase {
    nonisolated(unsafe) static var server: TestPostgres?
    static let rows = 3000
    static let kinds = ["quake", "it's \"quoted\"", "100%_done", "back\\slash", "Ünïcode ✓", "x'); DROP TABLE things; --", "_"]

    /// Row i's values (nil: NULL). Dates as ISO texts (UTC).
    static func mag(_ i: Int) -> Double? { i % 10 == 0 ? nil : Double(i % 97) / 4 }
    static func kind(_ i: Int) -> String? { i % 11 == 0 ? nil : kinds[i % kinds.count] }
    static func flag(_ i: Int) -> Bool? { i % 5 == 0 ? nil : i % 3 == 0 }
    static func at(_ i: Int) -> Double? { i % 13 == 0 ? nil : 1_700_000_000 + Double(i) * 3599 }
    static func day(_ i: Int) -> String { String(DateText.text(1_577_836_800 + Double(i % 400) * 86400).prefix(10)) }

    override class func setUp() {
        super.setUp()
        do {
            let s = try TestPostgres()
            server = s
            let c = try s.connect()
            // Not UTC: wall-clock timestamps must still mean UTC, as the dates of files do.
            _ = try c.query("ALTER DATABASE test SET timezone TO 'America/New_York'")
            _ = try c.query("CREATE TABLE things (id bigserial PRIMARY KEY, geom geometry(Point, 4326), mag float8, n integer, kind text, "
                            + "note varchar(40), flag boolean, at timestamptz, day date, local timestamp, js jsonb)")
            func array(_ v: [String?]) -> String {
                "{" + v.map { $0.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
                    ?? "NULL" }.joined(separator: ",") + "}"
            }
            let r = 0..<rows
            _ = try c.query("INSERT INTO things (geom, mag, n, kind, note, flag, at, day, local, js) "
                            + "SELECT CASE WHEN o % 150 = 7 THEN NULL ELSE ST_SetSRID(ST_MakePoint(o % 90, o % 40), 4326) END, "
                            + "m, o % 37, k, 'note ' || o, f, to_timestamp(a), d::date, to_timestamp(a) AT TIME ZONE 'UTC', '{\"a\": 1}' "
                            + "FROM unnest($1::float8[], $2::text[], $3::boolean[], $4::float8[], $5::text[]) WITH ORDINALITY AS u(m, k, f, a, d, o)",
                            [array(r.map { mag($0).map { "\($0)" } }), array(r.map(kind)), array(r.map { flag($0).map { "\($0)" } }),
                             array(r.map { at($0).map { "\($0)" } }), array(r.map(day))])
            _ = try c.query("ANALYZE things")
        } catch {
            XCTFail("test server: \(error)")
        }
    }

    override class func tearDown() {
        server = nil
        super.tearDown()
    }

    func reader() throws -> PostGISColumnCatalogReader {
        guard let s = Self.server else { throw XCTSkip("no server (see class setUp failure)") }
        return PostGISColumnCatalogReader(source: try PostGISSource(address: s.address("things")), statementTimeoutMilliseconds: 10_000)
    }

    /// The rows with a geometry (ORDINALITY starts at 1: row i has o = i + 1).
    static var placed: [Int] { (0..<rows).filter { ($0 + 1) % 150 != 7 } }

    /// The same values in process, as a file's properties would be.
    static func inProcess() -> FilterEvaluator {
        let p = placed
        func v<T>(_ f: (Int) -> T?, _ make: (T) -> PropertyValue) -> [PropertyValue] { p.map { f($0).map(make) ?? .null } }
        let table = PropertyTable(count: p.count, values: [
            (name: "mag", values: v(mag, PropertyValue.number)),
            (name: "n", values: p.map { .number(Double(($0 + 1) % 37)) }),
            (name: "kind", values: v(kind, PropertyValue.string)),
            (name: "note", values: p.map { .string("note \($0 + 1)") }),
            (name: "flag", values: v(flag, PropertyValue.bool)),
            (name: "at", values: v(at) { .string(DateText.text($0)) }),
            (name: "day", values: p.map { .string(day($0)) }),
            (name: "local", values: v(at) { .string(String(DateText.text($0).dropLast())) }),
        ])
        return FilterEvaluator(table: table)
    }

    func testTypesCategoriesAndHistogramsEqualSQLAndTheInProcessCatalogue() throws {
        let r = try reader()
        let catalog = try r.catalog(bins: 24)
        XCTAssertFalse(catalog.isEstimate)
        XCTAssertEqual(catalog.rowCount, Self.placed.count)
        XCTAssertEqual(catalog.columns.map(\.name), ["id", "mag", "n", "kind", "note", "flag", "at", "day", "local"], "geometry and json left out")
        let types = Dictionary(uniqueKeysWithValues: catalog.columns.map { ($0.name, $0.type) })
        XCTAssertEqual(types, ["id": .number, "mag": .number, "n": .number, "kind": .category, "note": .text, "flag": .boolean,
                               "at": .date, "day": .date, "local": .date])
        let c = try Self.server!.connect()
        let local = Self.inProcess()
        for column in catalog.columns {
            let q = "\"\(column.name)\""
            let present = try c.query("SELECT count(\(q))::int8 FROM things WHERE geom IS NOT NULL").integer(0, 0)
            XCTAssertEqual(Int64(column.present), present, column.name)
            XCTAssertEqual(column.present + column.missing, Self.placed.count, column.name)
            if column.type == .category || column.type == .boolean {
                let g = try c.query("SELECT \(q)::text, count(*)::int8 FROM things WHERE geom IS NOT NULL AND \(q) IS NOT NULL GROUP BY 1")
                var sql: [String: Int] = [:]
                for i in 0..<g.rowCount { sql[g.text(i, 0)!] = Int(g.integer(i, 1)!) }
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: column.values.map { ($0.text, $0.count) }), sql, column.name)
                XCTAssertEqual(column.values.map(\.count), column.values.map(\.count).sorted(by: >), "most common first")
                let mine = local.column(column.name)!.textCounts()
                XCTAssertEqual(Set(column.values.map { "\($0.text)=\($0.count)" }), Set(mine.map { "\($0.text)=\($0.count)" }), column.name)
            }
            if column.type == .number || column.type == .date, column.name != "id" {
                let mine = local.column(column.name)!
                XCTAssertEqual(column.range, mine.numberRange(), column.name)
                XCTAssertEqual(column.histogram, mine.histogram(bins: 24, over: column.range!), column.name)
                XCTAssertEqual(column.histogram.reduce(0, +), column.present, column.name)
            }
        }
        // The person may read the category as free text, or the text as a category.
        let swapped = try r.catalog(types: ["kind": .text, "note": .category])
        XCTAssertEqual(swapped.column("kind")?.type, .text)
        XCTAssertEqual(swapped.column("note")?.type, .category)
        XCTAssertEqual(swapped.column("note")?.values.count, 1000, "at most PropertyTable.categoryLimit values")
    }

    func testABigTableIsReadFromASampleAndSaysSo() throws {
        let r = try reader()
        r.sampleAbove = 100
        r.sampleRows = 1500
        let catalog = try r.catalog()
        let percent = try XCTUnwrap(catalog.sampledPercent)
        XCTAssertEqual(percent, 50, accuracy: 0.5, "1,500 of the 3,000 rows the statistics estimate")
        for column in catalog.columns {
            XCTAssertEqual(column.present + column.missing, catalog.rowCount, column.name)
            if column.type == .number || column.type == .date {
                XCTAssertEqual(column.histogram.reduce(0, +), column.present, accuracy: 2 * catalog.columns.count, column.name)
            }
        }
        // Categories and booleans counted over every row: every value, exact counts.
        let exact = try self.reader().catalog()
        for name in ["kind", "flag"] {
            XCTAssertEqual(catalog.column(name)?.values, exact.column(name)?.values, name)
            XCTAssertEqual(catalog.column(name)?.type, exact.column(name)?.type, name)
        }
        // Scaled to the server's row estimate (3,000), less the rows without a geometry.
        XCTAssertEqual(Double(catalog.rowCount), Double(Self.placed.count), accuracy: 0.02 * Double(Self.placed.count))
    }

    func testPanelConditionsBecomeWhereClausesPassingWhatTheInProcessFilterPasses() throws {
        let r = try reader()
        let local = Self.inProcess()
        let conditions: [FilterCondition] = [
            .init(property: "kind", kind: .oneOf(["it's \"quoted\"", "x'); DROP TABLE things; --"])),
            .init(property: "kind", kind: .oneOf(["100%_done", "back\\slash", "Ünïcode ✓", "_"])),
            .init(property: "kind", kind: .oneOf([])),
            .init(property: "kind", kind: .contains("%_")),
            .init(property: "kind", kind: .contains("\\")),
            .init(property: "kind", kind: .contains("ÜNÏ")),
            .init(property: "kind", kind: .contains("_")),
            .init(property: "kind", kind: .contains("'")),
            .init(property: "note", kind: .contains("12")),
            .init(property: "mag", kind: .numberRange(lower: 2.5, upper: 10)),
            .init(property: "mag", kind: .numberRange(lower: nil, upper: 3)),
            .init(property: "n", kind: .numberRange(lower: 30, upper: nil)),
            .init(property: "flag", kind: .isTrue(false)),
            .init(property: "at", kind: .dateRange(lower: 1_700_000_000 + 500 * 3599, upper: nil)),
            .init(property: "day", kind: .dateRange(lower: 1_577_836_800 + 30 * 86400, upper: 1_577_836_800 + 100 * 86400)),
            .init(property: "local", kind: .dateRange(lower: nil, upper: 1_700_000_000 + 1000 * 3599)),
        ]
        var expressions = conditions.map(\.expression)
        expressions.append("(\(conditions[1].expression)) and (\(conditions[9].expression)) and not (\(conditions[12].expression))")
        for e in expressions {
            let expected = try local.selection(for: e).chosenCount
            XCTAssertEqual(try r.count(where: PostGISWhere(parsing: e)), expected, e)
        }
        XCTAssertEqual(try r.count(where: nil), Self.placed.count)
        XCTAssertGreaterThan(try local.selection(for: conditions[0].expression).chosenCount, 0, "the hostile kinds are in the data")
    }

    func testSinceAndUntilOnATableMeanWhatTheyMeanForFiles() throws {
        let r = try reader()
        let local = Self.inProcess()
        let windows: [(String?, String?, String)] = [
            ("2023-12-01", nil, "at"), (nil, "2023-12-10", "at"), ("2023-11-20T05:00:00Z", "2023-12-02T10:30:00Z", "at"),
            ("2020-02-01", "2020-02-29", "day"), ("2023-12-01", "2023-12-31", "local"),
        ]
        for (since, until, time) in windows {
            var settings = FilterSettings()
            settings.since = since; settings.until = until; settings.timeProperty = time
            let expected = try XCTUnwrap(FilterResult.apply(settings, evaluator: local).selection).chosenCount
            let text = try XCTUnwrap(PostGISWhere.timeWindow(since: since, until: until, timeColumn: time, table: r.source.table))
            XCTAssertEqual(try r.count(where: PostGISWhere(parsing: text)), expected, text)
            XCTAssertGreaterThan(expected, 0, text)
        }
        XCTAssertNil(try PostGISWhere.timeWindow(since: nil, until: nil, timeColumn: nil, table: r.source.table))
        XCTAssertThrowsError(try PostGISWhere.timeWindow(since: "2023-12-01", until: nil, timeColumn: nil, table: r.source.table)) {
            XCTAssertTrue("\($0)".contains("several date columns (at, day, local)"), "\($0)")
        }
        XCTAssertThrowsError(try PostGISWhere.timeWindow(since: "yesterday", until: nil, timeColumn: "at", table: r.source.table))
        XCTAssertThrowsError(try PostGISWhere.timeWindow(since: "2023-12-01", until: nil, timeColumn: "kind", table: r.source.table)) {
            XCTAssertTrue("\($0)".contains("not dates"), "\($0)")
        }
    }
}

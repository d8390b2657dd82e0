import XCTest
import GeoData
@testable import AppSupport

/// The window's and `render`'s filter options: the same settings as `clustermap clusters`.
final class FilterLaunchOptionsTests: XCTestCase {
    func testFilterOptionsAreCollected() throws {
        let o = try LaunchOptions.parse(["q.geojson", "--where", "mag >= 6", "--where=type = earthquake", "--since", "2011-01-01",
                                         "--until", "2011-12-31", "--time", "time", "--by", "type", "--total", "sum:deaths",
                                         "--type", "code=category"])
        XCTAssertEqual(o.files, ["q.geojson"])
        XCTAssertEqual(o.filters.conditions, ["mag >= 6", "type = earthquake"])
        XCTAssertEqual(o.filters.since, "2011-01-01")
        XCTAssertEqual(o.filters.until, "2011-12-31")
        XCTAssertEqual(o.filters.timeProperty, "time")
        XCTAssertEqual(o.filters.groupProperty, "type")
        XCTAssertEqual(o.filters.total?.text, "sum:deaths")
        XCTAssertEqual(o.filters.types, ["code": .category])
        XCTAssertTrue(LaunchOptions.helpText(program: "clustermap").contains("--where EXPR"))
    }

    func testBadFilterOptionsSayWhereTheMistakeIs() {
        func message(_ args: [String]) -> String? {
            do { _ = try LaunchOptions.parse(args); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(message(["--where", "mag >="]), "--where 'mag >=': column 7: expected a value after '>='")
        XCTAssertEqual(message(["--since", "soon"]), "--since 'soon': not a date (write 2011-01-01 or 2011-01-01T12:00:00Z)")
        XCTAssertNotNil(message(["--total", "sum"]))
        XCTAssertNotNil(message(["--type", "x=colour"]))
        XCTAssertNotNil(message(["--where"]))
    }
}

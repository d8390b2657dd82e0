import XCTest
import GeoData
@testable import AppSupport

/// The panel's rows are rebuilt only when something but the time window changed (review-s16
/// finding 7: every time-bar step rebuilt them, stealing the focus and resetting the scroll).
final class FilterPanelRefreshTests: XCTestCase {
    private func settings(_ conditions: [String] = ["mag >= 6"], since: String? = nil, until: String? = nil) -> FilterSettings {
        var s = FilterSettings()
        s.conditions = conditions
        s.timeProperty = "date"
        s.since = since
        s.until = until
        return s
    }

    func testATimeBarStepUpdatesInPlace() {
        let a = settings(since: "1990-01-01T00:00:00Z", until: "1990-01-07T23:59:59Z")
        let b = settings(since: "1990-01-02T03:00:00Z", until: "1990-01-09T02:59:59Z")
        XCTAssertEqual(FilterPanelRefresh.decide(built: a, asked: b), .inPlace)
        // The bar shown or closed (a window appears or goes): still only the date row moves.
        XCTAssertEqual(FilterPanelRefresh.decide(built: settings(), asked: b), .inPlace)
        XCTAssertEqual(FilterPanelRefresh.decide(built: b, asked: settings()), .inPlace)
        XCTAssertEqual(FilterPanelRefresh.decide(built: a, asked: a), .inPlace)
    }

    func testOtherChangesRebuild() {
        let a = settings(since: "1990-01-01T00:00:00Z")
        XCTAssertEqual(FilterPanelRefresh.decide(built: nil, asked: a), .rebuild)
        XCTAssertEqual(FilterPanelRefresh.decide(built: a, asked: settings([], since: "1990-01-01T00:00:00Z")), .rebuild)
        var typed = a
        typed.types["mag"] = .category
        XCTAssertEqual(FilterPanelRefresh.decide(built: a, asked: typed), .rebuild)
        var otherTime = a
        otherTime.timeProperty = "updated"
        XCTAssertEqual(FilterPanelRefresh.decide(built: a, asked: otherTime), .rebuild)
    }
}

import XCTest
@testable import AppSupport

/// `--dataset` names every dataset there is, the replay included, and `render` says plainly that
/// it can't draw a replay (it drew the world cities instead, silently).
final class DatasetOptionTests: XCTestCase {
    func testHelpAndTheUnknownDatasetErrorNameTheReplay() {
        XCTAssertTrue(LaunchOptions.helpText(program: "clustermap").contains("live-earthquakes"))
        XCTAssertThrowsError(try LaunchOptions.parse(["--dataset", "atlantis"])) { e in
            let m = (e as? LaunchOptions.ParseError)?.message ?? ""
            XCTAssertTrue(m.contains("live-earthquakes") && m.contains("lisbon"), m)
        }
        XCTAssertEqual(try LaunchOptions.parse(["--dataset", "live-earthquakes"]).dataset, "live-earthquakes")
    }

    func testRenderRefusesTheReplayWithAReason() throws {
        XCTAssertThrowsError(try LaunchOptions.parse(["--output", "o.png", "--dataset", "live-earthquakes"], mode: .render)) { e in
            let m = (e as? LaunchOptions.ParseError)?.message ?? ""
            XCTAssertTrue(m.contains("--dataset earthquakes"), m)
            XCTAssertFalse(m.contains("\n"))
        }
        XCTAssertEqual(try LaunchOptions.parse(["--output", "o.png", "--dataset", "earthquakes"], mode: .render).dataset, "earthquakes")
    }
}

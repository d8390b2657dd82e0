import XCTest

/// The legend card never sits over data (issue 32 item 5): world cities opens on the whole world
/// with bubbles in the top-left corner, so the card folds to its title; Madrid is framed beside
/// the card, which stays open.
final class LegendFoldE2ETests: XCTestCase {
    private func foldAtOpening(_ dataset: String) throws -> [String: Any] {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", dataset, "--size", "1100x700"])
        return try h.waitForEvent("legend-fold", timeout: 30).event
    }

    func testWorldCitiesFoldsTheLegendOverItsBubbles() throws {
        let e = try foldAtOpening("world-cities")
        XCTAssertEqual(e["covers"] as? Bool, true, "\(e)")
        XCTAssertEqual(e["expanded"] as? Bool, false, "\(e)")
    }

    func testMadridKeepsTheLegendOpenBesideItsData() throws {
        let e = try foldAtOpening("madrid")
        XCTAssertEqual(e["covers"] as? Bool, false, "\(e)")
        XCTAssertEqual(e["expanded"] as? Bool, true, "\(e)")
    }
}

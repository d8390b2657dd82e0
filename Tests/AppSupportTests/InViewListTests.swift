import XCTest
import ClusterCore
import GeoData
import AppSupport
import MapModel

/// The "in view" list's rows and their minimal updates (SPEC §5.7).
final class InViewListTests: XCTestCase {
    func testSpliceKeepsCommonPrefixAndSuffix() {
        XCTAssertNil(ListSplice.between([1, 2, 3], [1, 2, 3]))
        XCTAssertEqual(ListSplice.between([1, 2, 3, 4], [1, 9, 4]), ListSplice(position: 1, removed: 2, inserted: 1..<2))
        XCTAssertEqual(ListSplice.between([Int](), [5, 6]), ListSplice(position: 0, removed: 0, inserted: 0..<2))
        XCTAssertEqual(ListSplice.between([5, 6], []), ListSplice(position: 0, removed: 2, inserted: 0..<0))
        XCTAssertEqual(ListSplice.between([1, 2], [1, 2, 3]), ListSplice(position: 2, removed: 0, inserted: 2..<3))
        // Repeated elements: prefix and suffix never overlap.
        XCTAssertEqual(ListSplice.between([7, 7], [7, 7, 7]), ListSplice(position: 2, removed: 0, inserted: 2..<3))
    }

    func testSpliceReproducesTheNewList() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let old = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Int.random(in: 0...3, using: &rng) }
            let new = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Int.random(in: 0...3, using: &rng) }
            guard let s = ListSplice.between(old, new) else { XCTAssertEqual(old, new); continue }
            var applied = old
            applied.replaceSubrange(s.position..<(s.position + s.removed), with: new[s.inserted])
            XCTAssertEqual(applied, new, "\(old) → \(new) via \(s)")
        }
    }

    func testBubbleSummarySplitsIntoTwoLinesAndKeepsTheExactCount() {
        let parts = InViewRow.splitSummary("1,234 places, mostly museum")
        XCTAssertEqual(parts.title, "1,234 places")
        XCTAssertEqual(parts.subtitle, "mostly museum")
        XCTAssertEqual(InViewRow.splitSummary("2 places").subtitle, "")
        let row = InViewRow(id: .cluster(40), kind: .bubble, count: 1234, title: parts.title, subtitle: parts.subtitle,
                            name: "1,234 places, mostly museum")
        XCTAssertTrue(row.accessibleLabel.hasPrefix("1,234 places, mostly museum"))
    }

    func testASmallBubbleNamesItsPlaces() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Prado Museum"},"geometry":{"type":"Point","coordinates":[-3.6921,40.4138]}},
        {"type":"Feature","properties":{"name":"Thyssen Museum"},"geometry":{"type":"Point","coordinates":[-3.6949,40.4160]}},
        {"type":"Feature","properties":{"name":"Bernabéu Stadium"},"geometry":{"type":"Point","coordinates":[-3.6883,40.4531]}}]}
        """
        let s = MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "madrid.geojson")])
        let cam = Camera(center: GeoCoordinate(latitude: 40.43, longitude: -3.69), zoom: 12,
                         viewportSize: ScreenSize(width: 800, height: 600))
        let scene = SceneBuilder().build(camera: cam, items: s.visibleItems(for: cam), places: s.places, state: SceneState())
        XCTAssertEqual(scene.bubbles.count, 1, "the two museums share a bubble")
        let rows = s.inViewRows(order: scene.bubbles.map(\.id) + scene.pins.map(\.id), scene: scene)
        let bubble = try XCTUnwrap(rows.first { $0.kind == .bubble })
        XCTAssertEqual(bubble.title, "2 places")
        XCTAssertEqual(Set(bubble.subtitle.components(separatedBy: ", ")), ["Prado Museum", "Thyssen Museum"])
        XCTAssertEqual(bubble.name, "2 places", "what screen readers and the event log say is unchanged")
    }

    func testPlaceLabelSaysNameAndLabelOrCategoryOnce() {
        let priced = InViewRow(id: .point(0), kind: .place, count: 1, title: "Rooftop Loft", subtitle: "$120",
                               name: "Rooftop Loft, $120")
        XCTAssertEqual(priced.accessibleLabel, "Rooftop Loft, $120")
        let museum = InViewRow(id: .point(1), kind: .place, count: 1, title: "Prado Museum", subtitle: "museum",
                               name: "Prado Museum")
        XCTAssertEqual(museum.accessibleLabel, "Prado Museum, museum")
    }
}

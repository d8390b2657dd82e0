import ClusterCore
import GeoData
import MapModel
import XCTest
@testable import AppSupport

/// A table's totals on its bubbles and the key its filter is remembered under (issue 31 item 2).
final class TableTotalsTests: XCTestCase {
    func testATablesKeyNeverHoldsItsPassword() {
        let cases: [(String, String)] = [
            ("postgresql://u:secret@127.0.0.1:5432/test?table=piles", "table:postgresql://u@127.0.0.1:5432/test?table=piles"),
            ("postgresql://u@127.0.0.1:5432/test?table=piles", "table:postgresql://u@127.0.0.1:5432/test?table=piles"),
            ("postgres://u:p%40ss:w@[::1]:5432/db?password=zz&table=s.t&sslmode=disable",
             "table:postgres://u@[::1]:5432/db?table=s.t&sslmode=disable"),
            ("postgresql://host:5432/db?table=t", "table:postgresql://host:5432/db?table=t"),
            ("postgresql:///db?table=t&PASSWORD=x", "table:postgresql:///db?table=t"),
            ("postgresql://u:secret@h/db?table=a%40b", "table:postgresql://u@h/db?table=a%40b"),
        ]
        for (address, key) in cases {
            let made = SavedFilter.source(tableAddress: address)
            XCTAssertEqual(made, key, address)
            for secret in ["secret", "zz", "p%40ss", "PASSWORD"] { XCTAssertFalse(made.contains(secret), made) }
        }
    }

    func testRemoteBubblesShowTheirTotalAbbreviatedOnlyWhenAskedFor() {
        let items: [RemoteView.Item] = [
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 10, longitude: 0), count: 40, isCluster: true, key: 1)
                .with(facts: [RemoteView.Fact("damage_sum", .number(12_345)), RemoteView.Fact("damage_min", .number(1)),
                              RemoteView.Fact("damage_max", .number(900))]),
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 0, longitude: 0), count: 7, isCluster: true, key: 2),
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 20, longitude: 0), count: 5, isCluster: true, key: 3)
                .with(facts: [RemoteView.Fact("damage_max", .number(0.125))]),
        ]
        func labels(_ asked: Bool) -> [String] {
            let session = MapDataSession.remote(items, zoom: 5, name: "public.piles",
                                                total: asked ? FilterSettings.TotalSetting(kind: .sum, property: "damage") : nil)
            var scene = Scene()
            scene.bubbles = session.remote!.items.map {
                SceneBubble(id: SceneItemID($0), center: ScreenPoint(x: 0, y: 0), radius: 20, count: $0.count, label: "\($0.count)", step: 0)
            }
            session.remote!.labelTotals(in: &scene)
            return scene.bubbles.map(\.label)
        }
        XCTAssertEqual(labels(true), ["12k", "–", "0.13"])
        XCTAssertEqual(labels(false), ["40", "7", "5"])
        let legend = MapDataSession.remote(items, zoom: 5, name: "public.piles", total: FilterSettings.TotalSetting(kind: .sum, property: "damage"))
        XCTAssertEqual(legend.remote?.legend(over: legend.legend)?.entries.last?.text, "Number on bubbles: total damage; size follows it")
    }

    /// A table's sum sizes its bubbles as a file's sum does (area follows the weight's share of the
    /// heaviest, within `weightRadii`), whatever their counts; a max only labels them.
    func testATablesSumSizesItsBubblesByTheSumAsAFilesDoes() {
        let sums: [Double?] = [100, 400, nil, 36]
        let items = sums.enumerated().map { i, sum in
            RemoteView.Item(coordinate: GeoCoordinate(latitude: Double(i), longitude: 0), count: 50 - i * 10, isCluster: true, key: Int64(i + 1))
                .with(facts: sum.map { [RemoteView.Fact("damage_sum", .number($0)), RemoteView.Fact("damage_max", .number($0))] } ?? [])
        }
        func radii(_ kind: ClusterTotal) -> [Double] {
            let session = MapDataSession.remote(items, zoom: 5, name: "public.piles", total: FilterSettings.TotalSetting(kind: kind, property: "damage"))
            var scene = Scene()
            scene.bubbles = session.remote!.items.map {
                SceneBubble(id: SceneItemID($0), center: ScreenPoint(x: 0, y: 0), radius: 20, count: $0.count, label: "", step: 0)
            }
            session.remote!.labelTotals(in: &scene)
            return scene.bubbles.map(\.radius)
        }
        let r = BubbleGrouping.weightRadii
        // √(100/400) = ½ → halfway; the heaviest the largest; no value the smallest; √(36/400) = 0.3.
        XCTAssertEqual(radii(.sum), [(r.lowerBound + r.upperBound) / 2, r.upperBound, r.lowerBound, r.lowerBound + (r.upperBound - r.lowerBound) * 0.3])
        XCTAssertEqual(radii(.maximum), [20, 20, 20, 20], "only a sum is a weight")
    }

    /// A table's most-common total reads as a file's: the bubble shows the value's first letters,
    /// the card and tooltip "Most common kind: Burglary (12 of 30)", the legend what the word is.
    func testATablesMostCommonIsOnItsBubblesCardsAndLegendAsAFilesIs() {
        let items: [RemoteView.Item] = [
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 10, longitude: 0), count: 30, isCluster: true, key: 1)
                .with(facts: [RemoteView.Fact("kind_most_common", .string("Burglary")), RemoteView.Fact("kind_most_common_count", .number(12))]),
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 0, longitude: 0), count: 7, isCluster: true, key: 2),
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 20, longitude: 0), count: 5, isCluster: true, key: 3)
                .with(facts: [RemoteView.Fact("kind_most_common", .string("fire")), RemoteView.Fact("kind_most_common_count", .number(3))]),
        ]
        let session = MapDataSession.remote(items, zoom: 5, name: "public.piles", total: FilterSettings.TotalSetting(kind: .mostCommon, property: "kind"))
        var scene = Scene()
        scene.bubbles = session.remote!.items.map {
            SceneBubble(id: SceneItemID($0), center: ScreenPoint(x: 0, y: 0), radius: 20, count: $0.count, label: "\($0.count)", step: 0)
        }
        session.remote!.labelTotals(in: &scene)
        XCTAssertEqual(scene.bubbles.map(\.label), ["Burg…", "–", "fire"])
        XCTAssertEqual(scene.bubbles.map(\.radius), [20, 20, 20], "a category is no weight")
        guard case .cluster(let id) = session.remote!.items[0].kind else { return XCTFail("not a bubble") }
        let card = session.bubbleCard(of: id)
        XCTAssertEqual(card?.totals.map { "\($0.title): \($0.text)" }, ["Most common kind: Burglary (12 of 30)"])
        XCTAssertFalse(card?.facts.contains { $0.text.lowercased().contains("most common") } ?? true, "the count is not a line of its own")
        XCTAssertEqual(session.remoteTooltip(of: id), "30 places\nMost common kind: Burglary (12 of 30)")
        XCTAssertEqual(session.remote?.legend(over: session.legend)?.entries.last?.text, "Number on bubbles: most common kind")
    }
}

import XCTest
import ClusterCore
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// A bubble's card (issue 29 item 5): what it says is checked against brute force over the
/// bubble's members on random data — the exact count, the chosen total (and its range), the
/// category breakdown adding up to the count, the date span — for local bubbles (mixed and
/// grouped) and for remote ones (database cells, cluster tiles); and the card opens, is drawn
/// over its bubble, is hit on its buttons and closes as a place's callout does.
final class BubbleCardTests: XCTestCase {
    struct Row { var lat: Double; var lon: Double; var category: String?; var damage: Double?; var when: Double? }

    /// Random places in piles over Spain: three categories (some none), a damage (some missing),
    /// a date in 2011 (some missing).
    func rows(_ n: Int, seed: UInt64) -> [Row] {
        var rng = TimeBarRandom(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let towns = (0..<12).map { _ in (37 + unit() * 6, -8 + unit() * 10) }
        return (0..<n).map { _ in
            let t = towns[Int(unit() * 12)]
            let c = unit() < 0.1 ? nil : ["fire", "flood", "theft"][Int(unit() * 3)]
            let d = unit() < 0.15 ? nil : (unit() * 10_000).rounded() / 4
            let w = unit() < 0.1 ? nil : (1_293_840_000 + (unit() * 364 * 86400).rounded())
            return Row(lat: t.0 + (unit() - 0.5) * 0.05, lon: t.1 + (unit() - 0.5) * 0.05, category: c, damage: d, when: w)
        }
    }

    func session(_ rows: [Row]) throws -> MapPresentation {
        var csv = "lat,lon,name,category,damage,when\n"
        for (i, r) in rows.enumerated() {
            let date = r.when.map { TimeBar.instant($0) } ?? ""
            csv += "\(r.lat),\(r.lon),P\(i),\(r.category ?? ""),\(r.damage.map { String($0) } ?? ""),\(date)\n"
        }
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(MapDataSession(pointSets: [try PointSetLoader.load(text: csv, name: "cases.csv")]))
        return p
    }

    /// Every bubble at a few zooms: the card's numbers equal brute force over its members.
    func testTheCardSaysWhatItsMembersAdd() throws {
        let data = rows(2_500, seed: 29)
        let p = try session(data)
        var settings = FilterSettings()
        settings.types = ["damage": .number, "when": .date]
        settings.total = .init(kind: .sum, property: "damage")
        try p.applyFilter(settings)
        let session = try XCTUnwrap(p.session)
        let times = try XCTUnwrap(p.timeColumn(named: "when"))
        var checked = 0
        for zoom in [3.0, 5, 7, 9] {
            for item in session.shownIndex.clusters(in: .world, zoom: zoom) where item.isCluster {
                let id = try XCTUnwrap(item.clusterID)
                let card = try XCTUnwrap(session.bubbleCard(of: id, times: times))
                let members = session.shownIndex.leaves(of: id, limit: .max, offset: 0)
                XCTAssertEqual(card.count, members.count)
                XCTAssertEqual(card.title, "\(formatCount(members.count)) places")
                let values = members.compactMap { data[$0].damage }
                let sum = values.reduce(0, +)
                XCTAssertEqual(card.totals.first?.title, "Total damage")
                XCTAssertEqual(try XCTUnwrap(card.totals.first?.value), sum, accuracy: 1e-6 * max(1, sum))
                XCTAssertEqual(card.totals.first?.text, BubbleCardContent.exact(card.totals.first!.value!), "full, not abbreviated")
                var more: [String] = []
                if let lo = values.min(), let hi = values.max(), lo != hi {
                    more.append("\(BubbleCardContent.exact(lo)) – \(BubbleCardContent.exact(hi))")
                }
                if values.count < members.count { more.append("\(formatCount(members.count - values.count)) without a value") }
                if !more.isEmpty {
                    XCTAssertEqual(card.lines[1].text.split(separator: ":", maxSplits: 1).last.map { $0.dropFirst() }.map(String.init),
                                   more.joined(separator: " · "), "\(card.lines)")
                }
                // The breakdown adds up to the count, each category its members' number.
                XCTAssertEqual(card.categories.reduce(0) { $0 + $1.count } + card.uncategorized, members.count)
                for c in card.categories {
                    XCTAssertEqual(c.count, members.filter { data[$0].category == c.name }.count, c.name)
                }
                XCTAssertEqual(card.categories.map(\.count), card.categories.map(\.count).sorted(by: >), "most first")
                let named = Set(members.compactMap { data[$0].category })
                XCTAssertEqual(Set(card.categories.map(\.name)), named, "every category of the members, no other")
                XCTAssertEqual(card.uncategorized, named.isEmpty ? 0 : members.filter { data[$0].category == nil }.count)
                let dates = members.compactMap { data[$0].when }
                XCTAssertEqual(card.dates, dates.min().map { $0...dates.max()! })
                XCTAssertEqual(card.canList, members.count <= BubbleCardContent.listLimit
                               || (session.shownIndex.expansionZoom(of: id) ?? 99) > 22)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    /// Grouped by category: the card names the bubble's one category (brute force: every member
    /// has it), in its colour; mean and most-common totals as chosen.
    func testGroupedCardsNameTheirCategoryAndTotal() throws {
        let data = rows(1_500, seed: 31)
        let p = try session(data)
        for kind in [ClusterTotal.mean, .maximum, .mostCommon] {
            var settings = FilterSettings()
            settings.types = ["damage": .number]
            settings.groupProperty = "category"
            settings.total = kind == .mostCommon ? .init(kind: kind, property: "category") : .init(kind: kind, property: "damage")
            try p.applyFilter(settings)
            let session = try XCTUnwrap(p.session)
            var checked = 0
            for item in session.shownIndex.clusters(in: .world, zoom: 6) where item.isCluster {
                let id = try XCTUnwrap(item.clusterID)
                let card = try XCTUnwrap(session.bubbleCard(of: id))
                let members = session.shownIndex.leaves(of: id, limit: .max, offset: 0)
                let kinds = Set(members.map { data[$0].category ?? "" })
                XCTAssertEqual(kinds.count, 1, "a grouped bubble holds one category")
                let group = try XCTUnwrap(card.groupCategory)
                XCTAssertEqual(group.name, kinds.first!)
                XCTAssertTrue(card.lines.contains { $0.swatch == group.color && $0.text.hasSuffix(": \(group.name)") }, "\(card.lines)")
                XCTAssertTrue(card.categories.isEmpty, "one category: the group line says it")
                let values = members.compactMap { data[$0].damage }
                switch kind {
                case .mean:
                    if !values.isEmpty {
                        XCTAssertEqual(card.totals.first?.value ?? .nan, values.reduce(0, +) / Double(values.count), accuracy: 1e-6)
                    }
                case .maximum:
                    XCTAssertEqual(card.totals.first?.value, values.max())
                    XCTAssertEqual(card.totals.first?.title, "Highest damage")
                default:
                    XCTAssertEqual(card.totals.first?.text.hasPrefix(kinds.first!), true, "\(card.totals)")
                }
                checked += 1
            }
            XCTAssertGreaterThan(checked, 10)
        }
    }

    /// Remote bubbles say what their source gave: a database cell's totals, a tile's properties
    /// (bookkeeping left out), the centre; and their tooltip says the count and totals.
    func testRemoteBubblesSayWhatTheSourceGave() throws {
        let cell = RemoteView.Item(coordinate: GeoCoordinate(latitude: 40.5, longitude: -3.5), count: 12_345, isCluster: true, key: 7)
            .with(facts: [.init("deaths_sum", .number(1_234_567.5)), .init("deaths_max", .number(900)), .init("deaths_min", .number(0)),
                          .init("deaths_mean", .number(100.00405)),
                          .init("point_count", .number(12_345)), .init("cluster_id", .number(3)), .init("region", .string("north"))])
        let plain = RemoteView.Item(coordinate: GeoCoordinate(latitude: 41, longitude: -4), count: 80, isCluster: true, key: 8)
        let place = RemoteView.Item(coordinate: GeoCoordinate(latitude: 42, longitude: -4), count: 1, isCluster: false, key: 99,
                                    properties: "{\"name\":\"Solo\"}")
        let session = MapDataSession.remote([cell, plain, place], zoom: 5, name: "quakes")
        let remote = try XCTUnwrap(session.remote)
        let cellID = try XCTUnwrap(remote.items.first { $0.count == 12_345 }?.clusterID)
        let card = try XCTUnwrap(session.bubbleCard(of: cellID))
        XCTAssertEqual(card.count, 12_345)
        XCTAssertEqual(card.title, "12,345 places")
        XCTAssertEqual(card.totals.map(\.title), ["Total deaths", "Range"])
        XCTAssertEqual(card.totals.first?.text, "1,234,567.5")
        XCTAssertEqual(card.lines.map(\.text), ["Total deaths: 1,234,567.5", "Range: 0 – 900 · mean 100", "Region: north",
                                                "Centre: 40.50000, -3.50000"])
        XCTAssertFalse(card.canList, "the members are the server's")
        XCTAssertTrue(card.canZoomIn)
        XCTAssertEqual(session.remoteTooltip(of: cellID), "12,345 places\nTotal deaths: 1,234,567.5 · Range: 0 – 900 · mean 100")
        let plainID = try XCTUnwrap(remote.items.first { $0.count == 80 }?.clusterID)
        XCTAssertEqual(session.remoteTooltip(of: plainID), "80 places")
        XCTAssertEqual(session.bubbleCard(of: plainID)?.lines.map(\.text), ["Centre: 41.00000, -4.00000"])
    }

    /// Totals are written whole, with thousands separators, never abbreviated.
    func testTotalsAreWrittenInFull() {
        XCTAssertEqual(BubbleCardContent.exact(1_234_567), "1,234,567")
        XCTAssertEqual(BubbleCardContent.exact(-1_234_567.5), "-1,234,567.5")
        XCTAssertEqual(BubbleCardContent.exact(872.3286432160804), "872.33")
        XCTAssertEqual(BubbleCardContent.exact(0.0034567), "0.003457")
        XCTAssertEqual(BubbleCardContent.exact(0), "0")
    }

    /// The card opens over its bubble with "Zoom In" and "List Places", is hit there, closes a
    /// place's callout and is closed by one; the `bubble-card` event says its numbers.
    func testTheCardOpensOverItsBubbleAndClosesLikeACallout() throws {
        var data = rows(30, seed: 7)
        for i in data.indices { data[i].lat = 40.4 + Double(i % 5) * 0.001; data[i].lon = -3.7 + Double(i / 5) * 0.001 }
        let p = try session(data)
        let camera = Camera(center: GeoCoordinate(latitude: 40.402, longitude: -3.697), zoom: 9,
                            viewportSize: ScreenSize(width: 800, height: 600))
        _ = p.scene(for: camera, now: 0, moving: false, reducedMotion: false)
        let bubble = try XCTUnwrap(p.scene(for: camera, now: 5, moving: false, reducedMotion: false).scene.bubbles.first)
        XCTAssertEqual(bubble.count, 30)
        let events = p.openBubbleCard(bubble.id, now: 10, reducedMotion: false)
        let opened = try XCTUnwrap(events.first { $0.name == "bubble-card" })
        func field(_ name: String) -> JSONValue? { opened.fields.first { $0.0 == name }?.1 }
        guard case .int(30)? = field("count"), case .int(bubble.id.logID)? = field("id") else {
            return XCTFail("bubble-card says the bubble and its count: \(opened.fields)")
        }
        let scene = p.scene(for: camera, now: 11, moving: false, reducedMotion: false).scene
        let card = try XCTUnwrap(scene.callout)
        XCTAssertEqual(card.bubble, bubble.id)
        XCTAssertEqual(card.title, "30 places")
        XCTAssertEqual(card.anchor.y, bubble.center.y - bubble.radius, accuracy: 0.01, "the arrow points at the bubble's top")
        XCTAssertLessThan(card.frame.maxY, bubble.center.y - bubble.radius)
        XCTAssertEqual(card.buttons.map(\.action), [.close, .zoomIn, .listPlaces])
        for b in card.buttons {
            let at = ScreenPoint(x: card.frame.x + b.frame.x + b.frame.width / 2, y: card.frame.y + b.frame.y + b.frame.height / 2)
            XCTAssertEqual(SceneHitTester.hit(scene, at: at), .bubbleCardButton(bubble.id, b.action))
        }
        XCTAssertEqual(SceneHitTester.hit(scene, at: ScreenPoint(x: card.frame.x + card.frame.width / 2, y: card.frame.y + 14)), .bubbleCard(bubble.id))
        // A place's callout closes the card, and the other way round.
        XCTAssertEqual(p.select(point: 3, now: 12, reducedMotion: false).map(\.name), ["bubble-card-close", "select"])
        XCTAssertNil(p.state.bubbleCard)
        XCTAssertEqual(p.openBubbleCard(bubble.id, now: 13, reducedMotion: false).map(\.name), ["deselect", "bubble-card"])
        XCTAssertNil(p.state.selectedPoint)
        XCTAssertEqual(p.closeBubbleCard().map(\.name), ["bubble-card-close"])
        XCTAssertNil(p.scene(for: camera, now: 14, moving: false, reducedMotion: false).scene.callout)
        // A filter renumbers the bubbles: the card follows its bubble (found by its places, not
        // its id) with the new numbers, at the next scene, logged.
        _ = p.openBubbleCard(bubble.id, now: 15, reducedMotion: false)
        XCTAssertNotNil(p.scene(for: camera, now: 16, moving: false, reducedMotion: false).scene.callout)
        var settings = FilterSettings()
        settings.types = ["damage": .number]
        settings.conditions = ["damage >= 0"]
        try p.applyFilter(settings)
        let filtered = p.scene(for: camera, now: 17, moving: false, reducedMotion: false)
        let passing = data.filter { $0.damage != nil }.count
        XCTAssertLessThan(passing, 30, "the fixture has places without a damage")
        let followed = try XCTUnwrap(filtered.events.first { $0.name == "bubble-card" }, "\(filtered.events.map(\.name))")
        func value(_ e: MapEvent, _ name: String) -> JSONValue? { e.fields.first { $0.0 == name }?.1 }
        guard case .int(passing)? = value(followed, "count"), case .int(bubble.id.logID)? = value(followed, "followed") else {
            return XCTFail("the card follows with the new count: \(followed.fields)")
        }
        let newBubble = try XCTUnwrap(filtered.scene.bubbles.first)
        XCTAssertEqual(newBubble.count, passing)
        XCTAssertEqual(filtered.scene.callout?.bubble, newBubble.id, "drawn over the new bubble")
        XCTAssertEqual(filtered.scene.callout?.title, "\(passing) places")
        XCTAssertFalse(filtered.events.contains { $0.name == "bubble-card-close" })
        // A filter none of its places passes: it closes, saying why.
        settings.conditions = ["damage >= 1000000"]
        try p.applyFilter(settings)
        let emptied = p.scene(for: camera, now: 18, moving: false, reducedMotion: false)
        XCTAssertNil(emptied.scene.callout)
        let closed = try XCTUnwrap(emptied.events.first { $0.name == "bubble-card-close" })
        guard case .string("data")? = value(closed, "reason"), case .string("gone")? = value(closed, "why") else {
            return XCTFail("closed because its places are gone: \(closed.fields)")
        }
        XCTAssertNil(p.state.bubbleCard)
    }

    /// After a change the card's places lie in new bubbles: the card follows the nearest one
    /// holding at least a third of them; spread thinner it closes (`split`); none left: `gone`.
    func testTheSameBubbleIsTheNearestHoldingAThirdOfItsPlaces() {
        let bubbles = (1...4).map { MapPresentation.FollowCandidate(id: .cluster($0), center: ScreenPoint(x: 100 * Double($0), y: 100)) }
        let index = StubLeaves([1: [0, 1, 2, 3, 4, 5], 2: [6, 7, 8, 9], 3: [10, 11, 12], 4: [13, 14, 15]])
        func same(_ places: [Int], near x: Double) -> Result<SceneItemID, MapPresentation.BubbleCardLoss> {
            let shown = BubbleCardShown(id: .cluster(9), count: places.count, session: ObjectIdentifier(index), clusterer: ObjectIdentifier(index),
                                        places: places, times: nil, maxZoom: 22, centre: ScreenPoint(x: x, y: 100))
            return MapPresentation.sameBubble(as: shown, among: bubbles, index: index)
        }
        // Most of them in 1, one in 2 (the nearest): 1 is followed.
        XCTAssertEqual(try? same([0, 1, 2, 6], near: 190).get(), .cluster(1))
        // Shared about evenly by the bubble still there and a neighbour: the one still there.
        XCTAssertEqual(try? same([0, 1, 2, 6, 7, 8], near: 210).get(), .cluster(2))
        XCTAssertEqual(try? same([0, 1, 2, 6, 7, 8], near: 90).get(), .cluster(1))
        // Places filtered out (20) do not count.
        XCTAssertEqual(try? same([6, 7, 20], near: 400).get(), .cluster(2))
        XCTAssertThrowsError(try same([0, 6, 10, 13], near: 100).get()) {
            XCTAssertEqual($0 as? MapPresentation.BubbleCardLoss, .split, "a quarter in each of four bubbles")
        }
        XCTAssertThrowsError(try same([40, 41], near: 100).get()) {
            XCTAssertEqual($0 as? MapPresentation.BubbleCardLoss, .gone)
        }
    }
}

/// Clusters whose leaves are given (only `leaves` is read by `sameBubble`).
private final class StubLeaves: PointClusterer {
    let members: [Int: [Int]]
    init(_ members: [Int: [Int]]) { self.members = members }
    var inputCount: Int { 10 }
    var skippedCount: Int { 0 }
    var minZoom: Int { 0 }
    var maxZoom: Int { 16 }
    func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {}
    func children(of cluster: ClusterID) -> [ClusterItem] { [] }
    func leaves(of cluster: ClusterID, limit: Int, offset: Int) -> [Int] { Array((members[cluster.rawValue] ?? []).dropFirst(offset).prefix(limit)) }
    func expansionZoom(of cluster: ClusterID) -> Int? { nil }
    func item(for cluster: ClusterID) -> ClusterItem? { nil }
    func aggregates(of item: ClusterItem) -> ClusterAggregates { ClusterAggregates(count: 0) }
}

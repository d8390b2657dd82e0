import XCTest
import ClusterCore
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// Clusters by category with totals, drawn (issue 29 item 5): on random data at every zoom, the
/// decorated scene's marks never overlap, each bubble is its category's colour and holds only
/// that category, its number is its total (brute force over its members), and a sum sizes it.
final class BubbleGroupingTests: XCTestCase {
    struct Places: PlaceDirectory {
        let coordinates: [GeoCoordinate]
        func name(of point: Int) -> String { "Place \(point)" }
        func label(of point: Int) -> String? { nil }
        func color(of point: Int) -> UInt32 { 0x3366CC }
        func coordinate(of point: Int) -> GeoCoordinate { coordinates[point] }
    }

    /// Random places in piles (towns) over Spain, four kinds, a numeric "damage".
    func data(count: Int, seed: UInt64) -> (points: [GeoCoordinate], groups: [Int32], damage: [Double]) {
        var rng = TimeBarRandom(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let towns = (0..<30).map { _ in GeoCoordinate(latitude: 37 + unit() * 6, longitude: -8 + unit() * 10) }
        var points: [GeoCoordinate] = [], groups: [Int32] = [], damage: [Double] = []
        for _ in 0..<count {
            let t = towns[Int(unit() * 30)]
            points.append(GeoCoordinate(latitude: t.latitude + (unit() - 0.5) * 0.02, longitude: t.longitude + (unit() - 0.5) * 0.02))
            groups.append(Int32(unit() * 4))
            damage.append(unit() < 0.1 ? .nan : (unit() * 1000).rounded())
        }
        return (points, groups, damage)
    }

    static func assertApart(_ c: [(center: ScreenPoint, radius: Double)], gap: Double, zoom: Int,
                            file: StaticString = #filePath, line: UInt = #line) {
        for i in c.indices {
            for j in c.indices where j > i {
                let d = ((c[i].center.x - c[j].center.x) * (c[i].center.x - c[j].center.x)
                    + (c[i].center.y - c[j].center.y) * (c[i].center.y - c[j].center.y)).squareRoot()
                if d < c[i].radius + c[j].radius + gap - 1e-6 {
                    XCTFail("zoom \(zoom): marks \(i) and \(j) overlap (\(d) apart)", file: file, line: line)
                    return
                }
            }
        }
    }

    func grouping(_ sub: SubsetClusterer, groups: [Int32], total: FilterSettings.TotalSetting?) -> BubbleGrouping {
        BubbleGrouping(index: sub, groupProperty: "kind", groups: groups, groupNames: ["fire", "flood", "storm", "theft"],
                       total: total, totalCategoryNames: [])
    }

    func testGroupedBubblesSitSideBySideOnEveryZoom() throws {
        let d = data(count: 4000, seed: 5)
        let sub = SubsetClusterer(points: d.points, groups: d.groups, values: d.damage, method: .hierarchical(MapDataSession.clusterOptions))
        let g = grouping(sub, groups: d.groups, total: .init(kind: .sum, property: "damage"))
        let style = BubbleStyle()
        var overlapsBefore = 0
        for zoom in 0...18 {
            for centre in [GeoCoordinate(latitude: 40, longitude: -3.5), GeoCoordinate(latitude: 38.2, longitude: -6)] {
                let camera = Camera(center: centre, zoom: Double(zoom) + (zoom % 3 == 1 ? 0.5 : 0),
                                    viewportSize: ScreenSize(width: 1280, height: 800))
                var buffer: [ClusterItem] = []
                sub.clusters(in: camera.visibleBounds, zoom: camera.zoom, into: &buffer)
                var scene = SceneBuilder(style: style).build(camera: camera, items: buffer.map { PlacedItem(item: $0) },
                                                             places: Places(coordinates: d.points), state: SceneState())
                let marks = { (s: Scene) in s.bubbles.map { (center: $0.center, radius: $0.radius) } + s.pins.map { (center: $0.center, radius: style.pinRadius) } }
                overlapsBefore += SideBySideLayout().overlappingPairs(marks(scene).map(\.center), marks(scene).map(\.radius)).count
                g.decorate(&scene, style: style)
                Self.assertApart(marks(scene), gap: 2, zoom: zoom)
                for b in scene.bubbles {
                    guard case .cluster(let raw) = b.id else { continue }
                    let leaves = sub.leaves(of: ClusterID(rawValue: raw))
                    let kinds = Set(leaves.map { d.groups[$0] })
                    XCTAssertEqual(kinds.count, 1, "a bubble never mixes categories")
                    XCTAssertEqual(b.look.fill, PlaceColors.category(Int(kinds.first!)), "its category's colour")
                    let sum = leaves.map { d.damage[$0] }.filter { !$0.isNaN }.reduce(0, +)
                    XCTAssertEqual(b.label, ClusterTotal.abbreviated(sum), "the total, abbreviated")
                    XCTAssertTrue(BubbleGrouping.weightRadii.contains(b.radius))
                }
                for p in scene.pins { XCTAssertEqual(p.color, PlaceColors.category(Int(d.groups[p.pointIndex]))) }
                // Weight: heavier bubbles are never smaller.
                let sized = scene.bubbles.map { (g.totalValue(of: $0.id) ?? 0, $0.radius) }.sorted { $0.0 < $1.0 }
                for (a, b) in zip(sized, sized.dropFirst()) { XCTAssertLessThanOrEqual(a.1, b.1) }
            }
        }
        XCTAssertGreaterThan(overlapsBefore, 20, "the data does pile categories on one spot (else this test shows nothing)")
    }

    func testTooltipAndLegendSayWhatIsShown() throws {
        let d = data(count: 500, seed: 9)
        let sub = SubsetClusterer(points: d.points, groups: d.groups, values: d.damage, method: .hierarchical(MapDataSession.clusterOptions))
        let g = grouping(sub, groups: d.groups, total: .init(kind: .mean, property: "damage"))
        var buffer: [ClusterItem] = []
        sub.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: 3, into: &buffer)
        let item = try XCTUnwrap(buffer.first { $0.isCluster })
        let leaves = sub.leaves(of: item.clusterID!)
        let values = leaves.map { d.damage[$0] }.filter { !$0.isNaN }
        let line = try XCTUnwrap(g.tooltipLine(of: SceneItemID(item)))
        XCTAssertEqual(line, "Mean damage: \(BubbleCardContent.exact(values.reduce(0, +) / Double(values.count))) · Kind: \(["fire", "flood", "storm", "theft"][Int(d.groups[leaves[0]])])")
        let legend = g.legendEntries().map(\.text)
        XCTAssertEqual(legend.prefix(4), ["fire", "flood", "storm", "theft"])
        XCTAssertTrue(legend.contains("Bubbles: one kind each, side by side"), "\(legend)")
        XCTAssertTrue(legend.contains("Number on bubbles: mean damage"), "\(legend)")
        XCTAssertFalse(g.sizesByWeight)
        let mixed = BubbleGrouping(index: sub, groupProperty: nil, groups: [], groupNames: [],
                                   total: .init(kind: .sum, property: "damage"), totalCategoryNames: [])
        XCTAssertEqual(mixed.legendEntries().map(\.text), ["Number on bubbles: total damage; size follows it"])
        XCTAssertNil(mixed.group(of: SceneItemID(item)))
    }

    /// Through the presentation (what `render` and the window use): a filter with `--by` and
    /// `--total` makes the scene grouped and the legend say so; taking it away restores both.
    func testThePresentationDrawsAndLegendsTheShownFilter() throws {
        var csv = "lat,lon,kind,damage\n"
        for i in 0..<40 { csv += "40.42,-3.7,\(["fire", "flood"][i % 2]),\(i)\n" }
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(MapDataSession(pointSets: [try PointSetLoader.load(text: csv, name: "cases.csv")]))
        let camera = Camera(center: GeoCoordinate(latitude: 40.42, longitude: -3.7), zoom: 12,
                            viewportSize: ScreenSize(width: 800, height: 600))
        XCTAssertEqual(p.scene(for: camera, now: 0, moving: false, reducedMotion: false).scene.bubbles.count, 1, "mixed: one bubble")
        var settings = FilterSettings()
        settings.groupProperty = "kind"
        settings.total = .init(kind: .sum, property: "damage")
        try p.applyFilter(settings)
        _ = p.scene(for: camera, now: 10, moving: false, reducedMotion: false)   // the change's animation starts
        let bubbles = p.scene(for: camera, now: 15, moving: false, reducedMotion: false).scene.bubbles
        XCTAssertEqual(bubbles.count, 2, "one bubble per kind")
        XCTAssertEqual(Set(bubbles.map(\.label)), [ClusterTotal.abbreviated(Double((0..<40).filter { $0 % 2 == 0 }.reduce(0, +))),
                                                   ClusterTotal.abbreviated(Double((0..<40).filter { $0 % 2 == 1 }.reduce(0, +)))])
        let d = hypot(bubbles[0].center.x - bubbles[1].center.x, bubbles[0].center.y - bubbles[1].center.y)
        XCTAssertGreaterThanOrEqual(d, bubbles[0].radius + bubbles[1].radius, "side by side, not on top")
        XCTAssertEqual(p.legend?.title, "Kind")
        // The words for the bubble (tooltip, list rows, screen readers) say its total and kind.
        let session = try XCTUnwrap(p.session)
        guard case .cluster(let raw) = bubbles[0].id, let item = session.shownIndex.item(for: ClusterID(rawValue: raw)) else {
            return XCTFail("a cluster")
        }
        XCTAssertTrue(session.summary(of: item).hasPrefix("20 places · Total damage: "), session.summary(of: item))
        XCTAssertTrue(session.tooltip(of: item).contains(" · Kind: "), session.tooltip(of: item))
        XCTAssertTrue(p.legend?.entries.contains { $0.text == "Number on bubbles: total damage; size follows it" } ?? false)
        try p.applyFilter(FilterSettings())
        XCTAssertNotEqual(p.legend?.title, "Kind")
        _ = p.scene(for: camera, now: 20, moving: false, reducedMotion: false)
        XCTAssertEqual(p.scene(for: camera, now: 25, moving: false, reducedMotion: false).scene.bubbles.map(\.label), ["40"])
    }

    /// A total without `--by` (issue 29 item 5: "in the hover tooltip and the callout"). A bubble
    /// has no card: a click or Enter flies into it, so its words are the tooltip's first line, the
    /// keyboard focus's name (the `focus` event and the map's accessible label) and the In View
    /// row. They say the total read from the filter's total index, equal to brute force.
    func testTheBubbleWordsSayTheTotalWhenNothingIsGrouped() throws {
        var csv = "lat,lon,kind,zone,damage\n"
        for i in 0..<40 { csv += "40.42,-3.7,\(["fire", "flood"][i % 2]),\(i < 30 ? "north" : "south"),\(i * 1000)\n" }
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(MapDataSession(pointSets: [try PointSetLoader.load(text: csv, name: "cases.csv")]))
        let camera = Camera(center: GeoCoordinate(latitude: 40.42, longitude: -3.7), zoom: 12,
                            viewportSize: ScreenSize(width: 800, height: 600))
        func bubbleWords(_ settings: FilterSettings, now: Double) throws -> (summary: String, focus: String) {
            try p.applyFilter(settings)
            _ = p.scene(for: camera, now: now, moving: false, reducedMotion: false)
            let bubbles = p.scene(for: camera, now: now + 5, moving: false, reducedMotion: false).scene.bubbles
            XCTAssertEqual(bubbles.count, 1, "mixed: one bubble")
            let id = try XCTUnwrap(bubbles.first?.id)
            guard case .cluster(let raw) = id, let session = p.session,
                  let item = session.shownIndex.item(for: ClusterID(rawValue: raw)) else { throw XCTSkip("no bubble") }
            return (session.summary(of: item), p.describe(id))
        }
        var sum = FilterSettings()
        sum.total = .init(kind: .sum, property: "damage")
        let brute = (0..<40).map { $0 * 1000 }.reduce(0, +)
        let a = try bubbleWords(sum, now: 10)
        XCTAssertTrue(a.summary.hasPrefix("40 places"), a.summary)
        XCTAssertTrue(a.summary.hasSuffix(" · Total damage: \(PropertyFormat.number(Double(brute)))"), a.summary)
        XCTAssertEqual(a.focus, a.summary, "keyboard focus says the same words")
        var common = FilterSettings()
        common.total = .init(kind: .mostCommon, property: "zone")
        let b = try bubbleWords(common, now: 20)
        XCTAssertTrue(b.summary.hasSuffix(" · Most common zone: north"), b.summary)
        XCTAssertFalse(b.summary.contains("mostly north") || b.summary.contains("including north"),
                       "the file's own categories are not the total's: \(b.summary)")
    }
}

import ClusterCore
import MapModel
import MapRender
import XCTest
@testable import AppSupport

/// A remote source's views replace one another with every pan (a PostGIS table, a cluster tile
/// file): each numbers its places afresh. Whatever still names a place of the last view — the
/// selection, hover, focus, the places of the last frame still fading out — must follow its row
/// into the new view or be forgotten, never index the new view's places (a crash: index out of range).
final class RemoteViewChangeTests: XCTestCase {
    let camera = Camera(center: GeoCoordinate(latitude: 46, longitude: 4), zoom: 7,
                        viewportSize: ScreenSize(width: 900, height: 700))

    /// A view of places with row ids `rows` (spread over the camera's view) and two bubbles.
    static func view(rows: [Int64], zoom: Int = 7) -> MapDataSession {
        var items: [RemoteView.Item] = [
            .init(coordinate: GeoCoordinate(latitude: 47.5, longitude: 1.0), count: 250, isCluster: true, key: 4097),
            .init(coordinate: GeoCoordinate(latitude: 44.5, longitude: 7.0), count: 31, isCluster: true, key: 12, expansionZoom: 9),
        ]
        for r in rows {
            // A place's position follows its row, so the same row is at the same spot in every view.
            let lat = 44.0 + Double(r % 37) * 0.1, lon = 1.0 + Double(r % 53) * 0.1
            items.append(.init(coordinate: GeoCoordinate(latitude: lat, longitude: lon), count: 1, isCluster: false, key: r,
                               properties: "{\"name\": \"Row \(r)\", \"mag\": \(Double(r) / 10)}"))
        }
        return MapDataSession.remote(items, zoom: zoom, name: "public.t")
    }

    private func change(_ p: MapPresentation, to next: MapDataSession) -> [MapEvent] {
        let old = p.session!
        return p.dataDidChange(to: next, renumbered: true) { old.remotePlaceIndex($0, in: next) }
    }

    /// Every index the presentation and its scene hold names a place of the shown view.
    private func assertIndicesValid(_ p: MapPresentation, _ scene: Scene, file: StaticString = #filePath, line: UInt = #line) {
        let n = p.session!.pointCount
        for pin in scene.pins { XCTAssertTrue(pin.pointIndex < n, "pin \(pin.pointIndex) of \(n)", file: file, line: line) }
        if let s = p.state.selectedPoint { XCTAssertTrue(s < n, "selected \(s) of \(n)", file: file, line: line) }
        for id in [p.state.hovered, p.state.focused].compactMap({ $0 }) {
            if case .point(let i) = id { XCTAssertTrue(i < n, "\(id) of \(n)", file: file, line: line) }
        }
    }

    func testRapidViewChangesWithAPlaceSelectedHoveredAndFocused() throws {
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        // The first view holds many places; the next ones fewer, numbered differently.
        p.show(Self.view(rows: Array(100..<160)))
        var now = 1.0
        _ = p.scene(for: camera, now: now, moving: false, reducedMotion: false)
        var row: Int64 = 157
        let index = try XCTUnwrap(p.session!.remote!.placeIndex(ofRow: row))
        _ = p.select(point: index, now: now, reducedMotion: false)
        _ = p.hover(.point(index))
        _ = p.focus(.point(index - 1))
        for step in 0..<12 {
            now += 0.05  // changes faster than a transition lasts: the last frame's places still fade
            // Every other view still holds the selected row (at another index); the rest do not.
            var rows = (0..<(5 + step)).map { Int64(200 + $0 * 3 + step) }
            if step % 2 == 0 { rows.insert(row, at: rows.count / 2) } else { rows.removeAll { $0 == row } }
            let next = Self.view(rows: rows)
            _ = change(p, to: next)
            if step % 2 == 0 {
                let followed = try XCTUnwrap(p.state.selectedPoint, "step \(step): the selection follows its row")
                XCTAssertEqual(next.remote!.rowIDs[followed], row)
                XCTAssertEqual(p.state.callout?.title, "Row \(row)")
            } else {
                XCTAssertNil(p.state.selectedPoint, "step \(step): its row left the view")
                _ = p.select(point: next.pointCount - 1, now: now, reducedMotion: false)
                row = try XCTUnwrap(next.remote!.rowIDs[next.pointCount - 1])
                _ = p.hover(.point(next.pointCount - 1))
                _ = p.focus(.point(0))
            }
            assertIndicesValid(p, p.scene(for: camera, now: now, moving: false, reducedMotion: false).scene)
            // A zoom change right after the view change: the zoom transition starts from the last frame.
            var deeper = camera
            deeper.setZoom(8)
            assertIndicesValid(p, p.scene(for: step % 3 == 0 ? deeper : camera, now: now + 0.01, moving: false,
                                          reducedMotion: step % 4 == 1).scene)
            if case .point(let i)? = p.state.focused { XCTAssertFalse(p.describe(.point(i)).isEmpty) }
        }
    }

    func testAPlaceStayingInTheNextViewKeepsItsHoverAndFocusByRow() throws {
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(Self.view(rows: [5, 6, 7, 8]))
        _ = p.scene(for: camera, now: 1, moving: false, reducedMotion: false)
        _ = p.hover(.point(2))   // row 7
        _ = p.focus(.point(3))   // row 8
        let next = Self.view(rows: [8, 1, 7])
        _ = change(p, to: next)
        XCTAssertEqual(p.state.hovered, .point(2))
        XCTAssertEqual(p.state.focused, .point(0))
        _ = change(p, to: Self.view(rows: [1]))
        XCTAssertNil(p.state.hovered, "its row left: nothing hovered")
        XCTAssertNil(p.state.focused, "its row left: focus back to the map")
        let scene = p.scene(for: camera, now: 1.05, moving: false, reducedMotion: false).scene
        assertIndicesValid(p, scene)
    }

    /// The In View list and keyboard focus name a remote view's bubbles with their counts (and
    /// the source's own words for them), in reading order with its places.
    func testRemoteBubblesAreListedAndDescribedWithTheirCounts() throws {
        var items = [
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 47.5, longitude: 1.0), count: 1250, isCluster: true, key: 4097,
                            detail: RemoteView.detail(category: "fire", total: (name: "damage_usd", sum: 1234.5))),
            RemoteView.Item(coordinate: GeoCoordinate(latitude: 44.5, longitude: 7.0), count: 2, isCluster: true, key: 12),
        ]
        items.append(.init(coordinate: GeoCoordinate(latitude: 46, longitude: 4), count: 1, isCluster: false, key: 9,
                           properties: #"{"name": "Lyon"}"#))
        let session = MapDataSession.remote(items, zoom: 7, name: "public.t")
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(session)
        let scene = p.scene(for: camera, now: 0, moving: false, reducedMotion: false).scene
        XCTAssertEqual(scene.bubbles.count, 2)
        let order = FocusNavigator.readingOrder(scene, viewport: camera.viewportSize).map(\.id)
        let rows = session.inViewRows(order: order, scene: scene)
        XCTAssertEqual(rows.map(\.kind), [.bubble, .place, .bubble], "every item drawn has its row, in reading order")
        XCTAssertEqual(rows.map(\.count), [1250, 1, 2])
        XCTAssertEqual(rows[0].title, "1,250 places")
        XCTAssertEqual(rows[0].subtitle, "mostly fire · Damage usd total 1,234.5")
        XCTAssertEqual(rows[2].title, "2 places")
        XCTAssertEqual(rows[2].subtitle, "", "no members to name: a remote bubble's places are not here")
        XCTAssertEqual(p.describe(order[0]), "1,250 places, mostly fire · Damage usd total 1,234.5")
        XCTAssertEqual(p.focus(order[2]).first?.fields.first { $0.0 == "name" }?.1, .string("2 places"))
    }
}

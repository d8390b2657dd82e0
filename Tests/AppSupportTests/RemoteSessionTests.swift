import ClusterCore
import MapModel
import MapRender
import XCTest
@testable import AppSupport

/// A view a remote source (a PostGIS table) clustered, shown as a session.
final class RemoteSessionTests: XCTestCase {
    private let items: [RemoteView.Item] = [
        .init(coordinate: GeoCoordinate(latitude: 48.85, longitude: 2.35), count: 120, isCluster: true, key: 4097),
        .init(coordinate: GeoCoordinate(latitude: 45.76, longitude: 4.84), count: 7, isCluster: true, key: 12, expansionZoom: 9),
        .init(coordinate: GeoCoordinate(latitude: 43.30, longitude: 5.37), count: 1, isCluster: false, key: 77,
              properties: #"{"id": 77, "name": "Vieux-Port \"quay\" }]", "mag": 4.5}"#),
        .init(coordinate: GeoCoordinate(latitude: 44.84, longitude: -0.58), count: 1, isCluster: false, key: 78,
              properties: "not json"),
        .init(coordinate: GeoCoordinate(latitude: 47.22, longitude: -1.55), count: 1, isCluster: false, key: nil),
    ]

    func testTheSessionDrawsExactlyTheSourcesItems() {
        let session = MapDataSession.remote(items, zoom: 6, name: "public.incidents")
        let camera = Camera(center: GeoCoordinate(latitude: 46, longitude: 2), zoom: 6, viewportSize: ScreenSize(width: 800, height: 600))
        let drawn = session.visibleItems(for: camera)
        XCTAssertEqual(drawn.map(\.item.count), [120, 7, 1, 1, 1])
        XCTAssertEqual(drawn.map(\.coordinate), items.map(\.coordinate))
        XCTAssertEqual(session.remote?.pointCount, 130)
        XCTAssertEqual(session.pointCount, 3, "the places only")
        XCTAssertEqual(session.remote?.rowIDs, [77, 78, nil])
        // Bubbles carry negative ids: the session's own index knows nothing of them.
        for item in drawn where item.item.isCluster {
            let id = item.item.clusterID!
            XCTAssertLessThan(id.rawValue, 0)
            XCTAssertNil(session.clusterer.item(for: id))
            XCTAssertEqual(session.clusterer.leaves(of: id, limit: .max, offset: 0), [])
        }
        XCTAssertEqual(drawn[0].item.clusterID, ClusterID(rawValue: -4098), "stable: the source's key")
    }

    func testPlacesCardsComeFromTheirColumns() {
        let session = MapDataSession.remote(items, zoom: 6, name: "public.incidents")
        let card = session.calloutText(of: 0)
        XCTAssertEqual(card.title, #"Vieux-Port "quay" }]"#)
        XCTAssertTrue(card.lines.contains { $0.contains("4.5") }, "\(card.lines)")
        XCTAssertEqual(session.places.coordinates[1].longitude, -0.58, "columns that are not an object: the place still shows")
        XCTAssertEqual(session.places.coordinates[2].latitude, 47.22)
    }

    func testFlightZoomsAndSelectionAcrossViews() {
        let a = MapDataSession.remote(items, zoom: 6, name: "t")
        let remote = a.remote!
        XCTAssertEqual(remote.flightZoom(for: ClusterID(rawValue: -13)), 9, "the split zoom the source knows")
        XCTAssertEqual(remote.flightZoom(for: ClusterID(rawValue: -4098)), 8, "a server cell: two zooms in")
        // The next view holds place 78 elsewhere in its list: a selection follows its row.
        let b = MapDataSession.remote([items[3], items[0], items[2]], zoom: 7, name: "t")
        XCTAssertEqual(a.remotePlaceIndex(0, in: b), 1)
        XCTAssertEqual(a.remotePlaceIndex(1, in: b), 0)
        XCTAssertNil(a.remotePlaceIndex(2, in: b), "no row id: can't be followed")
    }

    func testAViewWithoutPlacesIsFine() {
        let session = MapDataSession.remote(Array(items.prefix(2)), zoom: 3, name: "t")
        XCTAssertEqual(session.pointCount, 0)
        XCTAssertEqual(session.remote?.items.count, 2)
    }

    /// A place whose columns the view did not read gets them when its card opens: its open card
    /// is read again from them.
    func testColumnsReadLaterFillTheOpenCard() throws {
        let later = RemoteView.Item(coordinate: GeoCoordinate(latitude: 46, longitude: 4), count: 1, isCluster: false, key: 4001)
        let session = MapDataSession.remote(items + [later], zoom: 6, name: "public.incidents")
        let remote = try XCTUnwrap(session.remote)
        XCTAssertTrue(remote.hasColumns(place: 0))
        XCTAssertFalse(remote.hasColumns(place: 3), "read later, when its card opens")
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(session)
        _ = p.select(point: 3, now: 0, reducedMotion: false)
        XCTAssertNotEqual(p.state.callout?.title, "Lyon Part-Dieu")
        XCTAssertFalse(session.setRemoteColumns("not json", ofPlace: 3))
        XCTAssertTrue(session.setRemoteColumns(#"{"id": 4001, "name": "Lyon Part-Dieu", "mag": 2.5}"#, ofPlace: 3))
        XCTAssertTrue(session.hasLaterColumns(ofPlace: 3))
        XCTAssertTrue(p.placeColumnsDidArrive(3))
        XCTAssertEqual(p.state.callout?.title, "Lyon Part-Dieu")
        XCTAssertTrue(p.state.callout?.lines.contains { $0.contains("2.5") } ?? false, "\(String(describing: p.state.callout?.lines))")
        XCTAssertFalse(p.placeColumnsDidArrive(0), "not the open card")
        // Its pin and its In View row take the name too.
        let camera = Camera(center: GeoCoordinate(latitude: 46, longitude: 4), zoom: 6, viewportSize: ScreenSize(width: 1200, height: 900))
        let scene = p.scene(for: camera, now: 1, moving: false, reducedMotion: false).scene
        XCTAssertEqual(scene.pins.first { $0.pointIndex == 3 }?.name, "Lyon Part-Dieu")
        XCTAssertEqual(scene.pins.first { $0.pointIndex == 0 }?.name, #"Vieux-Port "quay" }]"#, "the others keep theirs")
        let rows = session.inViewRows(order: [.point(3), .point(0)], scene: scene)
        XCTAssertEqual(rows.map(\.title), ["Lyon Part-Dieu", #"Vieux-Port "quay" }]"#])
    }
}

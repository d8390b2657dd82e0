import Foundation
import XCTest
import ClusterCore
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// Price capsules of places kept out of clustering never overlap (issue 32 item 1): a capsule
/// that would overlap one of higher priority is left out, as MapKit hides colliding annotations.
final class CapsuleCollisionTests: XCTestCase {
    private func pin(_ i: Int, x: Double, label: String? = "$120") -> ScenePin {
        ScenePin(id: .point(i), pointIndex: i, center: ScreenPoint(x: x, y: 100), name: "p\(i)", label: label, color: 0)
    }

    private func capsules(_ scene: Scene, style: BubbleStyle = BubbleStyle()) -> [ScreenRect] {
        scene.pins.compactMap { p in p.label.map { SceneHitTester.labelRect(for: p.center, text: $0, style: style) } }
    }

    func testTheFirstInTheDataWinsAndTheOrderIsKept() {
        var s = Scene()
        s.pins = [pin(2, x: 300), pin(0, x: 100), pin(1, x: 120), pin(3, x: 170)]
        CapsuleCollision.hideColliding(in: &s)
        // p1's capsule (54 px wide) overlaps p0's; p3 is 70 px from p0: clear.
        XCTAssertEqual(s.pins.map(\.pointIndex), [2, 0, 3])
    }

    func testTheSelectedPlaceIsNeverHidden() {
        var s = Scene()
        var selected = pin(1, x: 120)
        selected.isSelected = true
        s.pins = [pin(0, x: 100), selected]
        CapsuleCollision.hideColliding(in: &s)
        XCTAssertEqual(s.pins.map(\.pointIndex), [1])
    }

    func testPinsWithoutAPriceStay() {
        var s = Scene()
        s.pins = [pin(0, x: 100), pin(1, x: 101, label: nil), pin(2, x: 102, label: "Casa")]
        CapsuleCollision.hideColliding(in: &s)
        XCTAssertEqual(s.pins.map(\.pointIndex), [0, 1, 2])
    }

    /// The real Lisbon stays, through the presentation the window draws with, at every zoom from
    /// the world to the street: no two drawn capsules overlap, and from zoom 15 (all in view) all six show.
    func testLisbonsCapsulesNeverOverlap() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let set = try PointSetLoader.load(path: url.appendingPathComponent("data/points/lisbon.geojson").path)
        let session = MapDataSession(pointSets: [set], datasets: [try XCTUnwrap(DatasetCatalog.dataset(id: "lisbon"))])
        let p = MapPresentation.still(session: session, labels: .empty, sceneRenderer: SceneRenderer())
        var shownAt: [Double: Int] = [:]
        for step in 0...60 {
            let zoom = 3 + Double(step) * 0.25
            let cam = Camera(center: GeoCoordinate(latitude: 38.714, longitude: -9.139), zoom: zoom,
                             viewportSize: ScreenSize(width: 1100, height: 700))
            // Asked twice, seconds apart: a new zoom level's transition has ended (the scene at rest).
            _ = p.scene(for: cam, now: Double(step) * 10, moving: false, reducedMotion: false)
            let scene = p.scene(for: cam, now: Double(step) * 10 + 5, moving: false, reducedMotion: false).scene
            let rects = capsules(scene, style: p.sceneBuilder.style)
            XCTAssertGreaterThanOrEqual(rects.count, 1, "zoom \(zoom)")
            for i in rects.indices { for j in rects.indices where j > i {
                XCTAssertFalse(rects[i].intersects(rects[j]), "zoom \(zoom): \(rects[i]) and \(rects[j])")
            } }
            shownAt[zoom] = rects.count
        }
        XCTAssertEqual(shownAt[16], 6)
        XCTAssertEqual(shownAt[15], 6, "\(shownAt.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" })")
        XCTAssertLessThan(shownAt[10] ?? 6, 6, "at zoom 10 they would pile up")
    }
}

import XCTest
import ClusterCore
@testable import MapModel

/// When a pan layer may be copied, where the view sits in it, and where it is drawn.
final class PanLayerPlanTests: XCTestCase {
    let size = ScreenSize(width: 1280, height: 800)
    let paris = GeoCoordinate(latitude: 48.85, longitude: 2.35)

    private func camera(zoom: Double = 6, at c: GeoCoordinate? = nil) -> Camera {
        Camera(center: c ?? paris, zoom: zoom, viewportSize: size)
    }

    /// Standing still: even margins; the view starts at the margins, and the layer camera's screen
    /// is the view's moved by them (so a scene built for it is the view's scene, moved).
    func testEvenMarginsAndLayerCoordinates() throws {
        for scale in [1.0, 2.0, 1.5] {
            let cam = camera()
            let plan = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: scale, content: 7, margin: 200))
            XCTAssertEqual([plan.left, plan.top, plan.right, plan.bottom], [200, 200, 200, 200])
            XCTAssertEqual(plan.layerSize, ScreenSize(width: 1680, height: 1200))
            let o = try XCTUnwrap(plan.viewOrigin(for: cam, scale: scale, content: 7))
            XCTAssertEqual(o.x, Int(200 * scale))
            XCTAssertEqual(o.y, Int(200 * scale))
            for c in [paris, GeoCoordinate(latitude: 50.1, longitude: -1.7), GeoCoordinate(latitude: 46, longitude: 8)] {
                let v = cam.screenPoint(for: c), l = plan.layerCamera.screenPoint(for: c)
                XCTAssertEqual(l.x - v.x, plan.left, accuracy: 1e-6)
                XCTAssertEqual(l.y - v.y, plan.top, accuracy: 1e-6)
            }
        }
    }

    /// Panning by whole device pixels moves the view's origin by exactly as many; in between it
    /// is rounded as sprites are (half up).
    func testOriginFollowsThePan() throws {
        let cam = camera()
        for scale in [1.0, 2.0] {
            let plan = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: scale, content: 1, margin: 256))
            let m = Int(256 * scale)
            for (dx, dy) in [(9.0, -4.0), (-120.0, 31.0), (255.0, -256.0), (0.5, 0.5), (-0.25, 0.75), (3.49, -3.51)] {
                let o = try XCTUnwrap(plan.viewOrigin(for: cam.panned(by: dx, dy), scale: scale, content: 1), "\(dx), \(dy)")
                // Content follows the pointer: panning right moves the view left in the layer.
                XCTAssertEqual(o.x, m + Int((-dx * scale + 0.5).rounded(.down)), "\(dx) at \(scale)")
                XCTAssertEqual(o.y, m + Int((-dy * scale + 0.5).rounded(.down)), "\(dy) at \(scale)")
            }
        }
    }

    /// The view may go right up to the layer's edges, not past them.
    func testLeavingTheLayer() throws {
        let cam = camera()
        let plan = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: 1, content: 1, margin: 100))
        XCTAssertNotNil(plan.viewOrigin(for: cam.panned(by: 100, 100), scale: 1, content: 1))
        XCTAssertNotNil(plan.viewOrigin(for: cam.panned(by: -100, -100), scale: 1, content: 1))
        XCTAssertNil(plan.viewOrigin(for: cam.panned(by: 101, 0), scale: 1, content: 1))
        XCTAssertNil(plan.viewOrigin(for: cam.panned(by: 0, -101), scale: 1, content: 1))
        XCTAssertNil(plan.viewOrigin(for: cam.panned(by: -300, 20), scale: 1, content: 1))
    }

    /// Anything but a pan makes the layer unusable: zoom, viewport, scale, content.
    func testOtherChangesInvalidate() throws {
        let cam = camera()
        let plan = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: 1, content: 5, margin: 128))
        XCTAssertNotNil(plan.viewOrigin(for: cam, scale: 1, content: 5))
        XCTAssertNil(plan.viewOrigin(for: cam, scale: 1, content: 6))
        XCTAssertNil(plan.viewOrigin(for: cam, scale: 2, content: 5))
        var zoomed = cam
        zoomed.setZoom(6.001)
        XCTAssertNil(plan.viewOrigin(for: zoomed, scale: 1, content: 5))
        var resized = cam
        resized.viewportSize = ScreenSize(width: 1280, height: 801)
        XCTAssertNil(plan.viewOrigin(for: resized, scale: 1, content: 5))
    }

    /// Moving, most of the margins go ahead of the motion (the camera's centre moves right: the
    /// view needs room on the right of the layer).
    func testMarginsGoAheadOfTheMotion() throws {
        let cam = camera()
        let plan = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: 1, content: 1, margin: 200,
                                                   velocity: ScreenPoint(x: 9, y: -4)))
        XCTAssertEqual(plan.left, 100)
        XCTAssertEqual(plan.right, 300)
        XCTAssertEqual(plan.top, 300)
        XCTAssertEqual(plan.bottom, 100)
        // Ahead: 299 more pixels of travel fit; behind only 100.
        XCTAssertNotNil(plan.viewOrigin(for: cam.panned(by: -299, 299), scale: 1, content: 1))
        XCTAssertNil(plan.viewOrigin(for: cam.panned(by: 101, 0), scale: 1, content: 1))
        // A slow drift keeps them even.
        let slow = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: 1, content: 1, margin: 200,
                                                   velocity: ScreenPoint(x: 0.3, y: 0)))
        XCTAssertEqual(slow.left, 200)
        XCTAssertEqual(slow.right, 200)
    }

    /// No layer where the world is smaller than it (world copies side by side) or where the view is
    /// held at the Mercator edge (the layer camera would be moved).
    func testNoLayerWhereTheWorldIsSmall() throws {
        XCTAssertNil(PanLayerPlan.make(camera: camera(zoom: 2.5), scale: 1, content: 1, margin: 256))
        XCTAssertNotNil(PanLayerPlan.make(camera: camera(zoom: 3), scale: 1, content: 1, margin: 256))
        let north = camera(zoom: 4, at: GeoCoordinate(latitude: 84, longitude: 10))
        XCTAssertNil(PanLayerPlan.make(camera: north, scale: 1, content: 1, margin: 256))
    }

    /// Across the antimeridian the camera's longitude wraps; the layer still follows the pan.
    func testAcrossTheAntimeridian() throws {
        let cam = camera(zoom: 5, at: GeoCoordinate(latitude: -17, longitude: 179.9))
        let plan = try XCTUnwrap(PanLayerPlan.make(camera: cam, scale: 1, content: 1, margin: 256))
        let moved = cam.panned(by: -40, 0)
        XCTAssertLessThan(moved.center.longitude, 0)
        let o = try XCTUnwrap(plan.viewOrigin(for: moved, scale: 1, content: 1))
        XCTAssertEqual(o.x, 296)
        XCTAssertEqual(o.y, 256)
    }

    /// A layer's scene moved to the view keeps what reaches into it, at view positions.
    func testSceneTranslation() {
        var scene = Scene()
        scene.bubbles = [SceneBubble(id: .cluster(1), center: ScreenPoint(x: 300, y: 300), radius: 20, count: 5, label: "5", step: 0),
                         SceneBubble(id: .cluster(2), center: ScreenPoint(x: 2000, y: 300), radius: 20, count: 5, label: "5", step: 0)]
        scene.pins = [ScenePin(id: .point(3), pointIndex: 3, center: ScreenPoint(x: 290, y: 250), name: "a", label: nil, color: 0)]
        scene.labels = [SceneLabel(id: 9, text: "Paris", kind: .city, frame: ScreenRect(x: 250, y: 240, width: 40, height: 12),
                                   dot: ScreenPoint(x: 255, y: 246), alpha: 1),
                        SceneLabel(id: 10, text: "Far", kind: .city, frame: ScreenRect(x: 20, y: 20, width: 40, height: 12),
                                   dot: nil, alpha: 1)]
        let view = ScreenRect(x: 0, y: 0, width: 1280, height: 800)
        let moved = scene.translated(by: -256, -200, keepingWithin: view, margin: 30)
        XCTAssertEqual(moved.bubbles.map(\.center), [ScreenPoint(x: 44, y: 100)])
        XCTAssertEqual(moved.pins.map(\.center), [ScreenPoint(x: 34, y: 50)])
        XCTAssertEqual(moved.labels.map(\.text), ["Paris"])
        XCTAssertEqual(moved.labels.first?.frame, ScreenRect(x: -6, y: 40, width: 40, height: 12))
        XCTAssertEqual(moved.labels.first?.dot, ScreenPoint(x: -1, y: 46))
    }
}

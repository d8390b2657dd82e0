import ClusterCore
import XCTest
@testable import MapModel

/// Names on a still map: shown fully or not at all, never cut by the view's edge, never under
/// the controls drawn over the map; in motion they fade by zoom and may cross the edge.
final class MapLabelRestingTests: XCTestCase {
    let fixtures = LabelFixtures()

    func measure(_ l: MapLabelLayout) -> (Int) -> MapLabelSize { { self.fixtures.size(l.index.candidates[$0]) } }

    func testAtRestEveryNameIsOpaqueAndFaintOnesAreLeftOut() {
        let candidates = fixtures.randomCandidates(2000, seed: 5, around: GeoCoordinate(latitude: 30, longitude: 30), spread: 30)
            .enumerated().map { i, c -> MapLabelCandidate in
                var c = c
                c.minZoom = 4 + Double(i % 7) * 0.1  // zoom 4.1: fades from 0 (4.6) to 1 (4.0 and before)
                return c
            }
        let cam = fixtures.camera(30, 30, zoom: 4.1)
        let l = fixtures.layout(candidates)
        let moving = l.labels(for: cam, isAnimating: true, size: measure(l))
        XCTAssertTrue(moving.contains { $0.alpha > 0 && $0.alpha < 1 }, "in motion names fade by zoom")
        let rest = l.labels(for: cam, size: measure(l))
        XCTAssertFalse(rest.isEmpty)
        XCTAssertTrue(rest.allSatisfy { $0.alpha == 1 }, "at rest a name is drawn fully")
        for s in rest {
            XCTAssertGreaterThanOrEqual(candidates[s.id].alpha(atZoom: cam.zoom), MapLabelCandidate.restingAlpha,
                                        "\(s.text) is less than half faded in: left out at rest")
        }
        XCTAssertTrue(moving.contains { candidates[$0.id].alpha(atZoom: cam.zoom) < MapLabelCandidate.restingAlpha },
                      "the fixture has names that only motion shows")
        // Coming to rest after the motion placement, the names strong enough stay where they were
        // (nothing jumps), the faint ones go.
        let restFrames = Dictionary(uniqueKeysWithValues: rest.map { ($0.id, $0.frame) })
        for m in moving where m.alpha >= MapLabelCandidate.restingAlpha && m.frame.minX >= 0 && m.frame.maxX <= 1280
            && m.frame.minY >= 0 && m.frame.maxY <= 800 && m.dot == nil {
            XCTAssertEqual(restFrames[m.id], m.frame, "\(m.text) kept its place")
        }
    }

    func testPanningAtOneZoomShowsNoFaintNames() {
        let candidates = fixtures.randomCandidates(6000, seed: 9, around: GeoCoordinate(latitude: 20, longitude: 30), spread: 100)
            .enumerated().map { i, c -> MapLabelCandidate in
                var c = c
                c.minZoom = 4 + Double(i % 7) * 0.1
                return c
            }
        let l = fixtures.layout(candidates)
        var cam = fixtures.camera(20, 30, zoom: 4.1)
        _ = l.labels(for: cam, size: measure(l))  // at rest
        // A drag far enough to leave the placed region: new ground is placed in motion.
        for _ in 0..<8 {
            cam.pan(by: -100, -20)
            let moving = l.labels(for: cam, isAnimating: true, size: measure(l))
            XCTAssertFalse(moving.isEmpty)
            XCTAssertTrue(moving.allSatisfy { $0.alpha == 1 }, "no faint name while panning at one zoom")
        }
        XCTAssertGreaterThan(l.placementCount, 1, "the drag placed new ground")
        // A zoom still fades.
        cam.setZoom(4.05)
        let zooming = l.labels(for: cam, isAnimating: true, size: measure(l))
        XCTAssertTrue(zooming.contains { $0.alpha < 1 })
    }

    func testAtRestNoNameIsCutByTheViewsEdge() {
        let cam = fixtures.camera(0, 0, zoom: 5)
        // A town whose name runs past the right edge, and one well inside.
        let edge = cam.coordinate(at: ScreenPoint(x: 1270, y: 400))
        let inside = cam.coordinate(at: ScreenPoint(x: 600, y: 400))
        let candidates = [
            MapLabelCandidate(text: "Edgetown", x: WebMercator.x(longitude: edge.longitude), y: WebMercator.y(latitude: edge.latitude),
                              kind: .town, minZoom: 0),
            MapLabelCandidate(text: "Middleton", x: WebMercator.x(longitude: inside.longitude),
                              y: WebMercator.y(latitude: inside.latitude), kind: .town, minZoom: 0),
        ]
        let l = fixtures.layout(candidates)
        XCTAssertEqual(l.labels(for: cam, isAnimating: true, size: measure(l)).map(\.text).sorted(), ["Edgetown", "Middleton"],
                       "in motion a name may cross the edge")
        let rest = l.labels(for: cam, size: measure(l))
        XCTAssertEqual(rest.map(\.text), ["Middleton"])
        for s in rest {
            XCTAssertTrue(s.frame.minX >= 0 && s.frame.maxX <= 1280 && s.frame.minY >= 0 && s.frame.maxY <= 800)
        }
    }

    func testAtRestNoNameIsUnderTheControls() {
        let cam = fixtures.camera(0, 0, zoom: 5)
        let areas = MapChromeAreas.standard.rects(width: 1280, height: 800)
        XCTAssertEqual(areas.count, 3)
        // One name in each covered area, one in the open.
        let points = [ScreenPoint(x: 1250, y: 40), ScreenPoint(x: 30, y: 780), ScreenPoint(x: 700, y: 792),
                      ScreenPoint(x: 640, y: 300)]
        let candidates = points.enumerated().map { i, p -> MapLabelCandidate in
            let g = cam.coordinate(at: p)
            return MapLabelCandidate(text: "N\(i)", x: WebMercator.x(longitude: g.longitude), y: WebMercator.y(latitude: g.latitude),
                                     kind: .lake, minZoom: 0)
        }
        let l = fixtures.layout(candidates)
        XCTAssertEqual(l.labels(for: cam, size: measure(l)).count, 4, "with no controls every name shows")
        l.keepClear = .standard
        let rest = l.labels(for: cam, size: measure(l))
        XCTAssertEqual(rest.map(\.text), ["N3"])
        for s in rest { XCTAssertFalse(areas.contains { $0.intersects(s.frame) }) }
    }
}

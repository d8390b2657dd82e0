import ClusterCore
import XCTest
@testable import MapModel

/// Label placement as pure code: no overlaps, priority order, stability while panning, fades,
/// the world wrap, and labels giving way to bubbles and pins.
final class MapLabelPlacementTests: XCTestCase {
    let fixtures = LabelFixtures()
    func size(_ c: MapLabelCandidate) -> MapLabelSize { fixtures.size(c) }
    func randomCandidates(_ n: Int, seed: UInt64, around center: GeoCoordinate, spread: Double) -> [MapLabelCandidate] {
        fixtures.randomCandidates(n, seed: seed, around: center, spread: spread)
    }
    func camera(_ lat: Double, _ lon: Double, zoom: Double) -> Camera { fixtures.camera(lat, lon, zoom: zoom) }
    func layout(_ candidates: [MapLabelCandidate]) -> MapLabelLayout { fixtures.layout(candidates) }
    func labels(_ layout: MapLabelLayout, _ cam: Camera) -> [SceneLabel] { fixtures.labels(layout, cam) }

    func testPlacedLabelsNeverOverlapAndKeepTheirPadding() {
        let l = layout(randomCandidates(3000, seed: 7, around: GeoCoordinate(latitude: 45, longitude: 5), spread: 8))
        let placed = labels(l, camera(45, 5, zoom: 6))
        XCTAssertGreaterThan(placed.count, 40, "a dense view still names many places")
        XCTAssertLessThan(placed.count, 3000, "and drops the ones that collide")
        let pad = MapLabelPlacer().padding
        for i in placed.indices {
            for j in placed.indices where j > i {
                let a = placed[i].frame, b = placed[j].frame
                let overlap = a.minX - pad < b.maxX && b.minX - pad < a.maxX && a.minY - pad < b.maxY && b.minY - pad < a.maxY
                XCTAssertFalse(overlap, "\(placed[i].text) overlaps \(placed[j].text)")
            }
        }
    }

    func testTheMoreImportantLabelWinsACollision() {
        let x = WebMercator.x(longitude: 2), y = WebMercator.y(latitude: 48)
        let important = MapLabelCandidate(text: "Capital", x: x, y: y, kind: .capital, minZoom: 0)
        let minor = MapLabelCandidate(text: "Village", x: x + 1e-6, y: y, kind: .village, minZoom: 0)
        for order in [[important, minor]] {
            let placed = labels(layout(order), camera(48, 2, zoom: 7))
            XCTAssertEqual(placed.map(\.text), ["Capital"])
        }
        // The index keeps the given (priority) order: the village first wins instead.
        XCTAssertEqual(labels(layout([minor, important]), camera(48, 2, zoom: 7)).map(\.text), ["Village"])
    }

    func testAPointLabelTriesTheOtherSideBeforeGivingUp() {
        let y = WebMercator.y(latitude: 48)
        let a = MapLabelCandidate(text: "Aaaaaaaa", x: WebMercator.x(longitude: 2), y: y, kind: .city, minZoom: 0)
        // B (more important) sits 30 px east of A and takes its preferred right-hand side; A's
        // right-hand side would cover B's dot, so A goes to the left of its own dot.
        let dx = 30 / (256 * exp2(7.0))
        let b = MapLabelCandidate(text: "Bbbbbbbb", x: a.x + dx, y: y, kind: .city, minZoom: 0)
        let placed = labels(layout([b, a]), camera(48, 2, zoom: 7))
        XCTAssertEqual(placed.count, 2)
        let pa = placed.first { $0.text == "Aaaaaaaa" }!, pb = placed.first { $0.text == "Bbbbbbbb" }!
        XCTAssertLessThan(pa.frame.maxX, pa.dot!.x, "A moved to the left of its dot (B's dot is on its right)")
        XCTAssertEqual(labels(layout([a, b]), camera(48, 2, zoom: 7)).map(\.text), ["Aaaaaaaa"],
                       "the other way round, A's text covers B's dot and B (with its dot) is dropped")
        XCTAssertGreaterThan(pb.frame.minX, pb.dot!.x, "B keeps the preferred right side")
    }

    func testPanningOnePixelMovesEveryLabelByOnePixelAndChangesNothingElse() {
        let l = layout(randomCandidates(6000, seed: 3, around: GeoCoordinate(latitude: 40, longitude: -4), spread: 50))
        var cam = camera(40, -4, zoom: 6.5)
        for _ in 0..<24 {
            let before = labels(l, cam)
            let moved = cam.panned(by: 1, 0)
            let shift = moved.centerWorldPixel.x - cam.centerWorldPixel.x
            XCTAssertEqual(abs(shift), 1, accuracy: 1e-9)
            let after = labels(l, moved)
            // Labels fully inside the view both times (text and dot: at rest a name cut by the
            // edge is left out) must be the same, shifted by one pixel.
            func inside(_ s: SceneLabel) -> Bool {
                let dotX = s.dot.map { ($0.x - 3, $0.x + 3) } ?? (s.frame.minX, s.frame.maxX)
                return min(s.frame.minX, dotX.0) > 2 && max(s.frame.maxX, dotX.1) < 1278 && s.frame.minY > 3 && s.frame.maxY < 797
            }
            let a = Dictionary(uniqueKeysWithValues: before.filter(inside).map { ($0.id, $0.frame) })
            let b = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0.frame) })
            XCTAssertFalse(a.isEmpty)
            for (id, f) in a {
                guard let g = b[id] else { XCTFail("label \(id) vanished after a 1-px pan"); continue }
                XCTAssertEqual(g.minX, f.minX - shift, accuracy: 1e-6)
                XCTAssertEqual(g.minY, f.minY, accuracy: 1e-6)
            }
            cam = moved.panned(by: 57, 13)  // walk on, crossing re-placement regions
        }
    }

    func testPlacementIsDeterministicAndAZoomChangeStartsAfresh() {
        let candidates = randomCandidates(1500, seed: 11, around: GeoCoordinate(latitude: 10, longitude: 20), spread: 12)
        let cam = camera(10, 20, zoom: 6)
        let first = labels(layout(candidates), cam)
        XCTAssertEqual(labels(layout(candidates), cam), first)
        let l = layout(candidates)
        _ = labels(l, camera(10, 20, zoom: 7.5))  // at another zoom nothing is kept
        XCTAssertEqual(labels(l, cam), first)
    }

    func testLabelsFadeInBeforeTheirZoomAndOutBeforeTheirEnd() {
        let c = MapLabelCandidate(text: "Sea", x: 0.5, y: 0.5, kind: .sea, minZoom: 4, maxZoom: 8)
        XCTAssertEqual(c.alpha(atZoom: 3.4), 0)
        XCTAssertEqual(c.alpha(atZoom: 3.75), 0.5, accuracy: 1e-9)
        XCTAssertEqual(c.alpha(atZoom: 4), 1)
        XCTAssertEqual(c.alpha(atZoom: 7.5), 1)
        XCTAssertEqual(c.alpha(atZoom: 7.75), 0.5, accuracy: 1e-9)
        XCTAssertEqual(c.alpha(atZoom: 8), 0)
        let l = layout([c])
        XCTAssertTrue(labels(l, camera(0, 0, zoom: 3.4)).isEmpty)
        // In motion the name fades by zoom; at rest it is shown fully or not at all.
        let moving = l.labels(for: camera(0, 0, zoom: 3.75), isAnimating: true) { self.size(l.index.candidates[$0]) }
        XCTAssertEqual(moving.first?.alpha ?? 0, 0.5, accuracy: 1e-9)
        XCTAssertEqual(labels(l, camera(0, 0, zoom: 3.75)).first?.alpha, 1)
        XCTAssertTrue(labels(l, camera(0, 0, zoom: 8.1)).isEmpty)
    }

    func testALabelAtTheAntimeridianIsDrawnOnceWhereTheViewCrossesIt() {
        let c = MapLabelCandidate(text: "Fiji", x: WebMercator.x(longitude: 179.9), y: WebMercator.y(latitude: -17), kind: .town,
                                  minZoom: 0)
        let d = MapLabelCandidate(text: "Samoa", x: WebMercator.x(longitude: -172), y: WebMercator.y(latitude: -14), kind: .town,
                                  minZoom: 0)
        for lon in [179.5, -179.5, 180] {
            let placed = labels(layout([c, d]), camera(-16, lon, zoom: 5))
            XCTAssertEqual(placed.filter { $0.text == "Fiji" }.count, 1, "centre \(lon)")
            XCTAssertEqual(placed.filter { $0.text == "Samoa" }.count, 1, "centre \(lon)")
            let fiji = placed.first { $0.text == "Fiji" }!
            XCTAssertEqual(fiji.dot!.x, 640 + (179.9 - lon + (lon < 0 ? -360 : 0)) / 360 * 256 * 32, accuracy: 1e-6)
        }
    }

    func testIndexQueryMatchesBruteForce() {
        var rng = SeededRandom(seed: 5)
        let candidates = (0..<5000).map { i in
            MapLabelCandidate(text: "\(i)", x: rng.unit(), y: rng.unit(), kind: .village,
                              minZoom: rng.unit() * 10, maxZoom: 8 + rng.unit() * 10)
        }
        let index = MapLabelIndex(candidates: candidates)
        // A coarse grid too: ~80 candidates a cell, so a query's early stop in each cell (cells
        // are sorted by the zoom their labels show from) is tested on long lists.
        let coarse = MapLabelIndex(candidates: candidates, gridSize: 8)
        for _ in 0..<100 {
            let x0 = rng.unit() * 0.9, y0 = rng.unit() * 0.9
            let x1 = x0 + rng.unit() * 0.1, y1 = y0 + rng.unit() * 0.1, z = rng.unit() * 16
            let expected = candidates.indices.filter {
                let c = candidates[$0]
                return c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1 && z > c.minZoom - MapLabelCandidate.fadeZooms && z < c.maxZoom
            }
            XCTAssertEqual(index.candidates(inUnitBox: x0, y0, x1, y1, zoom: z), expected)
            XCTAssertEqual(coarse.candidates(inUnitBox: x0, y0, x1, y1, zoom: z), expected)
        }
    }

    func testLabelsUnderBubblesAndPinsAreDroppedNotHidden() {
        var scene = Scene()
        scene.labels = [
            SceneLabel(id: 0, text: "Under bubble", kind: .city, frame: ScreenRect(x: 100, y: 100, width: 80, height: 12),
                       dot: ScreenPoint(x: 95, y: 106), alpha: 1),
            SceneLabel(id: 1, text: "Under pin", kind: .village, frame: ScreenRect(x: 300, y: 300, width: 60, height: 12),
                       dot: nil, alpha: 1),
            SceneLabel(id: 2, text: "Free", kind: .village, frame: ScreenRect(x: 600, y: 600, width: 60, height: 12),
                       dot: nil, alpha: 1),
            SceneLabel(id: 3, text: "Under capsule", kind: .village, frame: ScreenRect(x: 430, y: 200, width: 60, height: 12),
                       dot: nil, alpha: 1),
        ]
        scene.bubbles = [SceneBubble(id: .cluster(1), center: ScreenPoint(x: 140, y: 125), radius: 18, count: 12, label: "12", step: 0)]
        scene.pins = [ScenePin(id: .point(1), pointIndex: 1, center: ScreenPoint(x: 330, y: 315), name: "p", label: nil, color: 0),
                      ScenePin(id: .point(2), pointIndex: 2, center: ScreenPoint(x: 400, y: 205), name: "q", label: "Open now",
                               color: 0)]
        scene.dropLabelsUnderMarks()
        XCTAssertEqual(scene.labels.map(\.text), ["Free"])
    }

    /// Labels are dropped exactly when a mark's box (grown by the clearance) meets them: the same
    /// answer as testing every label against every mark, over random crowded scenes.
    func testDroppingLabelsUnderMarksEqualsTestingEveryPair() {
        var rng = SeededRandom(seed: 77)
        let texts: [String?] = [nil, "", "$120", "€86", "1,200 kr", "Open now", "A much longer capsule text", "42", "Ünïcødé ☕"]
        for round in 0..<40 {
            var scene = Scene()
            let w = 1280.0, h = 800.0
            for n in 0..<(round % 4 == 0 ? 0 : 200 + Int(rng.unit() * 1300)) {
                let p = ScreenPoint(x: rng.unit() * w, y: rng.unit() * h)
                if rng.unit() < 0.5 {
                    var b = SceneBubble(id: .cluster(n), center: p, radius: 8 + rng.unit() * 30, count: 5, label: "5", step: 0)
                    if rng.unit() < 0.1 { b.alpha = 0 }
                    scene.bubbles.append(b)
                } else {
                    var pin = ScenePin(id: .point(n), pointIndex: n, center: p, name: "p\(n)",
                                       label: texts[Int(rng.unit() * Double(texts.count)) % texts.count], color: 0)
                    pin.isSelected = rng.unit() < 0.05
                    if rng.unit() < 0.1 { pin.alpha = 0 }
                    scene.pins.append(pin)
                }
            }
            for n in 0..<Int(rng.unit() * 6) {
                scene.placeNames.append(SceneLabel(id: -n - 1, text: "n", kind: .village,
                                                   frame: ScreenRect(x: rng.unit() * w, y: rng.unit() * h, width: 50, height: 12),
                                                   dot: nil, alpha: 1))
            }
            for n in 0..<(1 + Int(rng.unit() * 60)) {
                let frame = ScreenRect(x: rng.unit() * w - 50, y: rng.unit() * h - 10, width: 20 + rng.unit() * 200,
                                       height: 10 + rng.unit() * 20)
                let dot = rng.unit() < 0.5 ? ScreenPoint(x: frame.minX - 5, y: frame.minY + 6) : nil
                scene.labels.append(SceneLabel(id: n, text: "l\(n)", kind: .city, frame: frame, dot: dot, alpha: 1))
            }
            var marks: [Box] = scene.bubbles.filter { $0.alpha > 0 }.map {
                Box(minX: $0.center.x - $0.radius - 2, minY: $0.center.y - $0.radius - 2,
                    maxX: $0.center.x + $0.radius + 2, maxY: $0.center.y + $0.radius + 2)
            }
            marks += scene.pins.filter { $0.alpha > 0 }.map {
                let m = PlaceNamePlacer.markBox($0)
                return Box(minX: m.minX - 2, minY: m.minY - 2, maxX: m.maxX + 2, maxY: m.maxY + 2)
            }
            marks += scene.placeNames.map { Box(minX: $0.frame.minX, minY: $0.frame.minY, maxX: $0.frame.maxX, maxY: $0.frame.maxY) }
            let expected = scene.labels.filter { l in
                var box = Box(minX: l.frame.minX, minY: l.frame.minY, maxX: l.frame.maxX, maxY: l.frame.maxY)
                if let d = l.dot { box = box.union(Box(minX: d.x - 3, minY: d.y - 3, maxX: d.x + 3, maxY: d.y + 3)) }
                return !marks.contains { $0.intersects(box) }
            }
            scene.dropLabelsUnderMarks()
            XCTAssertEqual(scene.labels, expected, "round \(round)")
        }
    }

    func testAZoomAnimationReusesAPlacementAndNamesGlideWithTheMap() {
        let candidates = randomCandidates(3000, seed: 21, around: GeoCoordinate(latitude: 45, longitude: 10), spread: 20)
        let l = layout(candidates)
        var cam = camera(45, 10, zoom: 6)
        let start = labels(l, cam)
        XCTAssertEqual(l.placementCount, 1)
        var last = start
        for _ in 0..<20 {
            cam.setZoom(cam.zoom + 0.025)
            last = l.labels(for: cam, isAnimating: true) { self.size(l.index.candidates[$0]) }
        }
        XCTAssertLessThanOrEqual(l.placementCount, 3, "half a zoom level of animation re-places at most twice")
        // A name reused at another zoom sits where its anchor now is: dots follow the map exactly.
        for s in last {
            guard let d = s.dot else { continue }
            let c = candidates[s.id]
            let expected = cam.screenPoint(for: GeoCoordinate(latitude: WebMercator.latitude(y: c.y), longitude: (c.x - 0.5) * 360))
            XCTAssertEqual(d.x, expected.x, accuracy: 1e-6)
            XCTAssertEqual(d.y, expected.y, accuracy: 1e-6)
        }
        // At rest the placement is exact for the zoom: the same as a fresh layout's.
        let rest = labels(l, cam)
        XCTAssertEqual(rest, labels(layout(candidates), cam))
    }
}

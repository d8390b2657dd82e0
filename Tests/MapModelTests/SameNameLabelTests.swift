import XCTest
@testable import MapModel

/// A data place and the base map naming the same place side by side: the base map's name yields.
final class SameNameLabelTests: XCTestCase {
    func label(_ text: String, dotAt x: Double, _ y: Double, id: Int) -> SceneLabel {
        SceneLabel(id: id, text: text, kind: .city, frame: ScreenRect(x: x + 5.5, y: y - 6, width: 7 * Double(text.count), height: 12),
                   dot: ScreenPoint(x: x, y: y), alpha: 1)
    }

    /// A data place's name as `PlaceNamePlacer` draws it (beside its pin, no dot).
    func placeName(_ text: String, at x: Double, _ y: Double, n: Int) -> SceneLabel {
        SceneLabel(id: -n - 1, text: text, kind: .place, frame: ScreenRect(x: x, y: y - 6, width: 7 * Double(text.count), height: 12),
                   dot: nil, alpha: 1)
    }

    func testTheBaseMapsNameYieldsToADataPlaceOfTheSameNameBesideIt() {
        var scene = Scene()
        scene.labels = [label("London", dotAt: 500, 400, id: 0), label("Taucha", dotAt: 200, 200, id: 1),
                        label("São Paulo", dotAt: 900, 600, id: 2), label("Leipzig", dotAt: 300, 650, id: 3),
                        label("Paris", dotAt: 1100, 100, id: 4)]
        scene.placeNames = [
            placeName("london", at: 560, 450, n: 0),   // 80 px away, clear of the label's box: the same place
            placeName("Sao Paulo", at: 960, 640, n: 1),  // accents aside, the same name
            placeName("Leipziger Hof", at: 320, 690, n: 2),  // another name
            placeName("Paris", at: 700, 700, n: 3),   // the same name, far away: another place
        ]
        // A pin named Taucha whose name is not drawn (too crowded, or below the names' zoom)
        // names nothing: the base map's Taucha stays.
        scene.pins = [ScenePin(id: .point(9), pointIndex: 9, center: ScreenPoint(x: 230, y: 260), name: "Taucha", label: nil, color: 0)]
        scene.dropLabelsUnderMarks()
        XCTAssertEqual(scene.labels.map(\.text), ["Taucha", "Leipzig", "Paris"])
    }

    func testTheDistanceIsTheLimit() {
        for (dx, kept) in [(Scene.sameNameDistance - 1, false), (Scene.sameNameDistance + 1, true)] {
            var scene = Scene()
            scene.labels = [label("Taucha", dotAt: 100, 400, id: 0)]
            // The name's box centred `dx` right of the dot.
            scene.placeNames = [placeName("Taucha", at: 100 + dx - 21, 400, n: 0)]
            scene.dropLabelsUnderMarks()
            XCTAssertEqual(scene.labels.isEmpty, !kept, "name \(dx) px away")
        }
    }
}

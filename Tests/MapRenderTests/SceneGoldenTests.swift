import ClusterCore
import MapModel
@testable import MapRender
import XCTest

/// Bubbles, pins, callouts, fans and hulls over the base map, compared with reviewed PNGs.
final class SceneGoldenTests: XCTestCase {
    static let size = ScreenSize(width: 480, height: 320)
    let lisbon = Camera(center: GeoCoordinate(latitude: 38.70, longitude: -9.20), zoom: 10, viewportSize: size)

    private func render(_ scene: Scene, palette: MapPalette = .light, scale: Double = 1) -> ImageSurface {
        let frame = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: palette,
                                     attribution: "")
        frame.showsScaleBar = false
        let overlay = SceneRenderer()
        overlay.scene = scene
        frame.overlays = [overlay]
        return frame.renderImage(camera: lisbon, scale: scale)
    }

    static func bubble(_ x: Double, _ y: Double, count: Int, label: String) -> SceneBubble {
        let style = BubbleStyle()
        return SceneBubble(id: .cluster(Int(x * 1000 + y)), center: ScreenPoint(x: x, y: y),
                           radius: style.radius(forCount: count), count: count, label: label,
                           step: style.step(forCount: count))
    }

    static func pin(_ i: Int, _ x: Double, _ y: Double, label: String? = nil, color: UInt32 = 0x2F78C2) -> ScenePin {
        ScenePin(id: .point(i), pointIndex: i, center: ScreenPoint(x: x, y: y), name: "Place \(i)", label: label,
                 color: color)
    }

    /// Three steps (8 / 150 / 1.2k), a hovered bubble and one holding the selection; plain pins in
    /// category colours, price capsules and a selected pin with its capsule.
    static func marksScene() -> Scene {
        var s = Scene()
        s.bubbles = [bubble(60, 70, count: 8, label: "8"), bubble(135, 70, count: 150, label: "150"),
                     bubble(220, 70, count: 1234, label: "1.2k"), bubble(60, 150, count: 42, label: "42"),
                     bubble(135, 150, count: 15_300, label: "15k"), bubble(220, 150, count: 99, label: "99")]
        s.bubbles[4].isHovered = true
        s.bubbles[5].containsSelection = true
        s.pins = [pin(1, 300, 60, color: 0xD6336C), pin(2, 330, 85, color: 0x2B8A3E), pin(3, 300, 110, color: 0xF08C00),
                  pin(4, 340, 135), pin(5, 300, 230, label: "$120"), pin(6, 330, 265, label: "$86"),
                  pin(7, 60, 240, label: "$210", color: 0x7048E8), pin(8, 160, 250, label: "$145"),
                  pin(9, 400, 200)]
        s.pins[7].isSelected = true
        s.pins[8].isHovered = true
        return s
    }

    func testBubblesAndPinsLight() { Golden.assertMatches(render(Self.marksScene()), named: "scene-marks-light") }
    func testBubblesAndPinsDark() {
        Golden.assertMatches(render(Self.marksScene(), palette: .dark), named: "scene-marks-dark")
    }
    func testBubblesAndPinsHiDPI() {
        Golden.assertMatches(render(Self.marksScene(), scale: 2), named: "scene-marks-light-2x")
    }

    static func calloutScene() -> Scene {
        var s = Scene()
        var selected = pin(1, 240, 270, label: "$120")
        selected.isSelected = true
        s.pins = [pin(2, 150, 285, label: "$86"), pin(3, 330, 250, color: 0xD6336C), selected]
        let title = "Rooftop Loft with a terrace over Alfama and the river"
        let lines = ["$120 per night",
                     "A bright loft under the roof of an 18th-century building, five minutes from the tram 28 stop; "
                        + "breakfast on the terrace <b>not</b> included & quiet at night.",
                     "rooms: 2", "host: Ana & João", "rating: 4.9", "checkin: 15:00", "checkout: 11:00", "wifi: yes"]
        // A card (SPEC §7): close button, "Copy coordinates" and "More" along the bottom.
        let card = CalloutMeasurer.card(title: title, lines: lines, links: [(.copyCoordinates, "Copy coordinates"), (.more, "More")],
                                        maxWidth: 260, maxHeight: 220)
        let frame = CalloutPlacement.frame(above: selected.center, size: card.size)
        s.callout = SceneCallout(pointIndex: 1, frame: frame, anchor: selected.center, title: title, lines: lines)
        s.callout?.buttons = card.buttons
        return s
    }

    func testCalloutLight() { Golden.assertMatches(render(Self.calloutScene()), named: "scene-callout-light") }
    func testCalloutDark() {
        Golden.assertMatches(render(Self.calloutScene(), palette: .dark), named: "scene-callout-dark")
    }

    func testFanOfEight() {
        var s = Scene()
        let centre = ScreenPoint(x: 240, y: 160)
        var b = Self.bubble(centre.x, centre.y, count: 8, label: "8")
        b.alpha = 0.45
        s.bubbles = [b]
        let colors: [UInt32] = [0x2F78C2, 0xD6336C, 0x2B8A3E, 0xF08C00, 0x7048E8, 0x1098AD, 0xE8590C, 0x495057]
        for (i, o) in FanLayout().offsets(count: 8).enumerated() {
            let p = ScreenPoint(x: centre.x + o.x, y: centre.y + o.y)
            s.fanLegs.append(SceneLeg(from: centre, to: p))
            s.pins.append(Self.pin(i, p.x, p.y, color: colors[i]))
        }
        s.pins[2].isHovered = true
        s.focusRing = SceneFocusRing(id: .point(5), center: s.pins[5].center, radius: BubbleStyle().pinRadius)
        Golden.assertMatches(render(s), named: "scene-fan-light")
    }

    func testHoverHull() {
        var s = Scene()
        let pts = [ScreenPoint(x: 170, y: 120), ScreenPoint(x: 250, y: 90), ScreenPoint(x: 330, y: 140),
                   ScreenPoint(x: 300, y: 230), ScreenPoint(x: 200, y: 220), ScreenPoint(x: 240, y: 170)]
        s.hull = ConvexHull.hull(of: pts)
        var hovered = Self.bubble(250, 165, count: 320, label: "320")
        hovered.isHovered = true
        s.bubbles = [Self.bubble(90, 80, count: 12, label: "12"), hovered, Self.bubble(400, 250, count: 950, label: "950")]
        Golden.assertMatches(render(s), named: "scene-hull-light")
    }
}

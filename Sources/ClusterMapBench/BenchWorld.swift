import ClusterCore
import Foundation
import MapModel

/// Items fixed in the world for the `frame` benchmark's panning: as many per screenful as the
/// benchmark's items (60 % bubbles, 40 % pins, a quarter with a price capsule), over the view at
/// the start, the ground a pan of `travel` covers and a margin around both, plus one selected
/// pin with its callout. `scene(for:)` is what the window's scene builder makes for a camera:
/// the items within the view and the largest bubble's radius, at screen positions.
struct BenchWorld {
    private var bubbles: [(x: Double, y: Double, count: Int)] = []
    private var pins: [(x: Double, y: Double, label: String?, color: UInt32)] = []
    private let selected: ScenePin
    private let selectedWorld: (x: Double, y: Double)
    private let callout: SceneCallout
    private let style = BubbleStyle()

    init(items: Int, around start: Camera, travel: ScreenPoint, selected: ScenePin, callout: SceneCallout) {
        var rng = SeededRandom(seed: 42)
        let colors: [UInt32] = [0x2F78C2, 0xD6336C, 0x2B8A3E, 0xF08C00, 0x7048E8, 0x1098AD]
        let c = start.centerWorldPixel
        let w = start.viewportSize.width, h = start.viewportSize.height, pad = 800.0
        let minX = c.x - w / 2 - pad + min(0, travel.x), maxX = c.x + w / 2 + pad + max(0, travel.x)
        let minY = c.y - h / 2 - pad + min(0, travel.y), maxY = c.y + h / 2 + pad + max(0, travel.y)
        let count = Int(Double(items) * (maxX - minX) * (maxY - minY) / (w * h))
        for _ in 0..<count {
            let x = minX + rng.unit() * (maxX - minX), y = minY + rng.unit() * (maxY - minY)
            if rng.unit() < 0.6 {
                bubbles.append((x, y, max(2, Int(exp(rng.unit() * 10.8)))))
            } else {
                let label: String? = rng.unit() < 0.25 ? "$\(40 + Int(rng.unit() * 260))" : nil
                pins.append((x, y, label, colors[Int(rng.unit() * Double(colors.count)) % colors.count]))
            }
        }
        self.selected = selected
        selectedWorld = (selected.center.x - w / 2 + c.x, selected.center.y - h / 2 + c.y)
        var box = callout
        box.frame.x -= selected.center.x
        box.frame.y -= selected.center.y
        box.anchor = .zero
        self.callout = box
    }

    /// The scene for `camera` (screen = world − centre + half the viewport).
    func scene(for camera: Camera) -> Scene {
        let c = camera.centerWorldPixel
        let vw = camera.viewportSize.width, vh = camera.viewportSize.height
        let ox = vw / 2 - c.x, oy = vh / 2 - c.y
        let margin = style.radii.max() ?? 30
        func inView(_ x: Double, _ y: Double) -> Bool { x >= -margin && x <= vw + margin && y >= -margin && y <= vh + margin }
        var s = Scene()
        for (n, b) in bubbles.enumerated() where inView(b.x + ox, b.y + oy) {
            s.bubbles.append(SceneBubble(id: .cluster(n), center: ScreenPoint(x: b.x + ox, y: b.y + oy),
                                         radius: style.radius(forCount: b.count), count: b.count,
                                         label: abbreviatedCount(b.count), step: style.step(forCount: b.count)))
        }
        for (n, p) in pins.enumerated() where inView(p.x + ox, p.y + oy) {
            s.pins.append(ScenePin(id: .point(n), pointIndex: n, center: ScreenPoint(x: p.x + ox, y: p.y + oy),
                                   name: "Place \(n)", label: p.label, color: p.color))
        }
        let sp = ScreenPoint(x: selectedWorld.x + ox, y: selectedWorld.y + oy)
        if inView(sp.x, sp.y) {
            var pin = selected
            pin.center = sp
            s.pins.append(pin)
            var box = callout
            box.frame.x += sp.x
            box.frame.y += sp.y
            box.anchor = sp
            s.callout = box
        }
        return s
    }
}

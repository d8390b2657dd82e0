import ClusterCore
@testable import MapModel

/// Label candidates, cameras and a fake measurer shared by the label placement tests.
struct LabelFixtures {
    /// A fake measurer: 7 px per character, 12 px per line.
    func size(_ c: MapLabelCandidate) -> MapLabelSize {
        let lines = c.text.split(separator: "\n")
        return MapLabelSize(width: Double(lines.map(\.count).max() ?? 0) * 7, height: Double(lines.count) * 12)
    }

    func randomCandidates(_ n: Int, seed: UInt64, around center: GeoCoordinate, spread: Double) -> [MapLabelCandidate] {
        var rng = SeededRandom(seed: seed)
        let kinds: [MapLabelKind] = [.country, .capital, .city, .town, .village, .sea]
        return (0..<n).map { i in
            let lat = center.latitude + (rng.unit() - 0.5) * spread
            let lon = center.longitude + (rng.unit() - 0.5) * spread
            let name = String(repeating: "x", count: 3 + Int(rng.unit() * 12))
            return MapLabelCandidate(text: "\(name)\(i)", x: WebMercator.x(longitude: lon), y: WebMercator.y(latitude: lat),
                                     kind: kinds[i % kinds.count], minZoom: 0)
        }
    }

    func camera(_ lat: Double, _ lon: Double, zoom: Double) -> Camera {
        Camera(center: GeoCoordinate(latitude: lat, longitude: lon), zoom: zoom, viewportSize: ScreenSize(width: 1280, height: 800))
    }

    /// A layout with no controls over the view (placement alone; `MapLabelRestingTests` covers them).
    func layout(_ candidates: [MapLabelCandidate]) -> MapLabelLayout {
        let l = MapLabelLayout(index: MapLabelIndex(candidates: candidates))
        l.keepClear = .none
        return l
    }

    func labels(_ layout: MapLabelLayout, _ cam: Camera) -> [SceneLabel] {
        layout.labels(for: cam) { size(layout.index.candidates[$0]) }
    }
}

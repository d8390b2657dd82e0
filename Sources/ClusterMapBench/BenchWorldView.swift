import ClusterCore
import Foundation
import GeoData

/// The first clusters query the filter benchmarks time after a change: one 1280×800 view at
/// zoom 3 (most of the world) around a random centre, from a seeded sequence of centres.
final class BenchWorldView {
    private var random: SeededRandom
    private var buffer: [ClusterItem] = []

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// Asks `index` for the clusters of the next view.
    func callAsFunction(_ index: any PointClusterer) {
        let z = 3.0
        let c = GeoCoordinate(latitude: random.uniform(-40, 40), longitude: random.uniform(-120, 120))
        let world = 256 * pow(2, z)
        let halfW = 640 / world * 360, halfH = min(85, 400 / world * 180)
        index.clusters(in: GeoBounds(west: c.longitude - halfW, south: max(-85, c.latitude - halfH),
                                     east: c.longitude + halfW, north: min(85, c.latitude + halfH)),
                       zoom: z, into: &buffer)
    }
}

/// The places `text` passes (a benchmark's own expressions: a bad one stops the benchmark).
func benchSelection(_ evaluator: FilterEvaluator, _ text: String) -> PointSelection {
    guard let s = try? evaluator.selection(for: text) else { benchFail("bad filter \(text)") }
    return s
}

import ClusterCore
import Foundation
import GeoData
import MapModel

/// Names for every zoom past the Natural Earth cities: the bundled GeoNames places (≥ 1,000
/// people), each given the zoom from which it shows so that the map never crowds.
///
/// A place shows from the first zoom (8 at the earliest) at which it is among the
/// `placesPerCell` most populous places of its grid cell (`cellPixels` wide at that zoom). That
/// depends only on the data, not on the view, so panning can't change which towns are named.
enum GeoNamesLabels {
    struct Place {
        var id: Int
        var name: String
        var x: Double
        var y: Double
        var population: Double
    }

    static let firstZoom = 8
    static let lastZoom = 15
    static let cellPixels = 180.0
    static let placesPerCell = 2

    /// The places of a GeoNames CSV (`name`, `lat`, `lon`, `population`), read by the project's
    /// CSV reader (`PointSetLoader`), without the Natural Earth cities already named (same name
    /// within about 20 km).
    static func places(from path: String, excluding cities: [(name: String, x: Double, y: Double)]) throws -> [Place] {
        let set = try PointSetLoader.load(path: path, options: LoadOptions(format: .csv, numericProperty: "population"))
        var cityCells: [String: [(x: Double, y: Double)]] = [:]
        for c in cities { cityCells[c.name, default: []].append((c.x, c.y)) }
        let near = 0.0005  // unit-square distance, about 20 km at the equator
        var places: [Place] = []
        places.reserveCapacity(set.count)
        for i in 0..<set.count {
            guard let name = set.name(at: i), !name.isEmpty else { continue }
            let c = set.coordinates[i]
            let lat = max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, c.latitude))
            let x = WebMercator.x(longitude: c.longitude), y = WebMercator.y(latitude: lat)
            if let same = cityCells[name], same.contains(where: { abs($0.x - x) < near && abs($0.y - y) < near }) { continue }
            places.append(Place(id: i, name: name, x: x, y: y, population: set.numericValue(at: i) ?? 0))
        }
        return places
    }

    /// Candidates with their zoom from the cell rule, ranked by population.
    static func rank(_ places: [Place]) -> [BaseMapLabelSource.Ranked] {
        let order = places.indices.sorted {
            places[$0].population != places[$1].population ? places[$0].population > places[$1].population
                : places[$0].id < places[$1].id
        }
        var minZoom = [Int](repeating: Int.max, count: places.count)
        for z in firstZoom...lastZoom {
            let cells = 256 * exp2(Double(z)) / cellPixels
            var counts: [Int64: Int] = [:]
            counts.reserveCapacity(places.count / 4)
            for i in order {
                let key = Int64(places[i].x * cells) << 32 | Int64(places[i].y * cells)
                let n = counts[key, default: 0]
                if minZoom[i] <= z {
                    counts[key] = n + 1
                } else if n < placesPerCell {
                    minZoom[i] = z
                    counts[key] = n + 1
                }
            }
        }
        var out: [BaseMapLabelSource.Ranked] = []
        for (rank, i) in order.enumerated() where minZoom[i] != Int.max {
            let p = places[i]
            let c = MapLabelCandidate(text: p.name, x: p.x, y: p.y, kind: .village, minZoom: Double(minZoom[i]))
            out.append(BaseMapLabelSource.Ranked(candidate: c, priority: 50 + Double(rank) / Double(max(1, places.count))))
        }
        return out
    }
}

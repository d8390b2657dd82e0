import ClusterCore
import Foundation
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

    /// Reads `geonameid,name,lat,lon,country,admin1,population,…` rows (RFC 4180 quoting).
    static func parse(_ data: Data) -> [Place] {
        var places: [Place] = []
        places.reserveCapacity(data.count / 60)
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            var i = 0
            var isHeader = true
            while i < b.count {
                // One record: fields split on commas outside quotes.
                var field: [UInt8] = []
                var quoted = false
                var rowFields: [String] = []
                while i < b.count {
                    let c = b[i]
                    i += 1
                    if quoted {
                        if c == UInt8(ascii: "\"") {
                            if i < b.count && b[i] == UInt8(ascii: "\"") { field.append(c); i += 1 } else { quoted = false }
                        } else { field.append(c) }
                    } else if c == UInt8(ascii: "\"") {
                        quoted = true
                    } else if c == UInt8(ascii: ",") {
                        rowFields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true)
                    } else if c == UInt8(ascii: "\n") {
                        break
                    } else if c != UInt8(ascii: "\r") {
                        field.append(c)
                    }
                }
                rowFields.append(String(decoding: field, as: UTF8.self))
                if isHeader { isHeader = false; continue }
                guard rowFields.count >= 7, let id = Int(rowFields[0]), let lat = Double(rowFields[2]),
                      let lon = Double(rowFields[3]), lat.isFinite, lon.isFinite, !rowFields[1].isEmpty else { continue }
                let c = GeoCoordinate(latitude: max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, lat)), longitude: lon)
                places.append(Place(id: id, name: rowFields[1], x: WebMercator.x(longitude: c.longitude),
                                    y: WebMercator.y(latitude: c.latitude), population: Double(rowFields[6]) ?? 0))
            }
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

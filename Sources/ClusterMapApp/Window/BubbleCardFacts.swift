import AppSupport
import GeoData
import PostGIS
import Tiles

/// What remote sources say about their bubbles, for the bubble's card and tooltip (issue 31):
/// a clustered tile's feature properties (`point_count`'s companions: totals such as
/// `deaths_sum`), a database cell's totals. Pure, called on the loading thread.
extension ClusterTileLink {
    /// A tile cluster's properties as facts (numbers and texts as the tile holds them).
    nonisolated static func facts(_ properties: [(String, VectorTileValue)]) -> [RemoteView.Fact] {
        properties.map { key, value in
            switch value {
            case .string(let s): return RemoteView.Fact(key, .string(s))
            case .int(let i): return RemoteView.Fact(key, .number(Double(i)))
            case .double(let d): return RemoteView.Fact(key, .number(d))
            case .bool(let b): return RemoteView.Fact(key, .bool(b))
            }
        }
    }
}

extension DatabaseLink {
    /// A server cell's totals, named as our tile files name them (`value_sum`, `value_min`,
    /// `value_max`): the card says "Total value: …" when the view asked for a total.
    nonisolated static func facts(of item: PostGISItem) -> [RemoteView.Fact] {
        guard item.isCluster else { return [] }
        return [("value_sum", item.totalSum), ("value_min", item.totalMin), ("value_max", item.totalMax)]
            .compactMap { name, value in value.map { RemoteView.Fact(name, .number($0)) } }
    }
}

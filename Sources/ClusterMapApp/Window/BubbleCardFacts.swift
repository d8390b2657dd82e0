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
    /// A server cell's total, named by its column as our tile files name theirs (`damage_sum`,
    /// `damage_min`, `damage_max`, `damage_mean`): the card says "Total damage: …" (or "Highest
    /// damage" for `max:damage`, "Mean damage" for `mean:damage`). Nothing without a total.
    nonisolated static func facts(of item: PostGISItem, total: FilterSettings.TotalSetting?) -> [RemoteView.Fact] {
        guard item.isCluster, let total else { return [] }
        if total.kind == .mostCommon {
            // "Most common kind: fire (12 of 30)" (`BubbleCardContent.remoteLines`).
            guard let value = item.mostCommon else { return [] }
            return [RemoteView.Fact("\(total.property)_most_common", .string(value)),
                    RemoteView.Fact("\(total.property)_most_common_count", .number(Double(item.mostCommonCount ?? 0)))]
        }
        let values: [(String, Double?)]
        switch total.kind {
        case .minimum: values = [("min", item.totalMin)]
        case .maximum: values = [("max", item.totalMax)]
        case .mean: values = [("mean", item.totalMean), ("min", item.totalMin), ("max", item.totalMax)]
        case .mostCommon: values = []
        default: values = [("sum", item.totalSum), ("min", item.totalMin), ("max", item.totalMax)]
        }
        return values.compactMap { suffix, value in value.map { RemoteView.Fact("\(total.property)_\(suffix)", .number($0)) } }
    }

    /// A cell's In View words: "Total damage: 1,234", "mostly fire" (nil without a total or values).
    nonisolated static func detail(of item: PostGISItem, total: FilterSettings.TotalSetting?) -> String? {
        guard item.isCluster, let total else { return nil }
        if total.kind == .mostCommon { return RemoteView.detail(category: item.mostCommon, total: nil) }
        let value: Double?
        switch total.kind {
        case .minimum: value = item.totalMin
        case .maximum: value = item.totalMax
        case .mean: value = item.totalMean
        case .mostCommon: value = nil
        default: value = item.totalSum
        }
        return value.map { "\(BubbleGrouping.totalTitle(total)): \(BubbleCardContent.exact($0))" }
    }
}

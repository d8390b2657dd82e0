import AppSupport
import ClusterCore
import Foundation
import GeoData

// `clustermap clusters … --where EXPR --since DATE --until DATE --time PROPERTY --by PROPERTY
//  --total KIND:PROPERTY --type PROPERTY=TYPE`: the filter engine on the command line.
//
// Without --by the index is a plain build in which places that don't pass have no coordinates
// (as if those features had no geometry), so ids stay supercluster's for the filtered input.
// With --by each category is clustered apart (`SubsetClusterer`); cluster ids then carry the
// group. Clusters gain the group's value under the --by property's name and the total as
// `KIND_PROPERTY` (+ `_abbreviated`).

/// The filter settings answered for one file, in the clusterer's input order.
struct ClustersFilter {
    let settings: FilterSettings
    let result: FilterResult
    /// Per clusterer input: passes (inputs without a place never do).
    let selection: PointSelection
    let groups: [Int32]
    let categories: [Int32]
    let values: [Double]

    /// Answers `o.filters` over `set`'s properties; nil when nothing is asked.
    static func make(_ o: ClustersCommandOptions, set: PointSet, pointOfInput: [Int],
                     program: String = "clustermap clusters") throws -> ClustersFilter? {
        guard !o.filters.isEmpty else { return nil }
        let evaluator = FilterEvaluator(table: PropertyTable(pointSet: set))
        let result: FilterResult
        do {
            result = try FilterResult.apply(o.filters, evaluator: evaluator)
        } catch let e as FilterSettingsError {
            throw ClustersCommandError(message: e.description, status: 2)
        }
        func mapped<T>(_ perPlace: [T], missing: T) -> [T] {
            perPlace.isEmpty ? [] : pointOfInput.map { $0 >= 0 ? perPlace[$0] : missing }
        }
        let selection = PointSelection(count: pointOfInput.count) { k in
            let p = pointOfInput[k]
            return p >= 0 && (result.selection?[p] ?? true)
        }
        if let s = result.selection {
            ErrorOutput.write(program, "\(set.sourceName): \(s.chosenCount) of \(set.count) places pass")
        }
        return ClustersFilter(settings: o.filters, result: result, selection: selection,
                              groups: mapped(result.groups, missing: -1),
                              categories: mapped(result.totalCategories, missing: -1),
                              values: mapped(result.totalValues, missing: .nan))
    }

    /// The exact index of the passing inputs.
    func index(points: [GeoCoordinate], method: ClusteringMethod) -> any PointClusterer {
        if settings.groupProperty != nil {
            return SubsetClusterer(points: points, selection: selection, groups: groups, categories: categories,
                                   values: values, method: method)
        }
        let nan = GeoCoordinate(latitude: .nan, longitude: .nan)
        let masked = points.indices.map { selection[$0] ? points[$0] : nan }
        return method.build(points: masked, categories: categories, values: values)
    }

    /// Extra cluster properties (each starting with a comma): the group's value and the total.
    func clusterProperties(_ item: ClusterItem, index: any PointClusterer) -> String {
        var out = ""
        if let by = settings.groupProperty, let sub = index as? SubsetClusterer {
            let g = sub.groupValue(of: item) ?? -1
            out += "," + jsonString(by) + ":" + (g >= 0 ? jsonString(result.groupNames[Int(g)]) : "null")
        }
        if let total = settings.total {
            let key = Self.totalKey(total)
            let v = total.kind.value(of: index.aggregates(of: item))
            if total.kind.readsCategory {
                out += "," + jsonString(key) + ":" + (v.map { jsonString(result.totalCategoryNames[Int($0)]) } ?? "null")
            } else {
                out += "," + jsonString(key) + ":" + (v.map(jsonNumber) ?? "null")
                out += "," + jsonString(key + "_abbreviated") + ":" + (v.map { jsonString(ClusterTotal.abbreviated($0)) } ?? "null")
            }
        }
        return out
    }
}

extension ClustersFilter {
    /// The name a cluster's total goes under: `sum_deaths`, `most_common_type` (`clusters`, `tiles`,
    /// both for files and tables).
    static func totalKey(_ total: FilterSettings.TotalSetting) -> String {
        total.kind.rawValue.replacingOccurrences(of: "-", with: "_") + "_" + total.property
    }
}

/// A JSON string literal (the event log's quoting, not bounded).
private func jsonString(_ s: String) -> String { JSONValue.quote(s) }

import ClusterCore
import GeoData
import MapModel

/// A remote source's totals on its bubbles (issue 31 item 2): a table opened with `--total
/// sum:damage` writes each bubble's total abbreviated on it (`1.2k`), as a file's bubbles do
/// (`BubbleGrouping`); a bubble whose rows have no value shows "–". A sum is a weight: it sizes
/// the bubbles as a file's sum does (`BubbleGrouping.weightRadius`).
extension RemoteView {
    /// Puts each remote bubble's total on it (when the source was asked for one), and with a sum
    /// sizes the bubbles by it.
    public func labelTotals(in scene: inout Scene) {
        guard let total else { return }
        var weights: [Int: Double] = [:]  // bubble index → its sum (a sum total only)
        for i in scene.bubbles.indices {
            guard case .cluster(let raw) = scene.bubbles[i].id, RemoteView.isRemote(ClusterID(rawValue: raw)) else { continue }
            let facts = facts(of: ClusterID(rawValue: raw))
            if total.kind == .mostCommon {
                // The most common value's first letters, as a file's most-common bubble shows them.
                let top = facts.first { $0.name == total.property + "_most_common" }
                if case .string(let name)? = top?.value { scene.bubbles[i].label = BubbleGrouping.categoryLabel(name) } else { scene.bubbles[i].label = "–" }
                continue
            }
            let value = BubbleCardContent.remoteLines(facts).totals.first?.value
            scene.bubbles[i].label = value.map(ClusterTotal.abbreviated) ?? "–"
            if total.kind == .sum {
                let sum = facts.first { $0.name == total.property + "_sum" }
                if case .number(let v)? = sum?.value { weights[i] = v } else { weights[i] = 0 }
            }
        }
        let heaviest = weights.values.map { max(0, $0) }.max() ?? 0
        for (i, w) in weights { scene.bubbles[i].radius = BubbleGrouping.weightRadius(w, heaviest: heaviest) }
    }

    /// The legend with a line saying what the numbers on the bubbles are (as a file's `--total`).
    public func legend(over base: MapLegend) -> MapLegend? {
        guard let total else { return nil }
        let text = "Number on bubbles: \(BubbleGrouping.totalTitle(total).lowercased())" + (total.kind == .sum ? "; size follows it" : "")
        let entry = MapLegend.Entry(.bubble(MapDataSession.otherCategoryColor), DisplayText.line(text))
        return MapLegend(title: base.title, entries: base.entries + [entry])
    }
}

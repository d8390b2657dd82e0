import ClusterCore
import GeoData
import MapModel

/// A remote source's totals on its bubbles (issue 31 item 2): a table opened with `--total
/// sum:damage` writes each bubble's total abbreviated on it (`1.2k`), as a file's bubbles do
/// (`BubbleGrouping`); a bubble whose rows have no value shows "–".
extension RemoteView {
    /// Puts each remote bubble's total on it (when the source was asked for one).
    public func labelTotals(in scene: inout Scene) {
        guard total != nil else { return }
        for i in scene.bubbles.indices {
            guard case .cluster(let raw) = scene.bubbles[i].id, RemoteView.isRemote(ClusterID(rawValue: raw)) else { continue }
            let value = BubbleCardContent.remoteLines(facts(of: ClusterID(rawValue: raw))).totals.first?.value
            scene.bubbles[i].label = value.map(ClusterTotal.abbreviated) ?? "–"
        }
    }

    /// The legend with a line saying what the numbers on the bubbles are (as a file's `--total`).
    public func legend(over base: MapLegend) -> MapLegend? {
        guard let total else { return nil }
        let text = "Number on bubbles: \(BubbleGrouping.totalTitle(total).lowercased())"
        let entry = MapLegend.Entry(.bubble(MapDataSession.otherCategoryColor), DisplayText.line(text))
        return MapLegend(title: base.title, entries: base.entries + [entry])
    }
}

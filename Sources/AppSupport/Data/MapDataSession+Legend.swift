import ClusterCore
import GeoData
import MapModel

extension MapDataSession {
    /// Most category lines in the legend; the rest are "Other".
    static let legendCategoryLimit = 8

    /// The legend for what the data's colours mean (SPEC §7): the value ramp and what a bubble's
    /// colour says, or the categories and the ring, or the bubble count steps.
    public var legend: MapLegend {
        let plural = noun(count: 2)
        let steps = MapLegend.Entry(.step(0), "Bubbles: fewer than 100 \(plural); bigger, deeper colours for 100–749 and 750 or more")
        switch bubbleColoring {
        case .maximum(let property, let range)?:
            let lo = PropertyFormat.fact(key: property, value: range.lowerBound) ?? PropertyFormat.number(range.lowerBound)
            let hi = PropertyFormat.fact(key: property, value: range.upperBound) ?? PropertyFormat.number(range.upperBound)
            let ramp = [0.0, 0.5, 1.0].map { PlaceColors.ramp(range.lowerBound + $0 * (range.upperBound - range.lowerBound), in: range) }
            return MapLegend(title: DisplayText.line(PropertyFormat.words(property)), entries: [
                MapLegend.Entry(.ramp(ramp), "\(lo) to \(hi)"),
                MapLegend.Entry(.bubble(ramp[2]), "Bubbles: coloured by the strongest inside"),
            ])
        case .categories?:
            var entries: [MapLegend.Entry] = []
            let names: [String] = sources.count > 1 ? sources.map(\.points.sourceName) : (sources.first?.points.categoryNames ?? [])
            for (i, name) in names.prefix(MapDataSession.legendCategoryLimit).enumerated() {
                entries.append(MapLegend.Entry(.dot(PlaceColors.category(i)), DisplayText.line(name)))  // data: bounded, no overrides
            }
            if names.count > MapDataSession.legendCategoryLimit {
                entries.append(MapLegend.Entry(.dot(MapDataSession.otherCategoryColor), "Other"))
            }
            let ring = Array(names.indices.prefix(3)).map { PlaceColors.category($0) }
            entries.append(MapLegend.Entry(.ring(ring), "Bubbles: ring shows the mix inside"))
            return MapLegend(title: sources.count > 1 ? "Files" : "Category", entries: entries)
        case nil:
            let title = plural.prefix(1).uppercased() + plural.dropFirst()
            return MapLegend(title: title, entries: [MapLegend.Entry(.dot(PlaceColors.defaultPin), "One \(noun(count: 1))"), steps])
        }
    }
}

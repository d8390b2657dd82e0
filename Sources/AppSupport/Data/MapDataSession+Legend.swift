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
            if !keepsPlacesApart { entries.append(MapLegend.Entry(.ring(ring), "Bubbles: ring shows the mix inside")) }
            return MapLegend(title: sources.count > 1 ? "Files" : "Category", entries: entries)
        case nil:
            let title = plural.prefix(1).uppercased() + plural.dropFirst()
            // Places kept apart are never in a bubble: no bubble line.
            return MapLegend(title: title, entries: [placeEntry] + (keepsPlacesApart ? [] : stepEntries))
        }
    }

    /// What one place looks like: its pin, or its label capsule when the data labels its places
    /// (Lisbon's stays show their prices).
    var placeEntry: MapLegend.Entry {
        let one = noun(count: 1)
        guard let sample = sampleLabel else { return MapLegend.Entry(.dot(PlaceColors.defaultPin), "One \(one)") }
        let property = sources.first?.dataset?.loadOptions.numericProperty ?? ""
        let what = property.lowercased().contains("price") || sample.first.map({ "$€£¥".contains($0) }) == true ? "price" : "label"
        return MapLegend.Entry(.capsule(sample), "One \(one) and its \(what)")
    }

    /// The first place's label when places carry labels (nil otherwise, and for big data, whose
    /// places are not drawn with capsules anyway).
    private var sampleLabel: String? {
        guard sources.count == 1, let points = sources.first?.points, points.count <= 100_000 else { return nil }
        for i in 0..<min(points.count, 50) {
            if let l = points.label(at: i), !l.isEmpty { return DisplayText.line(l) }
        }
        return nil
    }

    /// One line per bubble step the data can reach (a step needs at least its threshold of
    /// places), each with its swatch: the bubbles' colours say how many are inside.
    var stepEntries: [MapLegend.Entry] {
        let plural = noun(count: 2)
        let thresholds = BubbleStyle().stepThresholds
        var entries: [MapLegend.Entry] = []
        var low = 2
        for (step, high) in (thresholds + [Int.max]).enumerated() where step == 0 || pointCount >= low {
            let range = high == Int.max ? "\(low) or more" : "\(low)–\(high - 1)"
            entries.append(MapLegend.Entry(.step(step), "Bubble of \(range) \(plural)"))
            low = high
        }
        return entries
    }
}

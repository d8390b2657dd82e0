import GeoData

extension MapDataSession {
    /// The second line of a search result, telling same-named places apart: region (when it is
    /// a name, not a numeric code) and country name ("PT" → "Portugal"), then the population;
    /// else the category, else the dataset or file.
    public func searchDetail(of point: Int) -> String {
        let (src, local) = source(of: point)
        let props = src.points.properties(at: local)
        func value(_ keys: [String]) -> String? {
            for k in keys {
                if let p = props.first(where: { $0.key.lowercased() == k }), let t = p.value.text, !t.isEmpty { return t }
            }
            return nil
        }
        var parts: [String] = []
        if let city = value(["city"]), city != src.points.name(at: local) { parts.append(city) }
        if let region = value(["admin1", "region", "state"]), !region.allSatisfy(\.isNumber) { parts.append(region) }
        if let country = value(["country", "country_code", "iso_country"]) { parts.append(PropertyFormat.country(country)) }
        if parts.isEmpty, let c = src.points.categoryName(at: local) { parts.append(c) }
        if let pop = value(["population"]), let p = Double(pop), p > 0 {
            parts.append("pop. " + MapDataSession.formatted(Int(p)))
        }
        if parts.isEmpty { parts.append(src.dataset?.title ?? src.points.sourceName) }
        return parts.joined(separator: " · ")
    }
}

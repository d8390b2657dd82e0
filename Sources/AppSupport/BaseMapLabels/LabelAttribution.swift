import MapModel

/// The credit line names only what is on screen: the data's credits while any of its places or
/// bubbles are in view, and a GeoNames credit while GeoNames place names (the labels from zoom 8)
/// are shown (GeoNames is CC BY 4.0). The base map's credit (the first part) always stays.
public enum LabelAttribution {
    /// The short GeoNames credit.
    public static let geoNames = "GeoNames CC BY 4.0"

    /// `base` (e.g. "© Natural Earth · USGS") with the GeoNames credit after the first part when
    /// `labels` include GeoNames places and `base` doesn't credit GeoNames yet.
    /// With `showsData` false (no bubble or place in view) the data credits after the first part
    /// are left out.
    public static func line(_ base: String, labels: [SceneLabel], showsData: Bool = true) -> String {
        var parts = base.components(separatedBy: " · ")
        if !showsData { parts = Array(parts.prefix(1)) }
        let shown = parts.joined(separator: " · ")
        guard !shown.contains("GeoNames"), labels.contains(where: { $0.kind == .village && $0.id >= 0 }) else { return shown }
        parts.insert(geoNames, at: min(1, parts.count))
        return parts.joined(separator: " · ")
    }
}

import MapModel

/// The credit line grows a GeoNames credit while GeoNames place names (the labels from zoom 8)
/// are on screen, so the attribution names what is shown (GeoNames is CC BY 4.0).
public enum LabelAttribution {
    /// The short GeoNames credit.
    public static let geoNames = "GeoNames CC BY 4.0"

    /// `base` (e.g. "© Natural Earth · USGS") with the GeoNames credit after the first part when
    /// `labels` include GeoNames places and `base` doesn't credit GeoNames yet.
    public static func line(_ base: String, labels: [SceneLabel]) -> String {
        guard !base.contains("GeoNames"), labels.contains(where: { $0.kind == .village && $0.id >= 0 }) else { return base }
        var parts = base.components(separatedBy: " · ")
        parts.insert(geoNames, at: min(1, parts.count))
        return parts.joined(separator: " · ")
    }
}

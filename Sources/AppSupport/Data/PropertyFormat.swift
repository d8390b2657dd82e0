import ClusterCore
import GeoData

/// How property values read for people (SPEC §7): thousands separators, units where the key
/// says them, magnitudes as "M 5.6", country codes as names, keys as words.
public enum PropertyFormat {
    /// Keys that are identifiers or codes for machines: shown only behind "More".
    static let internalKeys: Set<String> = ["id", "fid", "objectid", "geonameid", "admin1", "admin2", "admin1_code",
                                            "admin2_code", "icao", "timezone", "feature_code", "feature_class",
                                            "cc2", "gtopo30", "dem", "modification_date", "ident", "gps_code"]
    /// Keys a dataset uses for its colouring only (the legend explains them).
    static let styleKeys: Set<String> = ["has_iata"]

    /// Whether a property is an internal id or code (shown behind "More").
    public static func isInternal(_ key: String) -> Bool {
        let k = key.lowercased()
        return internalKeys.contains(k) || k.hasSuffix("_id") || k.hasSuffix("_code")
    }

    /// Whether a property is only about styling (never shown as text).
    static func isStyle(_ key: String) -> Bool { styleKeys.contains(key.lowercased()) }

    /// How members rank by this numeric property: by population or magnitude the biggest first,
    /// by rank the smallest first; nil when the property says nothing about importance.
    public static func importance(of key: String) -> Importance? {
        switch key.lowercased() {
        case "population", "pop", "pop_max", "mag", "magnitude", "importance", "score": return .largestFirst
        case "rank", "scalerank", "labelrank": return .smallestFirst
        default: return nil
        }
    }

    /// Which end of a numeric property matters most.
    public enum Importance: Sendable { case largestFirst, smallestFirst }

    /// A short phrase for a known numeric property ("population 517,802", "M 5.6",
    /// "elevation 3,435 ft", "$120"), or nil for other keys.
    public static func fact(key: String, value: Double) -> String? {
        guard value.isFinite else { return nil }
        switch key.lowercased() {
        case "population", "pop", "pop_max": return "population \(number(value))"
        case "mag", "magnitude": return "M \(number(value, decimals: 1))"
        case "elevation_ft": return "elevation \(number(value)) ft"
        case "elevation", "elevation_m", "ele": return "elevation \(number(value)) m"
        case "price_usd", "usd": return "$\(number(value))"
        case "price_eur", "eur": return "€\(number(value))"
        default: return nil
        }
    }

    /// Short keys with a usual long form.
    static let knownWords: [String: String] = [
        "mag": "Magnitude", "pop": "Population", "elev": "Elevation",
        // GeoNames' and OurAirports' column names, as people say them ("Admin1: 14" read as a dump).
        "geonameid": "GeoNames ID", "admin1": "Region code", "admin1_code": "Region code", "admin2": "District code",
        "admin2_code": "District code", "timezone": "Time zone", "feature_code": "Feature code",
        "feature_class": "Feature class", "cc2": "Other country codes", "gtopo30": "Elevation (GTOPO30)",
        "dem": "Elevation (model)", "modification_date": "Updated", "ident": "Identifier", "gps_code": "GPS code",
    ]

    /// Keys written as capitals.
    static let acronyms: Set<String> = ["iata", "icao", "id", "usd", "url", "iso", "faa"]

    /// "Km from charing cross" for `km_from_charing_cross`: words, first letter capital.
    public static func words(_ key: String) -> String {
        if acronyms.contains(key.lowercased()) { return key.uppercased() }
        if let known = knownWords[key.lowercased()] { return known }
        let spaced = key.replacingUnderscoresAndHyphens()
        guard let first = spaced.first else { return key }
        return first.uppercased() + spaced.dropFirst()
    }

    /// A value as text: numbers with thousands separators and no needless decimals.
    public static func text(_ value: PropertyValue) -> String {
        if case .number(let d) = value { return number(d) }
        return value.description
    }

    /// 517802 → "517,802"; 0.19 → "0.19"; with `decimals` a fixed count ("5.6").
    public static func number(_ d: Double, decimals: Int? = nil) -> String {
        guard d.isFinite else { return PropertyValue.plainText(d) }
        if let decimals {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let r = (abs(d) * scale).rounded()
            let whole = Int(r / scale), frac = Int(r) - whole * Int(scale)
            var fracText = String(frac)
            while fracText.count < decimals { fracText = "0" + fracText }
            return (d < 0 ? "-" : "") + MapDataSession.formatted(whole) + (decimals > 0 ? "." + fracText : "")
        }
        if d == d.rounded() && abs(d) < 1e15 { return MapDataSession.formatted(Int(d)) }
        if abs(d) >= 1000 {
            let whole = Int(abs(d).rounded(.down))
            let rest = PropertyValue.plainText(abs(d) - Double(whole))
            return (d < 0 ? "-" : "") + MapDataSession.formatted(whole) + (rest.hasPrefix("0.") ? String(rest.dropFirst()) : "")
        }
        return PropertyValue.plainText(d)
    }

    /// A category as a label ("parking_lot" → "Parking lot", "square" → "Square"): what the file
    /// says, in words, first letter capital.
    public static func category(_ name: String) -> String {
        let spaced = name.replacingUnderscoresAndHyphens()
        guard let first = spaced.first else { return name }
        return first.uppercased() + spaced.dropFirst()
    }

    /// A country code as its name ("PT" → "Portugal"); other text unchanged.
    public static func country(_ text: String) -> String {
        CountryNames.name(forCode: text) ?? text
    }
}

extension String {
    /// Underscores and hyphens as spaces.
    func replacingUnderscoresAndHyphens() -> String {
        String(map { $0 == "_" || $0 == "-" ? " " : $0 })
    }
}

extension PropertyFormat {
    /// "38.71390, -9.13890": latitude, longitude with five decimals (about a metre), the order
    /// map sites and GPS apps accept when pasted.
    public static func coordinates(_ c: GeoCoordinate) -> String {
        "\(fixed(c.latitude, 5)), \(fixed(c.longitude, 5))"
    }

    static func fixed(_ d: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (abs(d) * scale).rounded()
        let whole = Int(r / scale), frac = Int(r) - whole * Int(scale)
        var f = String(frac)
        while f.count < decimals { f = "0" + f }
        return (d < 0 && r != 0 ? "-" : "") + String(whole) + "." + f
    }
}

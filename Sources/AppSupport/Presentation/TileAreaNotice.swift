import Foundation
import ClusterCore

/// What the window says when a tile file's area is off screen (issue 32 item 8): opening one
/// changed nothing visible, so the user could not tell whether it had worked.
public enum TileAreaNotice {
    /// Whether two boxes share any ground (a box across the antimeridian is split in two).
    public static func overlaps(_ a: GeoBounds, _ b: GeoBounds) -> Bool {
        guard a.south <= b.north, b.south <= a.north else { return false }
        if a.coversAllLongitudes || b.coversAllLongitudes { return true }
        func spans(_ g: GeoBounds) -> [(Double, Double)] {
            g.crossesAntimeridian ? [(g.west, 180), (-180, g.east)] : [(g.west, g.east)]
        }
        for p in spans(a) { for q in spans(b) where p.0 <= q.1 && q.0 <= p.1 { return true } }
        return false
    }

    /// The notice for a file named `name` covering `area` (zooms `minZoom`–`maxZoom`) when it
    /// does not overlap `view`; nil when some of it is in view (its tiles show).
    public static func text(name: String, area: GeoBounds, minZoom: Int, maxZoom: Int, view: GeoBounds) -> String? {
        guard !overlaps(area, view) else { return nil }
        return "\(name) covers \(latitudes(area)), \(longitudes(area)) (zoom \(minZoom)–\(maxZoom)), outside this view."
    }

    /// "51.30–51.37° N" (one decimal per degree span: a city has two, a country one).
    static func latitudes(_ b: GeoBounds) -> String {
        range(b.south, b.north, positive: "N", negative: "S", span: b.north - b.south)
    }

    static func longitudes(_ b: GeoBounds) -> String {
        let span = b.crossesAntimeridian ? b.east + 360 - b.west : b.east - b.west
        return range(b.west, b.east, positive: "E", negative: "W", span: span)
    }

    private static func range(_ lo: Double, _ hi: Double, positive: String, negative: String, span: Double) -> String {
        let digits = span < 1 ? 2 : (span < 10 ? 1 : 0)
        func f(_ v: Double) -> String { String(format: "%.\(digits)f", abs(v)) }
        let loSide = lo < 0 ? negative : positive, hiSide = hi < 0 ? negative : positive
        return loSide == hiSide ? "\(f(lo))–\(f(hi))° \(hiSide)" : "\(f(lo))° \(loSide)–\(f(hi))° \(hiSide)"
    }
}

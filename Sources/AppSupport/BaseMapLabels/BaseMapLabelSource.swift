import ClusterCore
import Foundation
import GeoData
import MapModel

/// The base map's names: Natural Earth seas, countries, cities and lakes, then the bundled
/// GeoNames places, as label candidates in priority order (see `MapLabelIndex`).
///
/// Loading reads eight gzipped files and one CSV (≈ 0.3 s in release): call it off the GTK thread.
public enum BaseMapLabelSource {
    /// A candidate before sorting: its priority key.
    struct Ranked {
        var candidate: MapLabelCandidate
        var priority: Double
    }

    /// The names a world or continent view shows — seas, countries and Natural Earth's cities —
    /// loaded first (about a third of the time), so they are on the map soon after launch while the
    /// rest loads (`load(continuing:dataDirectory:)`).
    public struct FirstLabels: Sendable {
        fileprivate var ranked: [Ranked]
        /// Natural Earth's city names and positions, which the GeoNames places leave out.
        fileprivate var cityNames: [(name: String, x: Double, y: Double)]
        /// These labels alone, in priority order.
        public var index: MapLabelIndex { BaseMapLabelSource.index(ranked) }
    }

    /// Loads and ranks every label from the data folder. Missing files are skipped (their labels
    /// simply don't show); a malformed file throws.
    public static func load(dataDirectory: URL) throws -> MapLabelIndex {
        try load(continuing: loadFirst(dataDirectory: dataDirectory), dataDirectory: dataDirectory)
    }

    /// Seas, countries and Natural Earth's cities.
    public static func loadFirst(dataDirectory: URL) throws -> FirstLabels {
        let dir = BaseMapLocation.basemapFolder(in: dataDirectory)
        let url = { fineLayer($0, in: dataDirectory) }
        var ranked: [Ranked] = []
        var cityNames: [(name: String, x: Double, y: Double)] = []
        if exists(url("geography_marine_polys")) {
            ranked += marine(try BaseMap.loadLayer(url("geography_marine_polys"), kind: .polygons,
                                                   properties: ["name", "featurecla", "min_label", "max_label", "scalerank"]))
        }
        let countryFile = dir.appendingPathComponent("ne_50m_admin_0_countries.geojson.gz")
        if exists(countryFile) {
            let points = exists(url("admin_0_label_points"))
                ? try BaseMap.loadLayer(url("admin_0_label_points"), kind: .points,
                                        properties: ["sr_subunit", "scalerank", "featurecla"])
                : BaseMapLayer(kind: .points)
            ranked += countries(try BaseMap.loadLayer(countryFile, kind: .polygons,
                                                      properties: ["NAME", "MIN_LABEL", "MAX_LABEL", "LABELRANK"]),
                                labelPoints: points)
        }
        if exists(url("populated_places_simple")) {
            let layer = try BaseMap.loadLayer(url("populated_places_simple"), kind: .points,
                                              properties: ["name", "featurecla", "min_zoom", "pop_max"])
            ranked += cities(layer)
            for f in 0..<layer.featureCount {
                guard let name = layer.string("name", feature: f) else { continue }
                let p = layer.firstVertex(ofFeature: f)
                cityNames.append((name, p.x, p.y))
            }
        }
        return FirstLabels(ranked: ranked, cityNames: cityNames)
    }

    /// `first` and the rest: lakes, rivers and the GeoNames places. The same index as loading all
    /// at once (the candidates are ranked in the same order).
    public static func load(continuing first: FirstLabels, dataDirectory: URL) throws -> MapLabelIndex {
        let url = { fineLayer($0, in: dataDirectory) }
        var ranked = first.ranked
        if exists(url("lakes")) {
            ranked += lakes(try BaseMap.loadLayer(url("lakes"), kind: .polygons, properties: ["name", "min_label"]))
        }
        for file in ["rivers_lake_centerlines", "rivers_europe", "rivers_north_america"] where exists(url(file)) {
            ranked += rivers(try BaseMap.loadLayer(url(file), kind: .lines, properties: ["name", "min_label", "featurecla"]))
        }
        let places = dataDirectory.appendingPathComponent("points/geonames_cities1000.csv").path
        if exists(URL(fileURLWithPath: places)) {
            ranked += GeoNamesLabels.rank(try GeoNamesLabels.places(from: places, excluding: first.cityNames))
        }
        return index(ranked)
    }

    /// A 1:10m layer's file in the data folder.
    private static func fineLayer(_ layer: String, in dataDirectory: URL) -> URL {
        BaseMapLocation.basemapFolder(in: dataDirectory).appendingPathComponent(BaseMap.fileName(layer: layer, level: .fine))
    }

    private static func exists(_ u: URL) -> Bool { FileManager.default.fileExists(atPath: u.path) }

    /// Candidates in priority order (ties keep their loading order: the sort is stable).
    static func index(_ ranked: [Ranked]) -> MapLabelIndex {
        var ranked = ranked
        ranked.sort { $0.priority < $1.priority }
        return MapLabelIndex(candidates: ranked.map(\.candidate))
    }

    /// Oceans, seas, bays and straits, named inside their area.
    static func marine(_ layer: BaseMapLayer) -> [Ranked] {
        var out: [Ranked] = []
        for f in 0..<layer.featureCount {
            guard let name = layer.string("name", feature: f), !name.isEmpty,
                  let p = PolygonLabelPoint.find(in: layer, feature: f) else { continue }
            let isOcean = layer.string("featurecla", feature: f) == "ocean"
            let minLabel = layer.number("min_label", feature: f) ?? 4
            let maxLabel = layer.number("max_label", feature: f) ?? 9
            let text = LabelText.balancedLines(isOcean ? name.uppercased() : name, maxLineLength: 14)
            let c = MapLabelCandidate(text: text, x: p.x, y: p.y, kind: isOcean ? .ocean : .sea,
                                      minZoom: minLabel, maxZoom: maxLabel + 1.5)
            out.append(Ranked(candidate: c, priority: isOcean ? 0 : 10 + minLabel))
        }
        return out
    }

    /// One label per country or dependency, uppercase, in the zoom range Natural Earth gives it
    /// (`MIN_LABEL`…`MAX_LABEL` of the 1:50m countries). It goes to the 1:10m label point of that
    /// name nearest the middle of the country's main body (label points exist per island and
    /// exclave: Spain's first one is in Llívia), or to that middle when none is near.
    static func countries(_ countries: BaseMapLayer, labelPoints: BaseMapLayer) -> [Ranked] {
        var pointsByName: [String: [(x: Double, y: Double)]] = [:]
        for f in 0..<labelPoints.featureCount {
            guard let name = labelPoints.string("sr_subunit", feature: f),
                  labelPoints.string("featurecla", feature: f) == "Admin-0 scale ranks" else { continue }
            pointsByName[name, default: []].append(labelPoints.firstVertex(ofFeature: f))
        }
        return (0..<countries.featureCount).compactMap { f in
            guard let name = countries.string("NAME", feature: f), !name.isEmpty,
                  let middle = PolygonLabelPoint.find(in: countries, feature: f) else { return nil }
            let span = largestRingSpan(countries, feature: f)
            var p = middle
            let near = (pointsByName[name] ?? []).min {
                hypot($0.x - middle.x, $0.y - middle.y) < hypot($1.x - middle.x, $1.y - middle.y)
            }
            if let near, hypot(near.x - middle.x, near.y - middle.y) < span / 4 { p = near }
            let maxLabel = countries.number("MAX_LABEL", feature: f) ?? 9
            // Natural Earth's MIN_LABEL, but never before the country's main body is about
            // `countryMinPixels` across (Monaco or Malta would otherwise crowd a zoom-5 map).
            let minByArea = span > 0 ? log2(countryMinPixels / (span * 256)) : 20
            let minLabel = max(countries.number("MIN_LABEL", feature: f) ?? 5, minByArea)
            let rank = countries.number("LABELRANK", feature: f) ?? 5
            let c = MapLabelCandidate(text: LabelText.balancedLines(name.uppercased(), maxLineLength: 16), x: p.x, y: p.y,
                                      kind: .country, minZoom: minLabel, maxZoom: maxLabel + 1)
            return Ranked(candidate: c, priority: 10 + minLabel + rank / 100)
        }
    }

    /// Width (geometric mean of the box sides) of a feature's largest ring, in unit coordinates.
    static func largestRingSpan(_ layer: BaseMapLayer, feature f: Int) -> Double {
        var best = 0.0
        for r in layer.rings(ofFeature: f) {
            var b = UnitRect.empty
            for v in layer.vertices(ofRing: r) { b.include(x: layer.coordinates[2 * v], y: layer.coordinates[2 * v + 1]) }
            best = max(best, ((b.maxX - b.minX) * (b.maxY - b.minY)).squareRoot())
        }
        return best
    }

    /// A country is named once its main body is about this many pixels across.
    static let countryMinPixels = 70.0

    /// Natural Earth populated places, by their own `min_zoom` (made for zoom-dependent labels).
    static func cities(_ layer: BaseMapLayer) -> [Ranked] {
        (0..<layer.featureCount).compactMap { f in
            guard let name = layer.string("name", feature: f), !name.isEmpty else { return nil }
            let minZoom = layer.number("min_zoom", feature: f) ?? 8
            let population = layer.number("pop_max", feature: f) ?? 0
            let isCapital = layer.string("featurecla", feature: f) == "Admin-0 capital"
            let kind: MapLabelKind = isCapital ? .capital : (population >= 1_000_000 || minZoom <= 4 ? .city : .town)
            let p = layer.firstVertex(ofFeature: f)
            let c = MapLabelCandidate(text: name, x: p.x, y: p.y, kind: kind, minZoom: minZoom)
            // Capitals go just before the countries of their level (a country name can step aside;
            // a capital's dot can't), other cities after them.
            return Ranked(candidate: c, priority: (isCapital ? 9.5 : 30) + minZoom - min(population, 4e7) / 1e8)
        }
    }

    /// Named lakes, inside their area.
    static func lakes(_ layer: BaseMapLayer) -> [Ranked] {
        (0..<layer.featureCount).compactMap { f in
            guard let name = layer.string("name", feature: f), !name.isEmpty,
                  let minLabel = layer.number("min_label", feature: f),
                  let p = PolygonLabelPoint.find(in: layer, feature: f) else { return nil }
            let c = MapLabelCandidate(text: LabelText.balancedLines(name, maxLineLength: 16), x: p.x, y: p.y,
                                      kind: .lake, minZoom: minLabel + 0.5)
            return Ranked(candidate: c, priority: 40 + minLabel)
        }
    }
}

extension BaseMapLabelSource {
    /// Named rivers, along the middle of each named stretch (Natural Earth splits a long river
    /// into several; each may be named where there is room). The text is straight, turned to the
    /// river's general direction there, from a zoom after the river appears.
    ///
    /// Three places are offered, the middle first (towns often take the middle); the placer keeps
    /// the same river name from repeating close by.
    static func rivers(_ layer: BaseMapLayer) -> [Ranked] {
        (0..<layer.featureCount).flatMap { f -> [Ranked] in
            guard let name = layer.string("name", feature: f), !name.isEmpty,
                  layer.string("featurecla", feature: f)?.hasPrefix("Lake") != true,  // lake centre lines: the lake is named
                  let minLabel = layer.number("min_label", feature: f) else { return [] }
            return [0.5, 0.3, 0.7].enumerated().compactMap { k, fraction in
                guard let at = RiverLabelPoint.find(in: layer, feature: f, fraction: fraction) else { return nil }
                let c = MapLabelCandidate(text: name, x: at.x, y: at.y, kind: .river, minZoom: minLabel + 1,
                                          maxZoom: 13, angle: at.angle)
                return Ranked(candidate: c, priority: 45 + minLabel + Double(k) * 0.001)
            }
        }
    }
}

/// Small text shaping for labels.
enum LabelText {
    /// Breaks a long multi-word name into two lines of similar length (seas, long country names).
    static func balancedLines(_ text: String, maxLineLength: Int) -> String {
        guard text.count > maxLineLength else { return text }
        let words = text.split(separator: " ")
        guard words.count > 1 else { return text }
        var bestSplit = 1, bestDiff = Int.max
        for k in 1..<words.count {
            let a = words[..<k].joined(separator: " ").count, b = words[k...].joined(separator: " ").count
            if abs(a - b) < bestDiff { bestDiff = abs(a - b); bestSplit = k }
        }
        return words[..<bestSplit].joined(separator: " ") + "\n" + words[bestSplit...].joined(separator: " ")
    }
}

import Foundation
import Compression

/// The offline Natural Earth base map at one level of detail: land, lakes, coastlines and
/// country borders, projected once to unit-square Web Mercator.
///
/// Loading is a pure function of the files, so it may run on any thread:
/// ```swift
/// let coarse = try BaseMap.load(level: .coarse, dataDirectory: dataDir)      // ~ms, at launch
/// Thread.detachNewThread { let fine = try? BaseMap.load(level: .detailed, dataDirectory: dataDir) … }
/// ```
public struct BaseMap: Sendable {
    /// Natural Earth scale.
    public enum Level: String, Sendable, CaseIterable {
        /// 1:110m, for low zoom.
        case coarse = "110m"
        /// 1:50m, from about zoom 3.
        case detailed = "50m"
        /// 1:10m (gzipped files, with minor islands, detail lakes and rivers), from about zoom 5.
        case fine = "10m"
    }

    /// Errors while loading.
    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, underlying: String)
        case malformed(path: String, message: String)

        public var description: String {
            switch self {
            case let .unreadable(path, underlying): return "\(path): can't read (\(underlying))"
            case let .malformed(path, message): return "\(path): \(message)"
            }
        }
    }

    /// The level this map was loaded at.
    public let level: Level
    /// Land polygons.
    public let land: BaseMapLayer
    /// Lake polygons.
    public let lakes: BaseMapLayer
    /// Coastline lines.
    public let coastlines: BaseMapLayer
    /// Land borders between countries.
    public let borders: BaseMapLayer
    /// Rivers and lake centre lines (1:10m only), with `featureMinZoom` and `featureWeight`.
    public let rivers: BaseMapLayer

    public init(level: Level, land: BaseMapLayer, lakes: BaseMapLayer,
                coastlines: BaseMapLayer, borders: BaseMapLayer, rivers: BaseMapLayer = BaseMapLayer(kind: .lines)) {
        self.level = level
        self.land = land.indexingChunks()
        self.lakes = lakes.indexingChunks()
        self.coastlines = coastlines.indexingChunks()
        self.borders = borders.indexingChunks()
        self.rivers = rivers.indexingChunks()
    }

    /// This map with every layer simplified to `tolerance` (unit coordinates), for low zooms.
    public func simplified(tolerance: Double) -> BaseMap {
        BaseMap(level: level, land: land.simplified(tolerance: tolerance), lakes: lakes.simplified(tolerance: tolerance),
                coastlines: coastlines.simplified(tolerance: tolerance), borders: borders.simplified(tolerance: tolerance),
                rivers: rivers.simplified(tolerance: tolerance))
    }

    /// Simplified copies for the zooms below `fullDetailZoom`: one per integer zoom, each to a
    /// third of a pixel at the top of its band (so the simplification never shows).
    public func zoomBands(from minZoom: Int, below fullDetailZoom: Int) -> [Int: BaseMap] {
        var bands: [Int: BaseMap] = [:]
        for z in minZoom..<fullDetailZoom {
            bands[z] = simplified(tolerance: BaseMap.bandTolerancePixels / (256 * Double(1 << (z + 1))))
        }
        return bands
    }

    /// The simplified copies a renderer uses for this level: 1:50m at zooms 3–4, 1:10m at 5–6
    /// (measured: a direct paint of Europe at zoom 5.5 drops from ~50 to ~30 ms; from zoom 7 on the
    /// 1:10m data has about one vertex per pixel, and a copy would save little).
    public func standardZoomBands() -> [Int: BaseMap] {
        switch level {
        case .coarse: return [:]
        case .detailed: return zoomBands(from: 3, below: 5)
        case .fine: return zoomBands(from: 5, below: 7)
        }
    }

    /// Largest deviation a band's simplification allows, in pixels at the band's deepest zoom.
    public static let bandTolerancePixels = 0.35

    /// File name of one layer at one level, e.g. `ne_50m_land.geojson` (1:10m files are gzipped:
    /// `ne_10m_land.geojson.gz`).
    public static func fileName(layer: String, level: Level) -> String {
        "ne_\(level.rawValue)_\(layer).geojson" + (level == .fine ? ".gz" : "")
    }

    /// Reads one Natural Earth file (gunzipping `.gz` files) and scans it into a layer.
    public static func loadLayer(_ url: URL, kind: BaseMapLayer.Kind, properties: [String] = []) throws -> BaseMapLayer {
        var bytes: Data
        do { bytes = try Data(contentsOf: url) } catch {
            throw LoadError.unreadable(path: url.path, underlying: "\(error.localizedDescription)")
        }
        if Gzip.isGzipped(bytes) {
            do { bytes = try Gzip.decompress(bytes, sizeHint: bytes.count * 5) } catch {
                throw LoadError.malformed(path: url.path, message: "\(error)")
            }
        }
        do { return try BaseMapScanner.parse(bytes, kind: kind, properties: properties) } catch let e as BaseMapScanner.ParseError {
            throw LoadError.malformed(path: url.path, message: e.description)
        }
    }

    /// Loads the four layers of a level from `dataDirectory` (the folder holding `basemap/`, or
    /// `basemap/` itself). Thread-safe; the 1:110m level takes a few milliseconds, 1:50m tens.
    public static func load(level: Level, dataDirectory: URL) throws -> BaseMap {
        let dir = BaseMapLocation.basemapFolder(in: dataDirectory)
        func layer(_ name: String, _ kind: BaseMapLayer.Kind) throws -> BaseMapLayer {
            try loadLayer(dir.appendingPathComponent(fileName(layer: name, level: level)), kind: kind)
        }
        if level == .fine { return try loadFine(from: dir) }
        return BaseMap(level: level,
                       land: try layer("land", .polygons),
                       lakes: try layer("lakes", .polygons),
                       coastlines: try layer("coastline", .lines),
                       borders: try layer("admin_0_boundary_lines_land", .lines))
    }

    /// The 1:10m map: main files plus minor islands, the Europe / North America detail lakes and
    /// rivers, each feature with its Natural Earth `min_zoom` (rivers also with a stroke weight).
    static func loadFine(from dir: URL) throws -> BaseMap {
        func layer(_ name: String, _ kind: BaseMapLayer.Kind, _ properties: [String] = ["min_zoom"]) throws -> BaseMapLayer {
            var l = try loadLayer(dir.appendingPathComponent(fileName(layer: name, level: .fine)), kind: kind,
                                  properties: properties)
            l.featureMinZoom = (0..<l.featureCount).map { Float(l.number("min_zoom", feature: $0) ?? 0) }
            return l
        }
        func merged(_ layers: [BaseMapLayer]) -> BaseMapLayer {
            var first = layers[0]
            for other in layers.dropFirst() { first.append(contentsOf: other) }
            return first
        }
        func river(_ name: String) throws -> BaseMapLayer {
            var l = try layer(name, .lines, ["min_zoom", "scalerank", "strokeweig"])
            // Main rivers: weight by rank (1 the biggest); detail files carry their own stroke weight.
            l.featureWeight = (0..<l.featureCount).map { f in
                if let w = l.number("strokeweig", feature: f) { return Float(min(1.6, 0.45 + w)) }
                let rank = l.number("scalerank", feature: f) ?? 8
                return Float(max(0.55, 1.9 - 0.14 * rank))
            }
            l.numberColumns = [:]
            return l
        }
        return BaseMap(level: .fine,
                       land: merged([try layer("land", .polygons), try layer("minor_islands", .polygons)]),
                       lakes: merged([try layer("lakes", .polygons), try layer("lakes_europe", .polygons),
                                      try layer("lakes_north_america", .polygons)]),
                       coastlines: try layer("coastline", .lines),
                       borders: try layer("admin_0_boundary_lines_land", .lines, []),
                       rivers: merged([try river("rivers_lake_centerlines"), try river("rivers_europe"),
                                       try river("rivers_north_america")]))
    }
}

import Foundation

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

    public init(level: Level, land: BaseMapLayer, lakes: BaseMapLayer,
                coastlines: BaseMapLayer, borders: BaseMapLayer) {
        self.level = level
        self.land = land
        self.lakes = lakes
        self.coastlines = coastlines
        self.borders = borders
    }

    /// File name of one layer at one level, e.g. `ne_50m_land.geojson`.
    public static func fileName(layer: String, level: Level) -> String {
        "ne_\(level.rawValue)_\(layer).geojson"
    }

    /// Loads the four layers of a level from `dataDirectory` (the folder holding `basemap/`, or
    /// `basemap/` itself). Thread-safe; the 1:110m level takes a few milliseconds, 1:50m tens.
    public static func load(level: Level, dataDirectory: URL) throws -> BaseMap {
        let dir = BaseMapLocation.basemapFolder(in: dataDirectory)
        func layer(_ name: String, _ kind: BaseMapLayer.Kind) throws -> BaseMapLayer {
            let url = dir.appendingPathComponent(fileName(layer: name, level: level))
            let bytes: Data
            do { bytes = try Data(contentsOf: url) } catch {
                throw LoadError.unreadable(path: url.path, underlying: "\(error.localizedDescription)")
            }
            do { return try BaseMapScanner.parse(bytes, kind: kind) } catch let e as BaseMapScanner.ParseError {
                throw LoadError.malformed(path: url.path, message: e.description)
            }
        }
        return BaseMap(level: level,
                       land: try layer("land", .polygons),
                       lakes: try layer("lakes", .polygons),
                       coastlines: try layer("coastline", .lines),
                       borders: try layer("admin_0_boundary_lines_land", .lines))
    }
}

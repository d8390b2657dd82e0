import Foundation

/// What opening files from the window does with them (File ▸ Open…, a drop): data files load as
/// data; a tile file of clustered points (ours from `clustermap tiles`, tippecanoe's
/// `--cluster-distance` output: the same test as the command line) opens as data on its own; any
/// other tile file becomes the street map. Pure: the caller says which tile files are clustered.
public struct FileOpeningPlan: Equatable, Sendable {
    /// Files to load as data (none when a clustered tile file opens).
    public var data: [String] = []
    /// The clustered tile file to show as data.
    public var clusterTiles: String?
    /// The tile file to show as the street map.
    public var baseMap: String?
    /// Files not opened: a clustered tile file is shown on its own (it is a source the window
    /// asks per view, not points it holds), so other data chosen with it waits.
    public var refused: [String] = []

    /// Tile files (by their ending) open as the map or as clustered data, not through the loaders.
    public static let tileSuffixes = ["mbtiles", "pmtiles"]

    /// Whether `path` names a tile file.
    public static func isTileFile(_ path: String) -> Bool {
        tileSuffixes.contains((path as NSString).pathExtension.lowercased())
    }

    /// The plan for `paths` in the order chosen; of several tile files of one kind the last wins.
    public init(paths: [String], isClustered: (String) -> Bool) {
        var clustered: [String] = []
        for path in paths {
            if !Self.isTileFile(path) {
                data.append(path)
            } else if isClustered(path) {
                clustered.append(path)
            } else {
                baseMap = path
            }
        }
        if let last = clustered.last {
            clusterTiles = last
            refused = data + clustered.dropLast()
            data = []
        }
    }

    /// What the window says about the tile files it opened (nil when none): which one became
    /// data and which the street map, and what was left unopened.
    public var message: String? {
        var parts: [String] = []
        if let c = clusterTiles { parts.append("\(Self.name(c)): clustered points, opened as data.") }
        if let b = baseMap { parts.append("\(Self.name(b)) holds no clustered points: opened as the street map.") }
        if !refused.isEmpty {
            parts.append("A clustered tile file opens on its own; not opened: \(refused.map(Self.name).joined(separator: ", ")).")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private static func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}

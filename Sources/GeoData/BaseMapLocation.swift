import Foundation

/// Finding the `data/` folder that holds `basemap/`.
public enum BaseMapLocation {
    /// Environment variable that overrides discovery.
    public static let environmentVariable = "CLUSTERMAP_DATA_DIR"

    /// `dataDirectory/basemap` when it exists, otherwise `dataDirectory` itself (so callers may
    /// pass either folder).
    public static func basemapFolder(in dataDirectory: URL) -> URL {
        let sub = dataDirectory.appendingPathComponent("basemap")
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: sub.path, isDirectory: &isDir), isDir.boolValue { return sub }
        return dataDirectory
    }

    /// Whether `dir` holds the base map (directly or in `basemap/`).
    public static func holdsBaseMap(_ dir: URL) -> Bool {
        let probe = basemapFolder(in: dir)
            .appendingPathComponent(BaseMap.fileName(layer: "land", level: .coarse))
        return FileManager.default.fileExists(atPath: probe.path)
    }

    /// The data directory: `$CLUSTERMAP_DATA_DIR` if set, else the first `data/` folder holding the
    /// base map found walking up from `start` (a file or folder, e.g. `#filePath` or the executable).
    public static func dataDirectory(searchingUpFrom start: URL,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let env = environment[environmentVariable], !env.isEmpty {
            let url = URL(fileURLWithPath: env)
            return holdsBaseMap(url) ? url : nil
        }
        var dir = start.standardizedFileURL
        for _ in 0..<32 {
            let candidate = dir.appendingPathComponent("data")
            if holdsBaseMap(candidate) { return candidate }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }
}

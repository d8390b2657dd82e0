import Foundation
import ClusterCore

/// What the window remembers between runs (SPEC §6): its size, whether it was maximized, the last
/// camera, and the main-menu toggles. Stored as `key=value` lines in
/// `$XDG_CONFIG_HOME/clustermap/state`; unknown keys and bad values are ignored, so an old,
/// newer or damaged file never stops the app from starting.
public struct SavedState: Equatable, Sendable {
    public var width: Int?
    public var height: Int?
    public var maximized = false
    public var latitude: Double?
    public var longitude: Double?
    public var zoom: Double?
    /// The main menu's "Dark style" (nil: follow the desktop).
    public var darkStyle: Bool?
    /// The main menu's "Reduce motion" (nil: follow the desktop).
    public var reduceMotion: Bool?
    /// The main menu's map: a tile file's path or an online URL template (nil: the built-in map).
    public var basemap: String?
    /// The person's MapTiler API key (asked for once; the file is readable by its owner only).
    public var mapTilerKey: String?
    /// Filters asked of each file, most recent first (`SavedFilter`).
    public var filters: [SavedFilter] = []

    public init(width: Int? = nil, height: Int? = nil, maximized: Bool = false,
                latitude: Double? = nil, longitude: Double? = nil, zoom: Double? = nil,
                darkStyle: Bool? = nil, reduceMotion: Bool? = nil) {
        self.width = width; self.height = height; self.maximized = maximized
        self.latitude = latitude; self.longitude = longitude; self.zoom = zoom
        self.darkStyle = darkStyle; self.reduceMotion = reduceMotion
    }

    /// Window sizes outside this range are not restored (same limits as `--size`).
    public static let sizeRange = 64...8192

    /// The remembered camera centre, when both coordinates are valid.
    public var center: GeoCoordinate? {
        guard let latitude, let longitude else { return nil }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// Parses the file's text. Never fails: what can't be read is left out.
    public static func parse(_ text: String) -> SavedState {
        var s = SavedState()
        for rawLine in text.split(whereSeparator: { $0.isNewline }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            func double(_ range: ClosedRange<Double>) -> Double? {
                guard let d = Double(value), d.isFinite, range.contains(d) else { return nil }
                return d
            }
            func bool() -> Bool? {
                switch value.lowercased() { case "true", "1", "yes": return true
                case "false", "0", "no": return false
                default: return nil }
            }
            switch key {
            case "width": s.width = Int(value).flatMap { sizeRange.contains($0) ? $0 : nil }
            case "height": s.height = Int(value).flatMap { sizeRange.contains($0) ? $0 : nil }
            case "maximized": s.maximized = bool() ?? false
            case "latitude": s.latitude = double(-90...90)
            case "longitude": s.longitude = double(-180...180)
            case "zoom": s.zoom = double(0...18)
            case "dark-style": s.darkStyle = bool()
            case "reduce-motion": s.reduceMotion = bool()
            case "basemap": s.basemap = (try? LaunchOptions.parseBasemap(value)) ?? nil
            case "maptiler-key": s.mapTilerKey = MapTilerSource.validKey(value)
            case "filter": if let f = SavedFilter.parse(value), s.filters.count < SavedFilter.limit { s.filters.append(f) }
            default: continue
            }
        }
        // A size or a camera only counts when complete.
        if s.width == nil || s.height == nil { s.width = nil; s.height = nil }
        if s.latitude == nil || s.longitude == nil || s.zoom == nil { s.latitude = nil; s.longitude = nil; s.zoom = nil }
        return s
    }

    /// The file's text.
    public var serialized: String {
        var lines = ["# ClusterMap window state (rewritten when the window closes)"]
        if let width, let height { lines += ["width=\(width)", "height=\(height)"] }
        lines.append("maximized=\(maximized)")
        if let latitude, let longitude, let zoom {
            lines += ["latitude=\(latitude)", "longitude=\(longitude)", "zoom=\(zoom)"]
        }
        if let darkStyle { lines.append("dark-style=\(darkStyle)") }
        if let reduceMotion { lines.append("reduce-motion=\(reduceMotion)") }
        if let basemap, !basemap.contains("\n") { lines.append("basemap=\(basemap)") }
        if let key = mapTilerKey.flatMap(MapTilerSource.validKey) { lines.append("maptiler-key=\(key)") }
        lines += filters.prefix(SavedFilter.limit).compactMap { $0.line.map { "filter=" + $0 } }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Start-up

    /// How the window starts: the command line wins over what was remembered.
    public struct Startup: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var maximized: Bool
        /// The camera to start with, or nil for the controller's default (or the command line's).
        public var center: GeoCoordinate?
        public var zoom: Double?
    }

    /// Combines the command line with the remembered state. `--size` wins over the remembered
    /// size (and maximized state); `--center`/`--zoom` or files on the command line (which open
    /// fitted to their data) win over the remembered camera.
    public func startup(for options: LaunchOptions) -> Startup {
        var s = Startup(width: options.width, height: options.height, maximized: false, center: nil, zoom: nil)
        if !options.sizeWasGiven {
            if let width, let height { s.width = width; s.height = height }
            s.maximized = maximized
        }
        if options.center == nil && options.zoom == nil && !options.opensFittedToData, let center, let zoom {
            s.center = center
            s.zoom = zoom
        }
        return s
    }
}

/// Where the state file lives and how it is read and written.
public enum SavedStateFile {
    /// `$XDG_CONFIG_HOME/clustermap/state`, or `~/.config/clustermap/state`.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var base = environment["XDG_CONFIG_HOME"] ?? ""
        if base.isEmpty || !base.hasPrefix("/") {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = home + "/.config"
        }
        return base + "/clustermap/state"
    }

    /// The remembered state, or nil when there is none or it can't be read.
    public static func load(from path: String) -> SavedState? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 64 * 1024,
              let text = String(data: data, encoding: .utf8) else { return nil }
        return SavedState.parse(text)
    }

    /// Why the state could not be saved, in one plain line (not Foundation's
    /// `Error Domain=NSCocoaErrorDomain Code=513 …`).
    public struct SaveError: Error, CustomStringConvertible {
        /// "cannot save the window state to PATH: Permission denied".
        public let description: String
    }

    /// Writes the state atomically (a temporary file renamed over the old one), creating the folder.
    /// The file is readable and writable by its owner only: it may hold an API key.
    /// - Throws: `SaveError` saying what could not be saved where, and why.
    public static func save(_ state: SavedState, to path: String) throws {
        func failure(_ what: String, _ code: Int32) -> SaveError {
            SaveError(description: "cannot save the window state to \(what): \(String(cString: strerror(code)))")
        }
        // mkdir -p by hand: Foundation's error would hide which folder failed and why.
        var folder = ""
        for part in (path as NSString).deletingLastPathComponent.split(separator: "/") {
            folder += "/" + part
            if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw failure(folder, errno) }
            var st = stat()
            if stat(folder, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR { throw failure(folder, ENOTDIR) }
        }
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, errno) }
        fchmod(fd, 0o600)  // whatever the umask or a stale temporary file said
        let bytes = Array(state.serialized.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let writeCode = errno
        close(fd)
        guard written == bytes.count else {
            unlink(tmp)
            throw failure(path, written < 0 ? writeCode : ENOSPC)
        }
        if rename(tmp, path) != 0 {
            let code = errno
            unlink(tmp)
            throw failure(path, code)
        }
    }
}

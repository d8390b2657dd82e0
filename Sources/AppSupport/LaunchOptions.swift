import ClusterCore
import GeoData

/// What the command line asked for: `clustermap [FILE…] [--dataset NAME] [--center LAT,LON] [--zoom Z]
/// [--size WxH] [--reduce-motion] [--event-log PATH|-]`, and for `render` also `--output` and `--dark`.
///
/// Parsed in Swift before GTK sees the arguments so that every bad value gets a one-line message and
/// exit status 2 (GApplication would exit with 1 and a multi-line message).
public struct LaunchOptions: Equatable, Sendable {
    public var files: [String] = []
    public var dataset: String?
    public var center: GeoCoordinate?
    public var zoom: Double?
    public var width: Int = 1280
    public var height: Int = 800
    /// Whether `--size` was given (it then wins over the remembered window size).
    public var sizeWasGiven = false
    public var reduceMotion = false
    public var eventLogPath: String?
    public var latColumn: String?
    public var lonColumn: String?
    /// `render` only: where to write the PNG.
    public var output: String?
    /// Force the dark palette (render; in the window it overrides the desktop preference).
    public var dark = false
    /// Never put places in bubbles: each is drawn on its own at every zoom (`--no-clustering`).
    public var noClustering = false
    /// `--basemap FILE|URL`: a local MBTiles or PMTiles file, or an online XYZ URL template, drawn
    /// over the built-in map (nil: built-in only).
    public var basemap: String?
    /// `render` only: how long to wait for online tiles, seconds (those not in by then leave the
    /// built-in map showing).
    public var tileTimeout = 10.0
    /// `--help` / `-h` was given.
    public var wantsHelp = false
    /// Seconds between refreshes of a GeoJSON URL (`--refresh`; nil: 60 for URLs).
    public var refreshSeconds: Double?
    /// The property or CSV column that identifies a place across changes (`--id`; default: the
    /// GeoJSON `id`, else the position in the file).
    public var idProperty: String?
    /// Seconds of 1965–2016 earthquake time replayed per second by `--dataset live-earthquakes`.
    public var replayDaysPerSecond: Double?
    /// Filters, time window, cluster-by and totals (`--where`, `--since`, `--until`, `--time`,
    /// `--by`, `--total`, `--type`): the same engine as `clustermap clusters`.
    public var filters = FilterSettings()

    public init() {}

    /// Whether the window (and `render`) opens fitted to the data: files and the bundled demos
    /// do, unless a camera was given; the default world cities open on the world.
    public var opensFittedToData: Bool {
        guard center == nil && zoom == nil else { return false }
        if !files.isEmpty { return true }
        return dataset.flatMap(DatasetCatalog.dataset(id:))?.opensFitted ?? false
    }

    /// A problem with the command line, described in one line.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Which options a mode accepts.
    public enum Mode: Sendable { case window, render }

    /// Options that take a value, and their value's name for help text.
    public static let valueOptions: [(name: String, value: String, help: String)] = [
        ("dataset", "NAME", "Open a bundled dataset (\(LaunchOptions.datasetNames))"),
        ("center", "LAT,LON", "Centre the map on a coordinate"),
        ("zoom", "Z", "Zoom level 0…18"),
        ("size", "WxH", "Window or image size in logical pixels"),
        ("event-log", "PATH", "Write machine-readable events as JSON lines to PATH (- for stdout)"),
        ("lat", "COLUMN", "CSV column holding latitude"),
        ("lon", "COLUMN", "CSV column holding longitude"),
        ("basemap", "SOURCE", "builtin (default), osm, an https://…/{z}/{x}/{y}.png URL, or an MBTiles/PMTiles file"),
        ("refresh", "SECONDS", "Reload a GeoJSON URL every SECONDS (default 60); a postgresql:// table: show changes, at most every SECONDS"),
        ("id", "PROPERTY", "Property or CSV column that identifies a place while the data changes"),
        ("replay-speed", "DAYS", "Days of earthquakes per second for --dataset live-earthquakes (default 120)"),
    ] + FilterSettings.options
    /// Flags without a value.
    public static let flagOptions: [(name: String, help: String)] = [
        ("reduce-motion", "Never animate the camera (jump instead of flying)"),
        ("dark", "Use the dark palette"),
        ("no-clustering", "Show every place on its own, never in a bubble (for a few hundred places)"),
    ]

    /// Parses arguments (without the program name and without a leading subcommand).
    public static func parse(_ args: [String], mode: Mode = .window) throws -> LaunchOptions {
        var o = LaunchOptions()
        var i = 0
        var onlyFiles = false
        func value(_ name: String) throws -> String {
            i += 1
            guard i < args.count else { throw ParseError(message: "option --\(name) needs a value") }
            return args[i]
        }
        while i < args.count {
            var arg = args[i]
            if onlyFiles || !arg.hasPrefix("-") || arg == "-" {
                o.files.append(arg); i += 1; continue
            }
            if arg == "--" { onlyFiles = true; i += 1; continue }
            if arg == "-h" || arg == "--help" { o.wantsHelp = true; i += 1; continue }
            // Accept --name=value as well as --name value.
            var inlineValue: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                inlineValue = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            let name = String(arg.drop(while: { $0 == "-" }))
            func take() throws -> String {
                if let v = inlineValue { return v }
                return try value(name)
            }
            switch name {
            case "dataset":
                let v = try take()
                guard DatasetCatalog.dataset(id: v) != nil || v == LaunchOptions.liveEarthquakes else {
                    throw ParseError(message: "unknown dataset '\(v)' (bundled: \(LaunchOptions.datasetNames))")
                }
                // A replay moves; a picture can't show it (it drew the world cities instead, silently).
                guard !(mode == .render && v == LaunchOptions.liveEarthquakes) else {
                    throw ParseError(message: "render draws a still picture; --dataset live-earthquakes is a replay for the window "
                                     + "(use --dataset earthquakes for the same places)")
                }
                o.dataset = v
            case "center": o.center = try parseCenter(try take())
            case "zoom":
                let v = try take()
                guard let z = Double(v), z.isFinite, z >= 0, z <= 18 else {
                    throw ParseError(message: "invalid --zoom '\(v)': expected a number from 0 to 18")
                }
                o.zoom = z
            case "size":
                let v = try take()
                guard let (w, h) = parseSize(v) else {
                    throw ParseError(message: "invalid --size '\(v)': expected WIDTHxHEIGHT, e.g. 1280x800 (each 64…8192)")
                }
                o.width = w; o.height = h; o.sizeWasGiven = true
            case "event-log": o.eventLogPath = try take()
            case "basemap": o.basemap = try parseBasemap(try take())
            case "refresh":
                let v = try take()
                guard let sec = Double(v), sec.isFinite, sec >= 1 else {
                    throw ParseError(message: "invalid --refresh '\(v)': expected a number of seconds, at least 1")
                }
                o.refreshSeconds = sec
            case "id": o.idProperty = try take()
            case "replay-speed":
                let v = try take()
                guard let d = Double(v), d.isFinite, d > 0 else {
                    throw ParseError(message: "invalid --replay-speed '\(v)': expected a positive number of days per second")
                }
                o.replayDaysPerSecond = d
            case "lat": o.latColumn = try take()
            case "lon": o.lonColumn = try take()
            case "reduce-motion" where inlineValue == nil: o.reduceMotion = true
            case "dark" where inlineValue == nil: o.dark = true
            case "no-clustering" where inlineValue == nil: o.noClustering = true
            case "output" where mode == .render: o.output = try take()
            case "tile-timeout" where mode == .render:
                let v = try take()
                guard let t = Double(v), t.isFinite, t >= 0, t <= 600 else {
                    throw ParseError(message: "invalid --tile-timeout '\(v)': expected seconds from 0 to 600")
                }
                o.tileTimeout = t
            case _ where FilterSettings.options.contains(where: { $0.name == name }):
                do { _ = try o.filters.set(name, try take()) } catch let e as FilterSettingsError { throw ParseError(message: e.description) }
            default:
                throw ParseError(message: "unknown option '\(args[i])' (see --help)")
            }
            i += 1
        }
        if mode == .render && !o.wantsHelp && o.output == nil {
            throw ParseError(message: "render needs --output OUT.png")
        }
        if o.dataset != nil && !o.files.isEmpty {
            throw ParseError(message: "give either files or --dataset, not both")
        }
        return o
    }

    /// The replayed earthquakes (`--dataset live-earthquakes`): the bundled ones, added in time order.
    public static let liveEarthquakes = "live-earthquakes"
    /// Every name `--dataset` takes, for help and errors: the bundled datasets and the replay.
    public static var datasetNames: String { (DatasetCatalog.all.map(\.id) + [liveEarthquakes]).joined(separator: ", ") }

    /// Whether a file argument is a URL to fetch (http or https).
    public static func isURL(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// OpenStreetMap's standard tiles (`--basemap osm`).
    public static let openStreetMapTemplate = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    /// `builtin` → nil; `osm` → OpenStreetMap's URL template; an http(s) URL template with {z}, {x}
    /// and {y}; or a local `.mbtiles` / `.pmtiles` file → its path.
    public static func parseBasemap(_ v: String) throws -> String? {
        if v == "builtin" { return nil }
        if v == "osm" { return openStreetMapTemplate }
        let lower = v.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard v.contains("{z}") && v.contains("{x}") && (v.contains("{y}") || v.contains("{-y}")) else {
                throw ParseError(message: "--basemap '\(v)': a tile URL needs {z}, {x} and {y}")
            }
            return v
        }
        guard lower.hasSuffix(".mbtiles") || lower.hasSuffix(".pmtiles") else {
            throw ParseError(message: "--basemap '\(v)': expected builtin, osm, a tile URL, or a file ending in .mbtiles or .pmtiles")
        }
        return v
    }

    /// Whether `basemap` is an online source (a URL template).
    public var basemapIsOnline: Bool { basemap.map(LaunchOptions.isOnlineBasemap) ?? false }

    /// Whether a base-map source (as `parseBasemap` returns it) is an online URL template.
    public static func isOnlineBasemap(_ source: String) -> Bool { isURL(source) }  // HTTP:// too: schemes ignore case

    static func parseCenter(_ v: String) throws -> GeoCoordinate {
        let parts = v.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingSpaces), let lon = Double(parts[1].trimmingSpaces),
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
            throw ParseError(message: "invalid --center '\(v)': expected LAT,LON in degrees, e.g. 48.85,2.35")
        }
        return GeoCoordinate(latitude: lat, longitude: lon)
    }

    static func parseSize(_ v: String) -> (Int, Int)? {
        let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...8192).contains(w), (64...8192).contains(h) else { return nil }
        return (w, h)
    }

    /// Help text listing every option.
    public static func helpText(program: String) -> String {
        var s = """
        Usage: \(program) [OPTION…] [FILE…]
               \(program) render --output OUT.png [OPTION…] [FILE | --dataset NAME]
               \(program) clusters FILE --zoom Z [--bbox W,S,E,N] [--algorithm hierarchical|grid] [--leaves] …

        Look at point data (GeoJSON, CSV or any vector format GDAL reads) clustered over an offline world map.

        Options:

        """
        func line(_ left: String, _ help: String) -> String {
            left.padding(toLength: 26, withPad: " ", startingAt: 0) + help + "\n"
        }
        let filterNames = Set(FilterSettings.options.map(\.name))
        for o in valueOptions where !filterNames.contains(o.name) { s += line("  --\(o.name) \(o.value)", o.help) }
        for f in flagOptions { s += line("  --\(f.name)", f.help) }
        s += line("  -h, --help", "Show this help")
        // The window, `render` and `clusters` all apply these (the same engine).
        s += "\nAsking questions (the window, render and clusters):\n"
        for o in FilterSettings.options { s += line("  --\(o.name) \(o.value)", o.help) }
        return s
    }
}

extension Substring {
    var trimmingSpaces: String { String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()) }
}

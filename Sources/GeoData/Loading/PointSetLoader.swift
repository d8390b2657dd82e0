#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads a point file into a `PointSet`: GeoJSON, NDJSON and CSV with our own readers, every other
/// vector format through GDAL (`Readers/GDAL`).
///
/// Synchronous and thread-agnostic: call it on a background thread; it reports progress and
/// polls for cancellation from that thread, so both closures must be `@Sendable`.
/// The file is only ever opened for reading.
public enum PointSetLoader {
    /// Loads the file at `path`: a regular file, a pipe or FIFO (`<(cat f)`, `/dev/stdin`), or
    /// standard input when `path` is `-`. Streams are read until they end; no size is needed.
    ///
    /// - Parameters:
    ///   - progress: called with the fraction parsed (0…1), about every 1% of the file.
    ///   - streamProgress: called with the bytes read so far while a stream (whose size is
    ///     unknown) is read, about every megabyte.
    ///   - isCancelled: polled as often (and while a pipe waits for data); when it returns true the
    ///     load stops by throwing `CancellationError`.
    /// - Throws: `GeoDataError` for an unreadable, empty or malformed file (a file whose first
    ///   megabyte is already fatally wrong is rejected before the rest is read); `CancellationError`.
    public static func load(path: String, options: LoadOptions = LoadOptions(),
                            progress: (@Sendable (Double) -> Void)? = nil,
                            streamProgress: (@Sendable (Int) -> Void)? = nil,
                            isCancelled: (@Sendable () -> Bool)? = nil) throws -> PointSet {
        try load(path: path, options: options, progress: progress, streamProgress: streamProgress,
                 isCancelled: isCancelled, mapThreshold: InputReader.mapThreshold)
    }

    /// `load(path:…)`, mapping regular files from `mapThreshold` bytes on (tests map small ones).
    static func load(path: String, options: LoadOptions, progress: (@Sendable (Double) -> Void)?,
                     streamProgress: (@Sendable (Int) -> Void)?, isCancelled: (@Sendable () -> Bool)?,
                     mapThreshold: Int) throws -> PointSet {
        try firstLayer(of: loadLayers(path: path, options: options, progress: progress, streamProgress: streamProgress,
                                      isCancelled: isCancelled, mapThreshold: mapThreshold))
    }

    /// Loads every layer of a file as a point set of its own (a GeoPackage's tables, a GPX's
    /// waypoints and track points…); a GeoJSON or CSV file is one. The window opens each.
    public static func loadLayers(path: String, options: LoadOptions = LoadOptions(),
                                  progress: (@Sendable (Double) -> Void)? = nil,
                                  streamProgress: (@Sendable (Int) -> Void)? = nil,
                                  isCancelled: (@Sendable () -> Bool)? = nil) throws -> [PointSet] {
        try loadLayers(path: path, options: options, progress: progress, streamProgress: streamProgress,
                       isCancelled: isCancelled, mapThreshold: InputReader.mapThreshold)
    }

    static func loadLayers(path: String, options: LoadOptions, progress: (@Sendable (Double) -> Void)?,
                           streamProgress: (@Sendable (Int) -> Void)?, isCancelled: (@Sendable () -> Bool)?,
                           mapThreshold: Int) throws -> [PointSet] {
        let name = displayName(of: path)
        let throughGDAL = { try GDALReader.load(path: path, name: name, options: options, progress: progress, isCancelled: isCancelled) }
        if options.format == .gdal || GDALFormats.readsThroughGDAL(path) { return try throughGDAL() }
        do {
            return [try loadOwn(path: path, name: name, options: options, progress: progress, streamProgress: streamProgress,
                                isCancelled: isCancelled, mapThreshold: mapThreshold)]
        } catch let e as GeoDataError where e.kind == .noCoordinateColumns && GDALFormats.mayHoldWKT(path) {
            // A CSV with a WKT geometry column instead of latitude/longitude: GDAL's CSV driver.
            return try throughGDAL()
        } catch let e as GeoDataError where e.kind == .notGeoJSON && GDALFormats.startsLikeJSONObject(path) {
            // JSON that is not GeoJSON may be TopoJSON or Esri JSON, which GDAL reads; if it
            // can't either, our reader's message is the one that says what is wrong.
            do { return try throughGDAL() } catch is GeoDataError { throw e }
        }
    }

    /// Where one point set is wanted (the command line's `clusters`, `render`): the first layer,
    /// saying which others there are.
    private static func firstLayer(of sets: [PointSet]) -> PointSet {
        var first = sets[0]
        if sets.count > 1 {
            let others = sets.dropFirst().map { "'\($0.sourceName)'" }.joined(separator: ", ")
            first.appendWarning("only this layer is used here; the file also has \(others)")
        }
        return first
    }

    /// Our own GeoJSON/CSV readers.
    private static func loadOwn(path: String, name: String, options: LoadOptions, progress: (@Sendable (Double) -> Void)?,
                                streamProgress: (@Sendable (Int) -> Void)?, isCancelled: (@Sendable () -> Bool)?,
                                mapThreshold: Int) throws -> PointSet {
        let reader = InputReader(path: path, name: name, streamProgress: streamProgress, isCancelled: isCancelled)
        let buffer: FileBuffer
        if let mapped = try reader.mapIfRegular(threshold: mapThreshold) {
            // A regular file is mapped, not read: the scan below is the only pass over it, and it
            // stops at the first fatal error (a hopeless file costs one page, not its size).
            buffer = mapped
        } else {
            buffer = try reader.read { soFar, isCancelled in
                try checkStart(soFar, path: path, name: name, options: options, isCancelled: isCancelled)
            }
        }
        if isCancelled?() == true { throw CancellationError() }
        return try load(buffer: buffer, name: name, format: format(for: path, buffer: buffer, options: options),
                        options: options, progress: progress, isCancelled: isCancelled)
    }

    /// The name messages use: the file's name, or "standard input" for `-`.
    public static func displayName(of path: String) -> String {
        path == InputReader.standardInputPath ? "standard input" : fileName(of: path)
    }

    /// Loads from bytes in memory (tests, pasted text); `name` is used in messages.
    public static func load(bytes: [UInt8], name: String, options: LoadOptions = LoadOptions(),
                            progress: (@Sendable (Double) -> Void)? = nil,
                            isCancelled: (@Sendable () -> Bool)? = nil) throws -> PointSet {
        let buffer = FileBuffer(bytes: bytes)
        return try load(buffer: buffer, name: name, format: format(for: name, buffer: buffer, options: options),
                        options: options, progress: progress, isCancelled: isCancelled)
    }

    /// Loads from a string (tests); `name` is used in messages and for choosing the reader.
    public static func load(text: String, name: String, options: LoadOptions = LoadOptions()) throws -> PointSet {
        try load(bytes: Array(text.utf8), name: name, options: options)
    }

    /// Which reader a file gets: the option, else the extension, else the first byte.
    static func format(for path: String, buffer: FileBuffer, options: LoadOptions) -> PointSet.Format {
        switch options.format {
        case .geoJSON: return .geoJSON
        case .csv: return .csv
        case .gdal: return .gdal
        case .automatic: break
        }
        let lower = path.lowercased()
        for ext in [".geojson", ".json", ".geojsons", ".geojsonl", ".geojsonseq", ".ndjson", ".jsonl"] where lower.hasSuffix(ext) {
            return .geoJSON
        }
        if lower.hasSuffix(".csv") || lower.hasSuffix(".tsv") { return .csv }
        return buffer.withBytes { p in
            var i = 0
            if buffer.count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
            while i < buffer.count && (p[i] == 32 || p[i] == 10 || p[i] == 13 || p[i] == 9) { i += 1 }
            return i < buffer.count && (p[i] == UInt8(ascii: "{") || p[i] == 0x1E) ? .geoJSON : .csv
        }
    }

    static func load(buffer: FileBuffer, name: String, format: PointSet.Format, options: LoadOptions,
                     progress: (@Sendable (Double) -> Void)?, isCancelled: (@Sendable () -> Bool)?,
                     split: ParallelScan.Options = .standard) throws -> PointSet {
        let sink = ProgressSink(total: buffer.count, progress: progress, isCancelled: isCancelled)
        let ticker = ProgressTicker(sink: sink, buffer: buffer)
        let set: PointSet = try buffer.withBytes { p in
            switch format {
            case .gdal:
                throw GeoDataError(kind: .notGeoJSON, fileName: name, message: "formats read through GDAL load from a file")
            case .geoJSON:
                var reader = GeoJSONReader(bytes: p, count: buffer.count, fileName: name, options: options, ticker: ticker)
                reader.parallel = ParallelScan(buffer: buffer, options: options, sink: sink, fileName: name, split: split)
                try reader.parse()
                return PointSet(sourceName: name, format: .geoJSON, builder: reader.builder,
                                numericPropertyName: options.numericProperty, report: reader.report, buffer: buffer)
            case .csv:
                var reader = CSVReader(bytes: p, count: buffer.count, fileName: name, options: options, ticker: ticker)
                try reader.parse()
                return PointSet(sourceName: name, format: .csv, builder: reader.builder,
                                numericPropertyName: options.numericProperty, report: reader.report, buffer: buffer,
                                csv: reader.columns)
            }
        }
        // What the scan left resident of a mapped file goes back to the page cache; the few
        // records asked for later are read from it again.
        buffer.release(from: 0, to: buffer.count)
        sink.finish()
        return set
    }

    static func fileName(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}

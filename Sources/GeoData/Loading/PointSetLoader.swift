#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads a point file (GeoJSON or CSV) into a `PointSet`.
///
/// Synchronous and thread-agnostic: call it on a background thread; it reports progress and
/// polls for cancellation from that thread, so both closures must be `@Sendable`.
/// The file is only ever opened for reading.
public enum PointSetLoader {
    /// Loads the file at `path`.
    ///
    /// - Parameters:
    ///   - progress: called with the fraction read (0…1), about every 1% of the file.
    ///   - isCancelled: polled as often; when it returns true the load stops by throwing
    ///     `CancellationError`.
    /// - Throws: `GeoDataError` for an unreadable, empty or malformed file; `CancellationError`.
    public static func load(path: String, options: LoadOptions = LoadOptions(),
                            progress: (@Sendable (Double) -> Void)? = nil,
                            isCancelled: (@Sendable () -> Bool)? = nil) throws -> PointSet {
        let name = fileName(of: path)
        let buffer = try readFile(path: path, name: name)
        if isCancelled?() == true { throw CancellationError() }
        return try load(buffer: buffer, name: name, format: format(for: path, buffer: buffer, options: options),
                        options: options, progress: progress, isCancelled: isCancelled)
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
                     progress: (@Sendable (Double) -> Void)?, isCancelled: (@Sendable () -> Bool)?) throws -> PointSet {
        let ticker = ProgressTicker(total: buffer.count, progress: progress, isCancelled: isCancelled)
        let set: PointSet = try buffer.withBytes { p in
            switch format {
            case .geoJSON:
                var reader = GeoJSONReader(bytes: p, count: buffer.count, fileName: name, options: options, ticker: ticker)
                try reader.parse()
                return PointSet(sourceName: name, format: .geoJSON, builder: reader.builder,
                                numericPropertyName: options.numericProperty, report: reader.report, buffer: buffer)
            case .csv:
                var reader = CSVReader(bytes: p, count: buffer.count, fileName: name, options: options, ticker: ticker)
                try reader.parse()
                return PointSet(sourceName: name, format: .csv, builder: reader.builder,
                                numericPropertyName: options.numericProperty, report: reader.report, buffer: buffer,
                                csvHeader: reader.header, csvCoordinateColumns: (reader.latColumn, reader.lonColumn),
                                csvDelimiter: reader.delimiter)
            }
        }
        progress?(1)
        return set
    }

    static func fileName(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }

    /// Reads a whole file read-only into a NUL-padded buffer.
    static func readFile(path: String, name: String) throws -> FileBuffer {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot open the file: \(errnoText())")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot read the file: \(errnoText())")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw GeoDataError(kind: .unreadable, fileName: name, message: "is a folder, not a file")
        }
        let size = Int(st.st_size)
        if size >= Int(UInt32.max) {
            throw GeoDataError(kind: .tooLarge, fileName: name,
                               message: "the file is \(formatCount(size / 1_000_000)) MB; files up to 4 GB can be loaded")
        }
        return try FileBuffer(count: size) { dst in
            var done = 0
            while done < size {
                let n = read(fd, dst.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw GeoDataError(kind: .unreadable, fileName: name, message: "cannot read the file: \(errnoText())")
                }
                if n == 0 { break }   // the file shrank while reading
                done += n
            }
            return done
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

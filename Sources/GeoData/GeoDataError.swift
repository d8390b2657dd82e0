/// A file that could not be loaded: what went wrong and exactly where.
///
/// `description` reads like
/// `cities.geojson: line 1,234, column 17 (byte 98,765), feature 57: expected ',' or '}' after a property`.
/// `featureIndex` is the 0-based position in the `features` array (the number the CLI uses as a
/// point id), said 1-based in words as people count ("feature 57" is the 57th, index 56); lines
/// and columns are 1-based, columns count characters. The description is one
/// safe line (`MessageText`): it quotes at most a short excerpt of the file.
public struct GeoDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Equatable {
        /// The file could not be opened or read.
        case unreadable
        /// The file has no content (or only white space).
        case empty
        /// The bytes are not valid JSON / CSV where the error points.
        case syntax
        /// A string holds bytes that are not UTF-8.
        case invalidUTF8
        /// Valid JSON, but not a GeoJSON FeatureCollection or Feature.
        case notGeoJSON
        /// A CSV file without latitude/longitude columns (or with an unknown override).
        case noCoordinateColumns
        /// Too large or too deeply nested to load.
        case tooLarge
    }

    /// The kind of problem.
    public var kind: Kind
    /// The file's name (last path component).
    public var fileName: String
    /// 1-based line of the problem, when it is inside the file.
    public var line: Int?
    /// 1-based column (in characters) of the problem on that line.
    public var column: Int?
    /// 0-based byte offset of the problem.
    public var byteOffset: Int?
    /// 0-based index of the GeoJSON feature being read, when inside the `features` array.
    public var featureIndex: Int?
    /// What is wrong, in words.
    public var message: String

    public init(kind: Kind, fileName: String, line: Int? = nil, column: Int? = nil,
                byteOffset: Int? = nil, featureIndex: Int? = nil, message: String) {
        self.kind = kind
        self.fileName = fileName
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.featureIndex = featureIndex
        self.message = message
    }

    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(formatCount(line))") }
        if let column {
            parts.append("column \(formatCount(column))" + (byteOffset.map { " (byte \(formatCount($0)))" } ?? ""))
        }
        if let featureIndex { parts.append("feature \(formatCount(featureIndex + 1))") }
        let place = parts.isEmpty ? "" : " " + parts.joined(separator: ", ") + ":"
        // Safe to print anywhere: one line, control characters escaped, bounded (MessageText).
        return MessageText.line("\(MessageText.excerpt(fileName, limit: 120)):\(place) \(message)")
    }
}

extension GeoDataError {
    /// Builds an error at a byte offset of `bytes`, working out the line and column.
    static func at(_ offset: Int, in p: UnsafePointer<UInt8>, count: Int, kind: Kind = .syntax,
                   fileName: String, featureIndex: Int?, message: String) -> GeoDataError {
        let o = max(0, min(offset, count))
        var line = 1
        var lineStart = 0
        for i in 0..<o where p[i] == 10 { line += 1; lineStart = i + 1 }
        var column = 1
        for i in lineStart..<o where p[i] & 0xC0 != 0x80 { column += 1 }
        return GeoDataError(kind: kind, fileName: fileName, line: line, column: column,
                            byteOffset: o, featureIndex: featureIndex, message: message)
    }
}

/// `1234567` → `"1,234,567"`.
public func formatCount(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return n < 0 ? "-" + out : out
}

import ClusterCore

/// Reads a CSV file of points (RFC 4180 with a header row).
struct CSVReader {
    static let latitudeNames = ["lat", "latitude", "y"]
    static let longitudeNames = ["lon", "lng", "long", "longitude", "x"]

    let p: UnsafePointer<UInt8>
    let end: Int
    let fileName: String
    let options: LoadOptions
    var ticker: ProgressTicker
    var scanner: CSVScanner
    var builder: PointSetBuilder
    var report = LoadReport(unit: .rows)
    /// The header and where the special columns are (for decoding rows again later).
    private(set) var columns = PointSet.CSVColumns()

    init(bytes: UnsafePointer<UInt8>, count: Int, fileName: String, options: LoadOptions, ticker: ProgressTicker) {
        p = bytes
        end = count
        self.fileName = fileName
        self.options = options
        self.ticker = ticker
        scanner = CSVScanner(p: bytes, end: count, pos: 0, line: 1)
        builder = PointSetBuilder(wantsNumeric: options.numericProperty != nil,
                                  capacityHint: min(count / 50 + 16, 50_000_000))
    }

    /// The index of the first column (in `names` priority order) whose lowercased name matches.
    static func column(named names: [String], in lowered: [String]) -> Int? {
        for n in names { if let i = lowered.firstIndex(of: n) { return i } }
        return nil
    }

    /// "the columns are: a, b, …": short excerpts of the first few names, so a header of one huge
    /// field or of thousands of columns still makes a short message.
    static func columnListing(_ header: [String], shown: Int = 12) -> String {
        var names = header.prefix(shown).map { $0.isEmpty ? "(empty)" : MessageText.excerpt($0, limit: 30) }
        if header.count > shown { names.append("… (\(formatCount(header.count - shown)) more)") }
        return "the columns are: " + names.joined(separator: ", ")
    }

    mutating func parse() throws {
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { scanner.pos = 3 }
        var i = scanner.pos
        while i < end && (p[i] == 32 || p[i] == 10 || p[i] == 13 || p[i] == 9) { i += 1 }
        if i >= end { throw GeoDataError(kind: .empty, fileName: fileName, message: "the file is empty") }

        scanner.delimiter = CSVScanner.detectDelimiter(p, from: scanner.pos, end: end)
        try scanner.readRecord(fileName: fileName)
        let header = (0..<scanner.fieldCount).map { scanner.fieldString($0).trimmingSpaces() }
        columns.header = header
        columns.delimiter = scanner.delimiter
        let lowered = header.map { $0.lowercased() }
        let listing = CSVReader.columnListing(header)

        func find(_ override: String?, _ names: [String], _ what: String) throws -> Int {
            if let o = override {
                guard let i = lowered.firstIndex(of: o.lowercased().trimmingSpaces()) else {
                    throw GeoDataError(kind: .noCoordinateColumns, fileName: fileName, line: 1,
                                       message: "no \(what) column named \"\(MessageText.excerpt(o))\"; \(listing)")
                }
                return i
            }
            guard let i = CSVReader.column(named: names, in: lowered) else {
                throw GeoDataError(kind: .noCoordinateColumns, fileName: fileName, line: 1,
                                   message: "no \(what) column (looked for \(names.joined(separator: ", "))); \(listing)")
            }
            return i
        }
        let latMissing = options.latitudeColumn == nil && CSVReader.column(named: CSVReader.latitudeNames, in: lowered) == nil
        let lonMissing = options.longitudeColumn == nil && CSVReader.column(named: CSVReader.longitudeNames, in: lowered) == nil
        if latMissing && lonMissing {
            throw GeoDataError(kind: .noCoordinateColumns, fileName: fileName, line: 1,
                               message: "no latitude/longitude columns (looked for lat, latitude, y and lon, lng, long, longitude, x); \(listing)")
        }
        let latColumn = try find(options.latitudeColumn, CSVReader.latitudeNames, "latitude")
        let lonColumn = try find(options.longitudeColumn, CSVReader.longitudeNames, "longitude")
        columns.latitude = latColumn
        columns.longitude = lonColumn
        if latColumn == lonColumn {
            throw GeoDataError(kind: .noCoordinateColumns, fileName: fileName, line: 1,
                               message: "the latitude and longitude columns are the same column (\"\(MessageText.excerpt(header[latColumn]))\")")
        }

        let nameCol = CSVReader.column(named: ["name", "title"], in: lowered) ?? -1
        let labelCol = lowered.firstIndex(of: "label") ?? -1
        let descCol = lowered.firstIndex(of: "description") ?? -1
        let colorCol = lowered.firstIndex(of: "marker-color") ?? -1
        columns.name = nameCol
        columns.label = labelCol
        columns.description = descCol
        columns.markerColor = colorCol
        columns.id = lowered.firstIndex(of: "id") ?? -1
        let catCol: Int
        if let c = options.categoryProperty { catCol = lowered.firstIndex(of: c.lowercased()) ?? -1 }
        else { catCol = CSVReader.column(named: ["category", "marker-symbol"], in: lowered) ?? -1 }
        let numCol = options.numericProperty.flatMap { lowered.firstIndex(of: $0.lowercased()) } ?? -1
        let labels = options.categoryLabels
        let columnCount = header.count

        var rowIndex = 0
        while scanner.pos < end {
            let rowLine = scanner.line
            let rowStart = scanner.pos
            try scanner.readRecord(fileName: fileName)
            if scanner.isBlank { continue }
            let position = rowIndex
            rowIndex += 1
            try ticker.tick(scanner.pos)
            if scanner.malformed || scanner.fieldCount != columnCount {
                report.skip(.badRow, at: rowLine)
                continue
            }
            var lat = 0.0, lon = 0.0
            let latReason = CSVReader.coordinate(p, scanner.fields[latColumn].start, scanner.fields[latColumn].end, &lat)
            let lonReason = CSVReader.coordinate(p, scanner.fields[lonColumn].start, scanner.fields[lonColumn].end, &lon)
            if let reason = latReason ?? lonReason {
                report.skip(reason, at: rowLine)
                continue
            }
            if !(abs(lat) <= 90 && abs(lon) <= 180) {
                report.skip(.outOfRange, at: rowLine)
                continue
            }
            CSVReader.note(scanner, nameCol, .name, in: &builder.fields)
            CSVReader.note(scanner, labelCol, .label, in: &builder.fields)
            CSVReader.note(scanner, descCol, .description, in: &builder.fields)
            CSVReader.note(scanner, colorCol, .markerColor, in: &builder.fields)
            var cat: Int32 = -1
            if catCol >= 0 {
                let s = scanner.fields[catCol].start, e = scanner.fields[catCol].end
                if e > s {
                    if labels.isEmpty && scanner.fields[catCol].flags & 2 == 0 {
                        cat = builder.categories.index(p, from: s, to: e)
                    } else {
                        var text = scanner.fieldString(catCol)
                        if let mapped = labels[text] { text = mapped }
                        cat = builder.categories.index(text)
                    }
                }
            }
            var numeric = Double.nan
            if numCol >= 0 {
                let s = scanner.fields[numCol].start, e = scanner.fields[numCol].end
                numeric = CSVReader.number(p, s, e) ?? .nan
            }
            builder.addPoint(GeoCoordinate(latitude: lat, longitude: lon), offset: rowStart, position: position,
                             category: cat, numeric: numeric)
        }
        report.itemsRead = rowIndex
        report.pointsLoaded = builder.coordinates.count
    }

    /// Notes that some row has a value in `col` (decoded from the file when asked for).
    @inline(__always)
    static func note(_ scanner: borrowing CSVScanner, _ col: Int, _ field: PointSet.FieldsPresent,
                     in present: inout PointSet.FieldsPresent) {
        if col >= 0 && scanner.fields[col].end > scanner.fields[col].start { present.insert(field) }
    }

    @inline(__always)
    static func number(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Double? {
        if e <= s { return nil }
        let r = FastDouble.scanJSONNumber(p, at: s)
        if r.ok && r.end == e { return r.value }
        return FastDouble.parseLenient(p + s, count: e - s)
    }

    /// Reads one coordinate cell; returns why it is unusable, or nil.
    @inline(__always)
    static func coordinate(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, _ out: inout Double) -> LoadReport.SkipReason? {
        // The common cell, a short decimal and nothing else, in one pass.
        if e > s, let short = FastDouble.signedShortDecimal(p, at: s), short.end == e {
            out = short.value
            return nil
        }
        var a = s, b = e
        while a < b && (p[a] == 32 || p[a] == 9) { a += 1 }
        while b > a && (p[b - 1] == 32 || p[b - 1] == 9) { b -= 1 }
        if a == b { return .noCoordinates }
        guard let v = CSVReader.number(p, a, b) else { return .notANumber }
        if v.isNaN { return .notANumber }
        out = v
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}

extension PointSet {
    /// The place's name (`name`, else `title`), or nil.
    public func name(at i: Int) -> String? {
        guard hasNames else { return nil }
        return text(at: i, csvColumn: csv.name, gdalColumn: special.name) { $0.name.isSet ? $0.name : $0.title }
    }

    /// Short text drawn on the pin (`label`), e.g. a price; nil when absent.
    public func label(at i: Int) -> String? {
        guard hasLabels else { return nil }
        return text(at: i, csvColumn: csv.label, gdalColumn: special.label) { $0.label }
    }

    /// The `description` property, or nil.
    public func description(at i: Int) -> String? {
        guard hasDescriptions else { return nil }
        return text(at: i, csvColumn: csv.description, gdalColumn: special.description) { $0.description }
    }

    /// The simplestyle `marker-color` property (as written, e.g. "#ff8800"), or nil.
    public func markerColor(at i: Int) -> String? {
        guard hasMarkerColors else { return nil }
        return text(at: i, csvColumn: csv.markerColor, gdalColumn: special.markerColor) { $0.markerColor }
    }

    /// Every point's name (nil when it has none) in point order, for indexing all of them
    /// (search). Decodes the records front to back and gives the file's pages back behind it, so
    /// a big file does not become resident.
    /// - Complexity: O(size of the records).
    public func forEachName(_ body: (Int, String?) -> Void) {
        guard hasNames, buffer.isUnchanged else {
            for i in 0..<count { body(i, nil) }
            return
        }
        var released = 0
        for i in 0..<count {
            body(i, text(at: i, csvColumn: csv.name, gdalColumn: special.name, checked: true) { $0.name.isSet ? $0.name : $0.title })
            let o = Int(offsets[i])
            if o - released >= PointSet.releaseStep {
                buffer.release(from: released, to: o)
                released = o
            }
        }
        buffer.release(from: released, to: buffer.count)
    }

    /// How far a front-to-back pass over a mapped file gets before it gives pages back.
    static let releaseStep = 32 << 20

    /// A text field of point `i`'s record: the GeoJSON property span `pick` chooses, or the CSV
    /// cell in `csvColumn`; nil when absent or empty.
    private func text(at i: Int, csvColumn: Int, gdalColumn: Int?, checked: Bool = false,
                      _ pick: (GeoJSONReader.FeatureState) -> GeoJSONReader.Span) -> String? {
        guard checked || buffer.isUnchanged else { return nil }
        let offset = Int(offsets[i])
        if let table { return table.text(row: offset, column: gdalColumn) }
        return buffer.withBytes { p in
            switch format {
            case .gdal: return nil
            case .geoJSON:
                guard let f = GeoJSONReader.feature(p, count: buffer.count, at: offset) else { return nil }
                let s = pick(f)
                guard s.isSet && s.end > s.start else { return nil }
                return JSONStringDecoder.string(p, from: s.start, to: s.end, hasEscapes: s.escaped)
            case .csv:
                guard csvColumn >= 0, let row = csvRow(p, offset), csvColumn < row.fieldCount else { return nil }
                let f = row.fields[csvColumn]
                guard f.end > f.start else { return nil }
                return row.fieldString(csvColumn)
            }
        }
    }

    /// All properties of point `i`'s feature or row, in file order, decoded now from the kept
    /// file bytes. For CSV: every column except the two coordinate columns; cells that read as
    /// JSON numbers become `.number`, others `.string`.
    /// - Complexity: O(size of the record's text).
    public func properties(at i: Int) -> [(key: String, value: PropertyValue)] {
        guard buffer.isUnchanged else { return [] }
        let offset = Int(offsets[i])
        if let table { return table.properties(row: offset) }
        return buffer.withBytes { p in
            switch format {
            case .gdal: return []
            case .geoJSON:
                guard let f = GeoJSONReader.feature(p, count: buffer.count, at: offset), f.propsStart >= 0 else { return [] }
                var parser = JSONValueParser(p: p, pos: f.propsStart, end: f.propsEnd)
                return parser.members()
            case .csv:
                return csvCells(p, offset).map { ($0.key, $0.value) }
            }
        }
    }

    /// The properties of point `i`'s feature as JSON text: for GeoJSON exactly the bytes of its
    /// `properties` object as written in the file (`{}` when it had none or `null`); for CSV a
    /// one-line object of the row's cells (coordinate columns left out), numbers unquoted.
    public func propertiesJSON(at i: Int) -> String {
        guard buffer.isUnchanged else { return "{}" }
        let offset = Int(offsets[i])
        if let table { return table.propertiesJSON(row: offset) }
        return buffer.withBytes { p in
            switch format {
            case .gdal: return "{}"
            case .geoJSON:
                guard let f = GeoJSONReader.feature(p, count: buffer.count, at: offset), f.propsStart >= 0 else { return "{}" }
                return LoneSurrogates.repaired(UnsafeBufferPointer(start: p + f.propsStart, count: f.propsEnd - f.propsStart))
            case .csv:
                var out = "{"
                for (k, cell) in csvCells(p, offset).enumerated() {
                    if k > 0 { out += "," }
                    JSONStringDecoder.appendJSONString(cell.key, to: &out)
                    out += ":"
                    if let raw = cell.numberText { out += raw } else { JSONStringDecoder.appendJSONString(cell.value.text ?? "", to: &out) }
                }
                return out + "}"
            }
        }
    }

    /// The feature's `id` (GeoJSON string or number; CSV `id` column), or nil.
    public func id(at i: Int) -> PropertyValue? {
        guard buffer.isUnchanged else { return nil }
        let offset = Int(offsets[i])
        if let table {
            guard let c = special.id, case let v = table.columns[c].value(offset), v != .null else { return nil }
            return v
        }
        return buffer.withBytes { p in
            switch format {
            case .gdal: return nil
            case .geoJSON:
                guard let f = GeoJSONReader.feature(p, count: buffer.count, at: offset), f.idStart >= 0 else { return nil }
                var parser = JSONValueParser(p: p, pos: f.idStart, end: f.idEnd)
                return parser.value()
            case .csv:
                guard csv.id >= 0, let row = csvRow(p, offset), csv.id < row.fieldCount,
                      row.fields[csv.id].end > row.fields[csv.id].start else { return nil }
                return PointSet.cellValue(p, row, csv.id).value
            }
        }
    }

    /// The `id` as JSON text exactly as written (GeoJSON), or as a JSON string/number (CSV).
    public func idJSON(at i: Int) -> String? {
        if format == .geoJSON {
            guard buffer.isUnchanged else { return nil }
            let offset = Int(offsets[i])
            return buffer.withBytes { p in
                guard let f = GeoJSONReader.feature(p, count: buffer.count, at: offset), f.idStart >= 0 else { return nil }
                return LoneSurrogates.repaired(UnsafeBufferPointer(start: p + f.idStart, count: f.idEnd - f.idStart))
            }
        }
        switch id(at: i) {
        case .number(let d): return PropertyValue.format(d)
        case .some(let v):
            var out = ""
            JSONStringDecoder.appendJSONString(v.text ?? "", to: &out)
            return out
        case nil: return nil
        }
    }

    /// Column names of a CSV file or of a layer read through GDAL (empty for GeoJSON).
    public var columnNames: [String] { table.map { $0.columns.map(\.name) } ?? csv.header }

    private struct Cell {
        var key: String
        var value: PropertyValue
        var numberText: String?
    }

    /// The CSV row starting at `start`, split into fields.
    private func csvRow(_ p: UnsafePointer<UInt8>, _ start: Int) -> CSVScanner? {
        var sc = CSVScanner(p: p, end: buffer.count, pos: start, line: 1, delimiter: csv.delimiter)
        guard (try? sc.readRecord(fileName: "")) != nil else { return nil }
        return sc
    }

    private func csvCells(_ p: UnsafePointer<UInt8>, _ start: Int) -> [Cell] {
        guard let sc = csvRow(p, start) else { return [] }
        var cells: [Cell] = []
        for c in 0..<min(sc.fieldCount, csv.header.count) where c != csv.latitude && c != csv.longitude {
            let v = PointSet.cellValue(p, sc, c)
            cells.append(Cell(key: csv.header[c], value: v.value, numberText: v.numberText))
        }
        return cells
    }
    /// A CSV cell as a value: a number when the text is a JSON number, else a string.
    private static func cellValue(_ p: UnsafePointer<UInt8>, _ sc: CSVScanner, _ c: Int) -> (value: PropertyValue, numberText: String?) {
        let s = sc.fields[c].start, e = sc.fields[c].end
        if e > s && sc.fields[c].flags == 0 {
            let r = FastDouble.scanJSONNumber(p, at: s)
            if r.ok && r.end == e && r.value.isFinite {
                return (.number(r.value), String(decoding: UnsafeBufferPointer(start: p + s, count: e - s), as: UTF8.self))
            }
        }
        return (.string(sc.fieldString(c)), nil)
    }
}

/// A small JSON value decoder for text the scanner already validated (lazy property access).
struct JSONValueParser {
    let p: UnsafePointer<UInt8>
    var pos: Int
    let end: Int

    mutating func ws() {
        while pos < end, p[pos] == 32 || p[pos] == 10 || p[pos] == 13 || p[pos] == 9 { pos += 1 }
    }

    /// The members of the object at `pos`.
    mutating func members() -> [(key: String, value: PropertyValue)] {
        ws()
        guard pos < end, p[pos] == UInt8(ascii: "{") else { return [] }
        pos += 1
        var out: [(key: String, value: PropertyValue)] = []
        while true {
            ws()
            guard pos < end, p[pos] == 34 else { return out }
            let key = string()
            ws()
            guard pos < end, p[pos] == UInt8(ascii: ":") else { return out }
            pos += 1
            ws()
            out.append((key, value()))
            ws()
            guard pos < end, p[pos] == UInt8(ascii: ",") else { return out }
            pos += 1
        }
    }

    mutating func string() -> String {
        pos += 1
        let s = pos
        var escaped = false
        while pos < end && p[pos] != 34 {
            if p[pos] == 92 { escaped = true; pos += 2 } else { pos += 1 }
        }
        let e = min(pos, end)
        pos += 1
        return JSONStringDecoder.string(p, from: s, to: e, hasEscapes: escaped)
    }

    mutating func value() -> PropertyValue {
        ws()
        guard pos < end else { return .null }
        switch p[pos] {
        case 34: return .string(string())
        case UInt8(ascii: "t"): pos += 4; return .bool(true)
        case UInt8(ascii: "f"): pos += 5; return .bool(false)
        case UInt8(ascii: "n"): pos += 4; return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let s = pos
            skipNested()
            return .json(String(decoding: UnsafeBufferPointer(start: p + s, count: pos - s), as: UTF8.self))
        default:
            let r = FastDouble.scanJSONNumber(p, at: pos)
            pos = max(r.end, pos + 1)
            return .number(r.value)
        }
    }

    mutating func skipNested() {
        var depth = 0
        while pos < end {
            let c = p[pos]
            if c == 34 {
                _ = string()
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
            if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { pos += 1; return }
            }
            pos += 1
        }
    }
}

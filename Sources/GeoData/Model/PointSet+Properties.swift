extension PointSet {
    /// All properties of point `i`'s feature or row, in file order, decoded now from the kept
    /// file bytes. For CSV: every column except the two coordinate columns; cells that read as
    /// JSON numbers become `.number`, others `.string`.
    /// - Complexity: O(size of the record's text).
    public func properties(at i: Int) -> [(key: String, value: PropertyValue)] {
        let r = record(i)
        let s = rawStarts[r], e = rawEnds[r]
        guard s >= 0 else { return [] }
        return buffer.withBytes { p in
            switch format {
            case .geoJSON:
                var parser = JSONValueParser(p: p, pos: s, end: e)
                return parser.members()
            case .csv:
                return csvCells(p, s).map { ($0.key, $0.value) }
            }
        }
    }

    /// The properties of point `i`'s feature as JSON text: for GeoJSON exactly the bytes of its
    /// `properties` object as written in the file (`{}` when it had none or `null`); for CSV a
    /// one-line object of the row's cells (coordinate columns left out), numbers unquoted.
    public func propertiesJSON(at i: Int) -> String {
        let r = record(i)
        let s = rawStarts[r], e = rawEnds[r]
        guard s >= 0 else { return "{}" }
        return buffer.withBytes { p in
            switch format {
            case .geoJSON:
                return LoneSurrogates.repaired(UnsafeBufferPointer(start: p + s, count: e - s))
            case .csv:
                var out = "{"
                for (k, cell) in csvCells(p, s).enumerated() {
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
        let r = record(i)
        guard r < idStarts.count, idStarts[r] >= 0 else { return nil }
        let s = idStarts[r], e = idEnds[r]
        return buffer.withBytes { p in
            switch format {
            case .geoJSON:
                var parser = JSONValueParser(p: p, pos: s, end: e)
                return parser.value()
            case .csv:
                var sc = CSVScanner(p: p, end: e, pos: s, line: 1, delimiter: csvDelimiter)
                guard (try? sc.readRecord(fileName: "")) != nil, sc.fieldCount > 0 else { return nil }
                return PointSet.cellValue(p, sc, 0).value
            }
        }
    }

    /// The `id` as JSON text exactly as written (GeoJSON), or as a JSON string/number (CSV).
    public func idJSON(at i: Int) -> String? {
        let r = record(i)
        guard r < idStarts.count, idStarts[r] >= 0 else { return nil }
        if format == .geoJSON {
            return buffer.withBytes { p in
                LoneSurrogates.repaired(UnsafeBufferPointer(start: p + idStarts[r], count: idEnds[r] - idStarts[r]))
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

    /// Column names of a CSV file (empty for GeoJSON).
    public var columnNames: [String] { csvHeader }

    private struct Cell {
        var key: String
        var value: PropertyValue
        var numberText: String?
    }

    private func csvCells(_ p: UnsafePointer<UInt8>, _ start: Int) -> [Cell] {
        var sc = CSVScanner(p: p, end: buffer.count, pos: start, line: 1, delimiter: csvDelimiter)
        guard (try? sc.readRecord(fileName: "")) != nil else { return [] }
        var cells: [Cell] = []
        for c in 0..<min(sc.fieldCount, csvHeader.count)
        where c != csvCoordinateColumns.latitude && c != csvCoordinateColumns.longitude {
            let v = PointSet.cellValue(p, sc, c)
            cells.append(Cell(key: csvHeader[c], value: v.value, numberText: v.numberText))
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

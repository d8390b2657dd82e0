/// The attributes of the features a GDAL layer gave, as typed columns (one row per feature, in
/// layer order). A `PointSet` read through GDAL keeps this table instead of the file's bytes:
/// each point's record offset is its row here.
///
/// Types are kept as the layer declares them (issue 30 item 6): integers and reals become numbers,
/// dates and date-times stay dates (`PropertyValue.date`, ISO 8601 text), lists become JSON arrays.
struct AttributeTable: Sendable {
    /// What a column holds.
    enum Kind: String, Sendable {
        case integer, real, bool, text, date, dateTime, time, list
    }

    /// One attribute, a value (or null) per row.
    struct Column: Sendable {
        let name: String
        let kind: Kind
        /// integer, bool (0/1), date (days since 1970-01-01), dateTime (milliseconds since
        /// 1970-01-01T00:00, UTC when `hasTimeZone`).
        var ints: [Int64] = []
        var reals: [Double] = []
        /// text, time and list (JSON text): UTF-8 bytes of all rows, and where each row's end.
        var bytes: [UInt8] = []
        var ends: [Int] = []
        /// Per row: whether it has a value.
        var valid: [Bool] = []
        /// dateTime: whether the values are UTC instants (else local times of unknown zone).
        var hasTimeZone = false

        init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }

        var count: Int { valid.count }

        mutating func appendNull() {
            valid.append(false)
            switch kind {
            case .real: reals.append(.nan)
            case .text, .time, .list: ends.append(bytes.count)
            default: ints.append(0)
            }
        }

        mutating func append(int v: Int64) { ints.append(v); valid.append(true) }
        mutating func append(real v: Double) { reals.append(v); valid.append(true) }
        mutating func append(text p: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: p)
            ends.append(bytes.count)
            valid.append(true)
        }
        mutating func append(text s: String) {
            bytes.append(contentsOf: s.utf8)
            ends.append(bytes.count)
            valid.append(true)
        }

        /// Row `r`'s value.
        func value(_ r: Int) -> PropertyValue {
            guard valid[r] else { return .null }
            switch kind {
            case .integer: return .number(Double(ints[r]))
            case .real: return .number(reals[r])
            case .bool: return .bool(ints[r] != 0)
            case .text, .time: return .string(text(r))
            case .list: return .json(text(r))
            case .date: return .date(CivilDate.isoDate(days: ints[r]))
            case .dateTime: return .date(CivilDate.isoDateTime(milliseconds: ints[r], utc: hasTimeZone))
            }
        }

        /// Row `r`'s text (text, time, list columns), or its value as text.
        func text(_ r: Int) -> String {
            switch kind {
            case .text, .time, .list:
                let start = r == 0 ? 0 : ends[r - 1]
                return bytes[start..<ends[r]].withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            default:
                return value(r).text ?? ""
            }
        }
    }

    /// The columns the app gives a meaning (SPEC §4.1), found by name (case-insensitive: KML has
    /// `Name`, GPX `desc`).
    struct SpecialColumns: Sendable {
        var name: Int?, label: Int?, description: Int?, markerColor: Int?, id: Int?

        init() {}

        init(_ t: AttributeTable) {
            name = t.column(named: ["name", "title"])
            label = t.column(named: ["label"])
            description = t.column(named: ["description", "desc"])
            markerColor = t.column(named: ["marker-color"])
            id = t.column(named: ["id"])
        }
    }

    var columns: [Column] = []
    /// Rows so far (features read).
    var rowCount = 0

    /// Index of the first column named one of `names` (case-insensitive), or nil.
    func column(named names: [String]) -> Int? {
        for n in names {
            if let i = columns.firstIndex(where: { $0.name.lowercased() == n }) { return i }
        }
        return nil
    }

    /// Row `r`'s non-null text in column `c` (nil when absent or empty).
    func text(row r: Int, column c: Int?) -> String? {
        guard let c, columns[c].valid[r] else { return nil }
        let s = columns[c].text(r)
        return s.isEmpty ? nil : s
    }

    /// All attributes of row `r` in column order (nulls included, as GeoJSON would have them).
    func properties(row r: Int) -> [(key: String, value: PropertyValue)] {
        columns.map { ($0.name, $0.value(r)) }
    }

    /// Row `r` as a one-line JSON object (dates as ISO strings, lists as arrays).
    func propertiesJSON(row r: Int) -> String {
        var out = "{"
        for (k, c) in columns.enumerated() {
            if k > 0 { out += "," }
            JSONStringDecoder.appendJSONString(c.name, to: &out)
            out += ":"
            switch c.value(r) {
            case .number(let d): out += d.isFinite ? PropertyValue.plainText(d) : "null"
            case .bool(let b): out += b ? "true" : "false"
            case .null: out += "null"
            case .json(let s): out += s
            case .string(let s), .date(let s): JSONStringDecoder.appendJSONString(s, to: &out)
            }
        }
        return out + "}"
    }
}

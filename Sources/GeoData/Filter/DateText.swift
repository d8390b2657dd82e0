/// Reads dates and date-times written as ISO 8601 text (`2011-03-11`, `2011-03-11T05:46:24Z`,
/// `2011-03-11 05:46:24.5+09:00`) as seconds since 1970-01-01 UTC. Without a zone the time is
/// taken as UTC (data files rarely say, and a filter must mean the same on every machine).
/// GDAL's own text for date fields (`2011/03/11`, `2011/03/11 05:46:24+00`) reads the same: it is
/// what KML and other text-only formats hold after `ogr2ogr`, and what our own CSV export writes.
public enum DateText {
    /// Seconds since 1970 UTC, or nil when `text` is not an ISO 8601 (or GDAL `YYYY/MM/DD`) date or date-time.
    public static func seconds(_ text: String) -> Double? {
        var utf8 = Array(text.utf8)
        // Trim surrounding spaces (CSV cells).
        while let last = utf8.last, last == 32 { utf8.removeLast() }
        let start = utf8.firstIndex(where: { $0 != 32 }) ?? utf8.count
        return utf8.withUnsafeBufferPointer { seconds($0, from: start).map { $0.value } }
    }

    /// Parses from `start`; returns the value and where it ended (the whole rest must be used
    /// unless `partial`).
    static func seconds(_ b: UnsafeBufferPointer<UInt8>, from start: Int, partial: Bool = false) -> (value: Double, end: Int)? {
        var i = start
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func take(_ c: UInt8) -> Bool {
            if i < b.count && b[i] == c { i += 1; return true }
            return false
        }
        // The day's separator is '-' (ISO 8601) or '/' (GDAL), the same one twice.
        guard let year = digits(4), i < b.count, b[i] == 45 || b[i] == 47 else { return nil }
        let separator = b[i]
        i += 1
        guard let month = digits(2), take(separator), let day = digits(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var value = Double(daysFromCivil(year: year, month: month, day: day)) * 86400
        if i < b.count && (b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == 32) {
            let mark = i
            i += 1
            if let hour = digits(2), take(58), let minute = digits(2), hour <= 24, minute < 60 {
                value += Double(hour * 3600 + minute * 60)
                if take(58) {
                    guard let second = digits(2), second <= 60 else { return nil }
                    value += Double(second)
                    if i < b.count && (b[i] == 46 || b[i] == 44) {  // fraction
                        i += 1
                        var scale = 0.1, fraction = 0.0, any = false
                        while i < b.count, b[i] >= 48, b[i] <= 57 {
                            fraction += Double(b[i] - 48) * scale
                            scale /= 10
                            i += 1
                            any = true
                        }
                        guard any else { return nil }
                        value += fraction
                    }
                }
                if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
                } else if i < b.count && (b[i] == 43 || b[i] == 45) {
                    let sign = b[i] == 43 ? 1.0 : -1.0
                    i += 1
                    guard let hh = digits(2) else { return nil }
                    _ = take(58)
                    let mm = digits(2) ?? 0
                    value -= sign * Double(hh * 3600 + mm * 60)
                }
            } else if partial {
                i = mark
            } else {
                return nil
            }
        }
        guard partial || i == b.count else { return nil }
        return (value, i)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        Int(CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `seconds` as ISO 8601 text in UTC (`2011-03-11T05:46:24Z`; a whole day as `2011-03-11`).
    public static func text(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        let whole = Int((seconds).rounded(.down))
        var days = whole / 86400, rest = whole % 86400
        if rest < 0 { rest += 86400; days -= 1 }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let date = CivilDate.isoDate(days: Int64(days))
        if rest == 0 && seconds == Double(whole) { return date }
        return date + "T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }
}

/// Days since 1970-01-01 to proleptic Gregorian dates and back (H. Hinnant's algorithms), and
/// ISO 8601 text of them: the one calendar the readers, the filters and the replay share.
public enum CivilDate {
    /// `YYYY-MM-DD` of a day number.
    public static func isoDate(days: Int64) -> String {
        let (y, m, d) = civil(days: days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// ISO 8601 date-time of milliseconds since 1970 (`Z` when `utc`; milliseconds only when not 0).
    public static func isoDateTime(milliseconds ms: Int64, utc: Bool) -> String {
        let dayMs: Int64 = 86_400_000
        let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
        let rest = ms - days * dayMs
        let h = rest / 3_600_000, mi = rest / 60_000 % 60, s = rest / 1000 % 60, milli = rest % 1000
        var out = isoDate(days: days) + "T" + pad(h, 2) + ":" + pad(mi, 2) + ":" + pad(s, 2)
        if milli != 0 { out += "." + pad(milli, 3) }
        return utc ? out + "Z" : out
    }

    /// Year, month (1–12) and day of a day number.
    public static func civil(days z0: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The day number of a date.
    public static func days(year y0: Int64, month m: Int64, day d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v.magnitude)
        return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

import GeoData

extension FilterPanelModel {
    /// The time window's ends as its chip says them. A time bar playing in window mode hands out
    /// instants ("1987-04-16T14:29:07Z"): when the window is whole days long (7 days by default)
    /// the chip says days only, as the bar's own text does — "date 1987-04-16 – 1987-04-23" fits
    /// the chip, "date 1987-04-16 14:29 – 1987-0…" did not (review-s16 finding 11). Otherwise each
    /// end as `shortTime` says it.
    static func windowTexts(since: String?, until: String?) -> (since: String?, until: String?) {
        if let since, let until, let s = instant(since), let u = instant(until) {
            let length = u + 1 - s, days = (length / 86400).rounded()
            // filterRange rounds each end to whole seconds: a second or two either way.
            if days >= 1, abs(length - days * 86400) <= 2 {
                return (String(since.prefix(10)), String(DateText.text(u + 1).prefix(10)))
            }
        }
        return (since.map(shortTime), until.map(shortTime))
    }

    /// UTC seconds of a time bar's `YYYY-MM-DDTHH:MM:SSZ`; nil for anything else (a typed date).
    private static func instant(_ text: String) -> Double? {
        let t = Array(text.utf8)
        guard t.count == 20, t[10] == UInt8(ascii: "T"), t[19] == UInt8(ascii: "Z") else { return nil }
        return DateText.seconds(text)
    }
}

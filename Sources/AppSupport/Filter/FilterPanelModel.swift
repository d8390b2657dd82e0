import Foundation
import GeoData

/// The filter panel and the chip row as values (issue 29 item 1): one row per property — its
/// type (overridable), and a checklist with counts, a range with a histogram, or a "contains"
/// text — the chips of the active conditions, and "12,345 of 1,000,000 places". The GTK side
/// only draws this and turns clicks into the intents below, which return new `FilterSettings`.
///
/// Conditions live in `FilterSettings.conditions` as expressions; the panel reads back those it
/// can show (`FilterCondition(parsing:)`) and keeps any other (a hand-written `--where`) as a
/// chip of its own. Conditions combine with and.
public struct FilterPanelModel: Equatable, Sendable {
    /// One property's row.
    public struct Row: Equatable, Sendable {
        public var property: String
        public var type: PropertyType
        public var inferred: PropertyType
        /// "23,412 places · 12 without" (· "guessed number" when the type was overridden)
        public var summary: String
        /// What a screen reader says for the row.
        public var accessibleLabel: String
        public var control: Control
        /// Whether a condition on this property is active.
        public var isActive: Bool
    }

    /// The row's control.
    public enum Control: Equatable, Sendable {
        /// Category or boolean values, most common first; a search box when there are many.
        case checklist([CheckItem], searchable: Bool)
        /// A number or date range over the data's own range.
        case range(RangeControl)
        /// Free text: places whose text contains this.
        case contains(String)
        /// Nothing to filter on (no usable values).
        case empty
    }

    /// One value of a checklist.
    public struct CheckItem: Equatable, Sendable {
        public var text: String
        public var count: Int
        public var isChecked: Bool
        /// "quake, 1,234 places" (the check state is the widget's own).
        public var accessibleLabel: String
    }

    /// A range's ends, bounds and histogram.
    public struct RangeControl: Equatable, Sendable {
        public var bounds: ClosedRange<Double>
        public var lower: Double
        public var upper: Double
        /// Slider steps (a day for dates; a round number for numbers).
        public var step: Double
        public var isDate: Bool
        /// Counts per bar, and whether each bar lies in the chosen range (drawn stronger).
        public var histogram: [Int]
        public var barsInRange: [Bool]
        public var lowerText: String
        public var upperText: String
    }

    /// A chip over the map.
    public struct Chip: Equatable, Sendable {
        public var text: String
        /// "Remove filter: mag 6 – 9".
        public var accessibleLabel: String
        public var removal: Removal
    }

    /// What removing a chip takes away.
    public enum Removal: Equatable, Sendable {
        /// The condition at this position of `FilterSettings.conditions`.
        case condition(Int)
        /// The time window (`since` / `until`).
        case timeWindow
    }

    public var rows: [Row]
    public var chips: [Chip]
    /// "12,345 of 1,000,000 places" while something filters; nil otherwise.
    public var placesText: String?

    /// Values past which a checklist gets a search box.
    public static let searchableAbove = 20

    /// The panel for `catalog` with `settings` asked; `passing` places pass (nil: not known yet).
    public init(catalog: FilterCatalog, settings: FilterSettings, passing: Int?) {
        let conditions = Self.panelConditions(settings)
        let time = Self.timeWindowProperty(settings, catalog: catalog)
        rows = Self.ordered(catalog.properties, settings: settings).map { p in  // ids last (+Order)
            let condition = conditions[p.name]?.condition
            return Self.row(p, condition: condition, window: p.name == time ? Self.window(settings) : nil)
        }
        chips = Self.chips(settings)
        let filters = !settings.conditions.isEmpty || settings.since != nil || settings.until != nil
        placesText = filters ? passing.map { FilterState.placesText(passing: $0, of: catalog.placeCount) } : nil
    }

    // MARK: Reading settings

    /// The panel's conditions by property (the last one wins when several name one property),
    /// with their position in `settings.conditions`.
    public static func panelConditions(_ settings: FilterSettings) -> [String: (index: Int, condition: FilterCondition)] {
        var out: [String: (Int, FilterCondition)] = [:]
        for (i, text) in settings.conditions.enumerated() {
            if let c = FilterCondition(parsing: text) { out[c.property] = (i, c) }
        }
        return out
    }

    /// The date property `--since/--until` (the time window) read: `--time`'s, else the first
    /// date property. Its row shows the window, and its sliders set the window (one source of
    /// truth, no second condition).
    public static func timeWindowProperty(_ settings: FilterSettings, catalog: FilterCatalog) -> String? {
        if let t = settings.timeProperty { return catalog.property(t)?.type == .date ? t : nil }
        return catalog.properties.first { $0.type == .date }?.name
    }

    /// The time window's ends as the row's slider values (the day each falls on); nil without one.
    static func window(_ settings: FilterSettings) -> (lower: Double?, upper: Double?)? {
        guard settings.since != nil || settings.until != nil else { return nil }
        func day(_ text: String?) -> Double? { text.flatMap(DateText.seconds).map { ($0 / 86400).rounded(.down) * 86400 } }
        return (day(settings.since), day(settings.until))
    }

    private static func row(_ p: FilterCatalog.Property, condition: FilterCondition?,
                            window: (lower: Double?, upper: Double?)? = nil) -> Row {
        let control: Control
        switch p.type {
        case .category, .boolean:
            var ticked: Set<String>?
            if case .oneOf(let values)? = condition?.kind { ticked = Set(values) }
            if case .isTrue(let b)? = condition?.kind { ticked = [b ? "true" : "false"] }
            let items = p.values.map { v in
                CheckItem(text: v.text, count: v.count, isChecked: ticked?.contains(v.text) ?? true,
                          accessibleLabel: "\(v.text), \(formatCount(v.count)) \(v.count == 1 ? "place" : "places")")
            }
            control = items.isEmpty ? .empty : .checklist(items, searchable: items.count > searchableAbove)
        case .number, .date:
            guard let bounds = p.range else { control = .empty; break }
            var lo: Double?, hi: Double?
            if case .numberRange(let l, let h)? = condition?.kind { lo = l; hi = h }
            if case .dateRange(let l, let h)? = condition?.kind { lo = l; hi = h }
            // The time window narrows it further (a condition saved before it was one).
            if let w = window {
                if let l = w.lower { lo = max(lo ?? l, l) }
                if let h = w.upper { hi = min(hi ?? h, h) }
            }
            let isDate = p.type == .date
            let lower = max(bounds.lowerBound, min(bounds.upperBound, lo ?? bounds.lowerBound))
            let upper = min(bounds.upperBound, max(lower, hi ?? bounds.upperBound))
            let n = p.histogram.count
            let width = bounds.upperBound - bounds.lowerBound
            let bars = (0..<n).map { k -> Bool in
                guard width > 0 else { return true }
                let a = bounds.lowerBound + width * Double(k) / Double(n), b = bounds.lowerBound + width * Double(k + 1) / Double(n)
                return b > lower && a <= upper
            }
            control = .range(RangeControl(bounds: bounds, lower: lower, upper: upper, step: step(for: bounds, isDate: isDate),
                                          isDate: isDate, histogram: p.histogram, barsInRange: bars,
                                          lowerText: valueText(lower, isDate: isDate), upperText: valueText(upper, isDate: isDate)))
        case .text:
            if case .contains(let t)? = condition?.kind { control = .contains(t) } else { control = .contains("") }
        }
        let places = "\(formatCount(p.present)) \(p.present == 1 ? "place" : "places")"
        // The type is the row's drop-down; the summary says what the data holds.
        var summary = places
        if p.missing > 0 { summary += " · \(formatCount(p.missing)) without" }
        if p.type != p.inferred { summary += " · guessed \(p.inferred.rawValue)" }
        var label = "\(p.name), \(p.type.rawValue), \(places)"
        if case .range(let r) = control { label += ", from \(r.lowerText) to \(r.upperText)" }
        let isActive = condition != nil || window != nil
        if isActive { label += ", filtered" }
        return Row(property: p.name, type: p.type, inferred: p.inferred, summary: summary, accessibleLabel: label,
                   control: control, isActive: isActive)
    }

    /// The chips of `settings`: each condition (as the panel says it, or as written), then the
    /// time window. A condition naming a property in `unheld` (no place holds it any more, after
    /// a live update) stays — the filter would be lost, and the map would silently show every
    /// place, if it went — and its chip says that it matches nothing now.
    public static func chips(_ settings: FilterSettings, timeProperty: String? = nil, unheld: Set<String> = []) -> [Chip] {
        var chips: [Chip] = settings.conditions.enumerated().map { i, text in
            let parsed = FilterCondition(parsing: text)
            let shown = parsed?.chipText ?? text
            let names = parsed.map { [$0.property] } ?? ((try? FilterExpression.parse(text))?.fieldNames ?? [])
            if let gone = names.first(where: unheld.contains) {
                return Chip(text: "\(shown) · none now",
                            accessibleLabel: "Remove filter: \(shown). No place has \(gone) any more, so it matches nothing.",
                            removal: .condition(i))
            }
            return Chip(text: shown, accessibleLabel: "Remove filter: \(shown)", removal: .condition(i))
        }
        if settings.since != nil || settings.until != nil {
            let name = settings.timeProperty ?? timeProperty ?? "time"
            let text: String
            switch windowTexts(since: settings.since, until: settings.until) {
            case let (s?, u?): text = "\(name) \(s) – \(u)"
            case let (s?, nil): text = "\(name) ≥ \(s)"
            case let (nil, u?): text = "\(name) ≤ \(u)"
            default: text = name
            }
            chips.append(Chip(text: text, accessibleLabel: "Remove filter: \(text)", removal: .timeWindow))
        }
        return chips
    }

    /// A window end as a chip says it: the day, and the minute unless it is midnight (a time
    /// bar's "2011-03-05T09:13:44Z" is "2011-03-05 09:13"; a typed text stays as it is).
    static func shortTime(_ text: String) -> String {
        let t = Array(text.utf8)
        guard t.count == 20, t[10] == UInt8(ascii: "T"), t[19] == UInt8(ascii: "Z") else { return text }
        let day = String(text.prefix(10)), minute = String(text.dropFirst(11).prefix(5))
        return text.dropFirst(11).hasPrefix("00:00:00") ? day : day + " " + minute
    }

    // MARK: Intents

    /// `settings` with the condition on `property` replaced by `condition` (nil: removed), in place.
    public static func setting(_ condition: FilterCondition?, on property: String, in settings: FilterSettings) -> FilterSettings {
        var s = settings
        let at = s.conditions.firstIndex { FilterCondition(parsing: $0)?.property == property }
        s.conditions.removeAll { FilterCondition(parsing: $0)?.property == property }
        if let condition {
            s.conditions.insert(condition.expression, at: min(at ?? s.conditions.count, s.conditions.count))
        }
        return s
    }

    /// Ticks or unticks one value of a checklist (all ticked: no condition).
    public static func toggling(_ value: String, of property: String, on: Bool,
                                catalog: FilterCatalog, settings: FilterSettings) -> FilterSettings {
        guard let p = catalog.property(property) else { return settings }
        let all = p.values.map(\.text)
        var ticked: Set<String> = Set(all)
        switch panelConditions(settings)[property]?.condition.kind {
        case .oneOf(let values)?: ticked = Set(values)
        case .isTrue(let b)?: ticked = [b ? "true" : "false"]
        default: break
        }
        if on { ticked.insert(value) } else { ticked.remove(value) }
        if Set(all).isSubset(of: ticked) { return setting(nil, on: property, in: settings) }
        let kept = all.filter { ticked.contains($0) }
        if p.type == .boolean, kept.count == 1 {
            return setting(FilterCondition(property: property, kind: .isTrue(kept[0] == "true")), on: property, in: settings)
        }
        return setting(FilterCondition(property: property, kind: .oneOf(kept)), on: property, in: settings)
    }

    /// Ticks only `values` (or every value: no condition).
    public static func ticking(only values: [String], of property: String, catalog: FilterCatalog, settings: FilterSettings) -> FilterSettings {
        guard let p = catalog.property(property) else { return settings }
        if Set(p.values.map(\.text)).isSubset(of: Set(values)) { return setting(nil, on: property, in: settings) }
        return setting(FilterCondition(property: property, kind: .oneOf(p.values.map(\.text).filter(values.contains))), on: property, in: settings)
    }

    /// Sets a range (snapped to the row's step; an end at the data's bound is open; the whole
    /// range is no condition).
    public static func settingRange(of property: String, lower: Double, upper: Double,
                                    catalog: FilterCatalog, settings: FilterSettings) -> FilterSettings {
        guard let p = catalog.property(property), let bounds = p.range else { return settings }
        let isDate = p.type == .date
        let step = step(for: bounds, isDate: isDate)
        // Whole steps, written without binary noise (0.05 × 91 is 4.55, not 4.550000000000001).
        let decimals = pow(10, Double(max(0, -Int(log10(step).rounded(.down)))))
        func snap(_ v: Double) -> Double { ((v / step).rounded() * step * decimals).rounded() / decimals }
        var lo = snap(max(bounds.lowerBound, lower)), hi = snap(min(bounds.upperBound, upper))
        if lo > hi { swap(&lo, &hi) }
        let openLow = lo <= bounds.lowerBound, openHigh = hi >= bounds.upperBound
        let l = openLow ? nil : lo, h = openHigh ? nil : hi
        if isDate && property == timeWindowProperty(settings, catalog: catalog) {
            return settingWindow(lower: l, upper: h, of: property, settings: settings)
        }
        if openLow && openHigh { return setting(nil, on: property, in: settings) }
        return setting(FilterCondition(property: property, kind: isDate ? .dateRange(lower: l, upper: h) : .numberRange(lower: l, upper: h)),
                       on: property, in: settings)
    }

    /// The time property's sliders set `--since/--until` (days; an open end: none), and any
    /// condition on that property goes (it would be a second, competing one). An end that stays
    /// on the day it showed keeps its text (a time bar's instant is not rounded to the day).
    static func settingWindow(lower: Double?, upper: Double?, of property: String, settings: FilterSettings) -> FilterSettings {
        var s = setting(nil, on: property, in: settings)
        let shown = window(settings)
        func text(_ v: Double?, current: String?, shown: Double?) -> String? {
            guard let v else { return nil }
            return current != nil && shown == v ? current : valueText(v, isDate: true)
        }
        s.since = text(lower, current: settings.since, shown: shown?.lower)
        s.until = text(upper, current: settings.until, shown: shown?.upper)
        return s
    }

    /// Places whose text contains `text` ("" removes the condition).
    public static func settingContains(_ text: String, of property: String, settings: FilterSettings) -> FilterSettings {
        setting(text.isEmpty ? nil : FilterCondition(property: property, kind: .contains(text)), on: property, in: settings)
    }

    /// Removes what a chip stands for.
    public static func removing(_ removal: Removal, from settings: FilterSettings) -> FilterSettings {
        var s = settings
        switch removal {
        case .condition(let i): if i < s.conditions.count { s.conditions.remove(at: i) }
        case .timeWindow: s.since = nil; s.until = nil
        }
        return s
    }

    /// "Clear": every condition and the time window go; grouping, totals and types stay.
    public static func clearing(_ settings: FilterSettings) -> FilterSettings {
        var s = settings
        s.conditions = []
        s.since = nil
        s.until = nil
        return s
    }

    /// Reads `property` as `type` (its inferred type: the override goes). Conditions on it that
    /// the new type can't hold are dropped.
    public static func settingType(_ type: PropertyType, of property: String, catalog: FilterCatalog,
                                   settings: FilterSettings) -> FilterSettings {
        var s = setting(nil, on: property, in: settings)
        s.types[property] = catalog.property(property)?.inferred == type ? nil : type
        return s
    }

    /// A checklist's items whose text contains `search` (ignoring case); all for "".
    public static func items(_ items: [CheckItem], matching search: String) -> [CheckItem] {
        let needle = search.trimmingCharacters(in: .whitespaces).lowercased()
        return needle.isEmpty ? items : items.filter { $0.text.lowercased().contains(needle) }
    }

    // MARK: Formatting

    /// A day for dates; for numbers a round step giving about 200 positions.
    public static func step(for bounds: ClosedRange<Double>, isDate: Bool) -> Double {
        if isDate { return 86400 }
        let raw = (bounds.upperBound - bounds.lowerBound) / 200
        guard raw > 0, raw.isFinite else { return 1 }
        var p = 1.0
        while p * 10 <= raw { p *= 10 }
        while p > raw { p /= 10 }
        for m in [1.0, 2, 5, 10] where p * m >= raw { return p * m }
        return p * 10
    }

    /// A range end as shown: a date (day) or a plain number.
    public static func valueText(_ v: Double, isDate: Bool) -> String {
        isDate ? String(DateText.text((v / 86400).rounded(.down) * 86400).prefix(10)) : PropertyValue.plainText((v * 1e6).rounded() / 1e6)
    }
}

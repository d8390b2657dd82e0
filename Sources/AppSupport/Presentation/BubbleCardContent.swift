import ClusterCore
import GeoData
import MapModel

/// What a bubble's card says (issue 29 item 5; SPEC §3.3 "aggregates … used for the callout of
/// a cluster", §10 "totals … in the tooltip and callout"): the exact count as its title, the
/// chosen total in full ("Total deaths: 1,234,567", never abbreviated), the `--by` category it
/// holds, the members' categories with counts and colours ("and 3 more"), the date span of the
/// time bar's property, and what its buttons can do. Pure: built from aggregates, so tests read
/// it without a display; the presentation measures and places it like a place's card.
public struct BubbleCardContent: Sendable, Equatable {
    /// One line of the card; `swatch` colours its first character (a category's dot).
    public struct Line: Sendable, Equatable {
        public var text: String
        public var swatch: UInt32?
        public init(_ text: String, swatch: UInt32? = nil) { self.text = text; self.swatch = swatch }
    }

    /// A total as the card says it: "Total deaths" and its exact value (nil for a category's
    /// name, which is `text`).
    public struct Total: Sendable, Equatable {
        public var title: String
        public var value: Double?
        public var text: String
        public init(title: String, value: Double?, text: String) { self.title = title; self.value = value; self.text = text }
    }

    /// A category among the members: its name, how many, its colour on the map.
    public struct Category: Sendable, Equatable {
        public var name: String
        public var count: Int
        public var color: UInt32
        public init(name: String, count: Int, color: UInt32) { self.name = name; self.count = count; self.color = color }
    }

    /// Members of the bubble.
    public var count: Int
    /// "1,234 places".
    public var title: String
    /// The chosen total first, then what else the same numbers say (their range).
    public var totals: [Total] = []
    /// The `--by` property and the one category of it the bubble holds.
    public var group: (property: String, category: Category)? {
        get { groupProperty.flatMap { p in groupCategory.map { (p, $0) } } }
        set { groupProperty = newValue?.property; groupCategory = newValue?.category }
    }
    public var groupProperty: String?
    public var groupCategory: Category?
    /// The members' categories, most first; with `uncategorized` they add up to `count`.
    public var categories: [Category] = []
    /// Members without a category (counted only when others have one).
    public var uncategorized = 0
    /// Whether the categories' dots are drawn (not while the map colours `--by` groups instead).
    public var categoryColoursShown = true
    /// The first and last time of the members (UTC seconds) on the time bar's property.
    public var dates: ClosedRange<Double>?
    /// Other facts the source gives (a server cell's centre, a tile's own properties).
    public var facts: [Line] = []
    /// Whether "Zoom In" can fly into it (a bubble that splits, or one a source can fly into).
    public var canZoomIn = true
    /// Whether "List Places" can list its members (up to `listLimit`, read from the index).
    public var canList = false

    /// Categories named one by one; the rest are "and N more".
    public static let shownCategories = 5
    /// Most members "List Places" offers (SPEC §5.4's pick list).
    public static let listLimit = 50

    public init(count: Int, noun: String) {
        self.count = count
        title = "\(formatCount(count)) \(noun)"
    }

    /// The card's lines, in reading order: totals, the group, the categories, the dates, facts.
    public var lines: [Line] {
        var out = totals.map { Line("\($0.title): \($0.text)") }
        if let (property, c) = group {
            out.append(Line("● \(DisplayText.line(PropertyFormat.words(property))): \(DisplayText.line(c.name))", swatch: c.color))
        }
        if !categories.isEmpty {
            let shown = categories.count > BubbleCardContent.shownCategories + 1
                ? Array(categories.prefix(BubbleCardContent.shownCategories)) : categories
            for c in shown {
                let text = "\(DisplayText.line(PropertyFormat.category(c.name), limit: 40)): \(formatCount(c.count))"
                out.append(categoryColoursShown ? Line("● " + text, swatch: c.color) : Line(text))
            }
            let rest = categories.dropFirst(shown.count)
            if !rest.isEmpty {
                out.append(Line("and \(rest.count) more: \(formatCount(rest.reduce(0) { $0 + $1.count }))"))
            }
            if uncategorized > 0 { out.append(Line("Without a category: \(formatCount(uncategorized))")) }
        }
        if let d = dates {
            let fine = d.upperBound - d.lowerBound < 3 * 86400
            let a = TimeBar.text(d.lowerBound, fine: fine), b = TimeBar.text(d.upperBound, fine: fine)
            out.append(Line(a == b ? "Date: \(a)" : "Dates: \(a) – \(b)"))
        }
        return out + facts
    }

    /// The footer links: "Zoom In" (the same flight as a click) and, for a few members, "List Places".
    public var links: [(action: CalloutAction, title: String)] {
        var out: [(action: CalloutAction, title: String)] = []
        if canZoomIn { out.append((.zoomIn, "Zoom In")) }
        if canList { out.append((.listPlaces, "List Places")) }
        return out
    }

    /// Everything the card says as one text (the map's accessible description while it is open).
    public var spoken: String {
        ([title] + lines.map { $0.swatch == nil ? $0.text : String($0.text.dropFirst(2)) }).joined(separator: ". ")
    }

    // MARK: Building

    /// The totals of `aggregates` (over the total's property) as `setting` asks: the chosen one
    /// exactly, then their range when that says more (a sum or a mean), and how many members had
    /// no value. Most-common names the category and how many have it.
    public static func totals(_ setting: FilterSettings.TotalSetting, of a: ClusterAggregates, count: Int,
                              categoryNames: [String]) -> [Total] {
        let title = BubbleGrouping.totalTitle(setting)
        if setting.kind.readsCategory {
            guard let top = a.categoryCounts.first, top.category >= 0 else { return [Total(title: title, value: nil, text: "none")] }
            let name = Int(top.category) < categoryNames.count ? categoryNames[Int(top.category)] : "?"
            return [Total(title: title, value: nil, text: "\(DisplayText.line(name)) (\(formatCount(top.count)) of \(formatCount(count)))")]
        }
        guard let v = setting.kind.value(of: a) else { return [Total(title: title, value: nil, text: "no values")] }
        var out = [Total(title: title, value: v, text: exact(v))]
        // One line under it: what the values span, and how many members have none.
        var more: [String] = []
        if setting.kind == .sum || setting.kind == .mean, let lo = a.minimum, let hi = a.maximum, lo != hi {
            more.append("\(exact(lo)) – \(exact(hi))")
        }
        if a.valueCount < count { more.append("\(formatCount(count - a.valueCount)) without a value") }
        if !more.isEmpty { out.append(Total(title: more.count == 2 || a.valueCount == count ? "Range" : "Values", value: nil,
                                            text: more.joined(separator: " · "))) }
        return out
    }

    /// A total as the card writes it: whole numbers in full with thousands separators
    /// ("1,234,567"), others to two decimals ("872.33"; "0.0035" below one: four digits that count).
    public static func exact(_ v: Double) -> String {
        guard v.isFinite, v != v.rounded() else { return PropertyFormat.number(v) }
        if abs(v) < 1 {
            var digits = 4, scale = abs(v)
            while scale < 0.1, digits < 12 { scale *= 10; digits += 1 }
            return trimmedZeros(PropertyFormat.number(v, decimals: digits))
        }
        return trimmedZeros(PropertyFormat.number(v, decimals: 2))
    }

    private static func trimmedZeros(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.last == "0" { t = t.dropLast() }
        if t.last == "." { t = t.dropLast() }
        return String(t)
    }

    /// The members' categories from aggregates (`categoryCounts`, most first), named by `name`
    /// and coloured as the map colours them; sets `uncategorized` to the rest of `count`.
    public mutating func setCategories(_ a: ClusterAggregates, name: (Int32) -> String?) {
        categories = a.categoryCounts.filter { $0.category >= 0 }.map {
            Category(name: name($0.category) ?? "Category \($0.category)", count: $0.count, color: PlaceColors.category(Int($0.category)))
        }
        uncategorized = categories.isEmpty ? 0 : max(0, count - categories.reduce(0) { $0 + $1.count })
    }
}

import ClusterCore
import GeoData

/// The offline demo of the live path (`--dataset live-earthquakes`): the bundled earthquakes
/// added to a live index in time order (1965 → 2016) at a steady rate, through the same change
/// API as files and feeds. Its clock is a cumulative `TimeBar` over the earthquakes' dates (the
/// general time bar, drawn under the map with their histogram); time is an input:
/// `advance(seconds:)` is given the elapsed time.
public final class EarthquakeReplay {
    /// The earthquakes (all of them; the session shows those replayed so far).
    public let set: PointSet
    public let dataset: Dataset?
    /// Replay speed: days of earthquake time per second (the time bar's speed; `changeSpeed`).
    public internal(set) var daysPerSecond: Double {
        get { timeBar.speed / 86400 }
        set { timeBar.setSpeed(newValue * 86400) }
    }

    /// Multiplies the days replayed per second by `factor`, kept within 1 day to 10 years.
    public func changeSpeed(by factor: Double) {
        daysPerSecond = min(3650, max(1, daysPerSecond * factor))
    }
    /// The replay's clock and histogram: cumulative, from the first earthquake's day.
    public private(set) var timeBar: TimeBar
    /// The session showing what has been replayed.
    public private(set) var session: MapDataSession
    /// How many earthquakes are shown.
    public private(set) var shown = 0
    /// The replay's clock, in days since the first earthquake's day.
    public var day: Double { (timeBar.window.playhead - timeBar.window.extent.lowerBound) / 86400 }

    /// Local indices in time order, and each one's day number.
    let order: [Int]
    let days: [Double]

    /// Replays `set`, whose `dateColumn` holds `YYYY-MM-DD` dates (rows without one go last).
    public init(set: PointSet, dataset: Dataset?, dateColumn: String = "date", daysPerSecond: Double) {
        self.set = set
        self.dataset = dataset
        var dated: [(day: Double, index: Int)] = []
        for i in 0..<set.count where set.coordinates[i].isValid {
            let text = set.properties(at: i).first { $0.key == dateColumn }?.value.text ?? ""
            dated.append((EarthquakeReplay.dayNumber(text) ?? .infinity, i))
        }
        dated.sort { $0.day != $1.day ? $0.day < $1.day : $0.index < $1.index }
        let first = dated.first.map { $0.day.isFinite ? $0.day : 0 } ?? 0
        order = dated.map(\.index)
        days = dated.map { $0.day.isFinite ? $0.day - first : .infinity }
        let last = days.last { $0.isFinite } ?? 0
        let extent = first * 86400...(first + last) * 86400
        var window = TimeWindow(property: dateColumn, extent: extent, mode: .cumulative)
        window.rewind()
        let histogram = TimeHistogram(times: days.map { ($0 + first) * 86400 }, bins: 120, extent: extent)
        timeBar = TimeBar(window: window, histogram: histogram, speed: daysPerSecond * 86400)
        let source = MapDataSession.Source(points: set, dataset: dataset, firstIndex: 0)
        let index = LiveClusterIndex(points: [], categories: [], values: [], options: MapDataSession.clusterOptions)
        session = MapDataSession(sources: [source], clusterer: index,
                                 places: MapDataSession.Places(sources: [source], coordinates: [], localIndex: []))
    }

    /// Whether every earthquake is shown.
    public var isFinished: Bool { shown == order.count }

    /// The replay clock as a date (`YYYY-MM-DD`).
    public var date: String {
        guard let first = order.first, let firstDay = EarthquakeReplay.dayNumber(
            set.properties(at: first).first { $0.key == "date" }?.value.text ?? "") else { return "" }
        return EarthquakeReplay.dateText(firstDay + day.rounded(.down))
    }

    /// Moves the clock on by `seconds` of wall time and adds the earthquakes now due, in one
    /// batch. Returns how many were added (the new `session` shows them).
    @discardableResult
    public func advance(seconds: Double) -> Int {
        timeBar.advance(wallSeconds: max(0, seconds))
        return addDue()
    }

    /// Steps the clock by `steps` of the time bar's steps (forward only: the live index only
    /// grows) and adds the earthquakes now due. Returns how many were added.
    @discardableResult
    public func step(_ steps: Int) -> Int {
        guard steps > 0 else { return 0 }
        timeBar.step(steps)
        return addDue()
    }

    /// Adds the earthquakes up to the clock.
    private func addDue() -> Int {
        let day = self.day
        var end = shown
        while end < order.count && days[end] <= day { end += 1 }
        guard end > shown else { return 0 }
        let due = order[shown..<end]
        let values = set.numericValues.isEmpty ? [] : due.map { set.numericValues[$0] }
        let index = session.clusterer
        index.apply(PointChanges(additions: due.map { set.coordinates[$0] }), values: values)
        shown = end
        let source = session.sources[0]
        let local = order[0..<end].map { Int32($0) }
        session = MapDataSession(sources: [source], clusterer: index,
                                 places: MapDataSession.Places(sources: [source], coordinates: order[0..<end].map { set.coordinates[$0] },
                                                               localIndex: local))
        return due.count
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date, nil when it isn't one.
    static func dayNumber(_ text: String) -> Double? {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return Double(CivilDate.days(year: Int64(y), month: Int64(m), day: Int64(d)))
    }

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01).
    static func dateText(_ day: Double) -> String { CivilDate.isoDate(days: Int64(day)) }
}

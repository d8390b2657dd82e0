import Foundation
import GeoData

/// The filter, time window, grouping and totals asked of one file (or dataset), remembered in
/// the state file (issue 29 item 7) as a `filter=` line of JSON, so reopening the file shows
/// the same question. The most recent first; at most `SavedFilter.limit` files.
public struct SavedFilter: Equatable, Sendable, Codable {
    /// Which data: `dataset:ID`, or the files' absolute paths joined by newlines.
    public var source: String
    public var settings: FilterSettings
    /// The time bar when it was shown (nil: hidden; lines written before it existed read nil).
    public var timeBar: SavedTimeBar?

    public init(source: String, settings: FilterSettings, timeBar: SavedTimeBar? = nil) {
        self.source = source
        self.settings = settings
        self.timeBar = timeBar
    }

    /// Files remembered.
    public static let limit = 20

    /// The key of the data loaded from `files` (or the bundled `datasets`).
    public static func source(files: [String], datasetIDs: [String]) -> String {
        if !datasetIDs.isEmpty { return datasetIDs.map { "dataset:" + $0 }.joined(separator: "\n") }
        return files.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.joined(separator: "\n")
    }

    /// One state-file line's value (JSON on one line), nil if it can't be written.
    var line: String? {
        guard let data = try? JSONEncoder().encode(self), let text = String(data: data, encoding: .utf8),
              !text.contains("\n") else { return nil }
        return text
    }

    /// A state-file line's value read back; nil when it isn't one (ignored, like any bad line).
    static func parse(_ value: String) -> SavedFilter? {
        try? JSONDecoder().decode(SavedFilter.self, from: Data(value.utf8))
    }
}

extension [SavedFilter] {
    /// The settings remembered for `source`.
    public func settings(for source: String) -> FilterSettings? { first { $0.source == source }?.settings }

    /// The time bar remembered for `source` (nil: none was shown).
    public func timeBar(for source: String) -> SavedTimeBar? { first { $0.source == source }?.timeBar }

    /// Remembers `settings` for `source`, keeping its time bar (most recent first; nothing
    /// asked and no time bar forgets the file).
    public mutating func remember(_ settings: FilterSettings, for source: String) {
        store(SavedFilter(source: source, settings: settings, timeBar: timeBar(for: source)))
    }

    /// Remembers the time bar of `source` (nil: hidden), keeping its filter.
    public mutating func remember(timeBar: SavedTimeBar?, for source: String) {
        store(SavedFilter(source: source, settings: settings(for: source) ?? FilterSettings(), timeBar: timeBar))
    }

    private mutating func store(_ entry: SavedFilter) {
        removeAll { $0.source == entry.source }
        guard entry.settings != FilterSettings() || entry.timeBar != nil else { return }
        insert(entry, at: 0)
        if count > SavedFilter.limit { removeLast(count - SavedFilter.limit) }
    }
}

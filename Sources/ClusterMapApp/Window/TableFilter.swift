import AppSupport
import ClusterCore
import Foundation
import GeoData
import PostGIS

/// What a PostGIS table opens with besides its address: the filter (`--where`, or the dialog's
/// filter field) and the change watch (`--refresh`, or the dialog's "watch for changes").
struct TableOpenOptions: Equatable {
    /// The filter: conditions, and a time window (`--since/--until/--time`).
    var settings = FilterSettings()
    var refreshSeconds: Double?
}

/// The filter of the table on the map (issue 31 item 5): the panel's conditions and the launch
/// `--where` become the view queries' WHERE (`PostGISWhere`), read by the view queue at the start
/// of every query; the filter panel's catalogue comes from the server
/// (`PostGISColumnCatalogReader`, a connection of its own); "N of M places" counts N on the
/// server under the filter and M once (exact, or the server's estimate for a big table: "about").
/// Touched only on the GTK thread; its `LiveOptions` and reader are used from the query threads.
final class TableFilter {
    /// The view options the queue reads at the start of each query (any thread), per variant:
    /// the filter and total as written name the options they were set with, so a view asked under
    /// one (`PostGISViewQueue.View.variant`) runs with exactly those and is cached under them — a
    /// time window played back and forth comes from the queue's cache.
    nonisolated final class LiveOptions: @unchecked Sendable {
        private let lock = NSLock()
        private var options: PostGISViewOptions
        private var expression = ""
        private var totalSetting: FilterSettings.TotalSetting?
        /// Options by variant (bounded: the newest only past `kept`).
        private var byVariant: [String: (options: PostGISViewOptions, total: FilterSettings.TotalSetting?)] = [:]
        private static let kept = 256
        init(_ options: PostGISViewOptions) {
            self.options = options
            record()
        }
        /// The options now.
        var current: PostGISViewOptions { lock.withLock { options } }
        /// The variant views are asked under now: the filter as written, and the total.
        var variant: String { lock.withLock { Self.variant(expression, totalSetting) } }
        private static func variant(_ expression: String, _ total: FilterSettings.TotalSetting?) -> String {
            total.map { "\(expression) | total \($0.text)" } ?? expression
        }
        /// The options a view asked under `variant` runs with (the current ones for one never set).
        func options(for variant: String) -> PostGISViewOptions { lock.withLock { byVariant[variant]?.options ?? options } }
        /// The total a view asked under `variant` carries.
        func total(for variant: String) -> FilterSettings.TotalSetting? {
            lock.withLock { byVariant[variant].map { $0.total } ?? totalSetting }
        }
        /// Replaces the filter (written as `expression`).
        func setFilter(_ filter: PostGISWhere?, expression: String) {
            lock.withLock {
                options.filter = filter
                self.expression = expression
                record()
            }
        }
        /// What the bubbles total (checked against the table; nil: counts only).
        var total: FilterSettings.TotalSetting? { lock.withLock { totalSetting } }
        /// Replaces the total: the view queries sum its column.
        func setTotal(_ total: FilterSettings.TotalSetting?) {
            lock.withLock {
                totalSetting = total
                options.total = total?.property
                options.totalIsMostCommon = total?.kind == .mostCommon
                record()
            }
        }
        /// Keeps the options now under their variant (called with the lock held).
        private func record() {
            if byVariant.count >= Self.kept { byVariant.removeAll() }
            byVariant[Self.variant(expression, totalSetting)] = (options, totalSetting)
        }
    }

    /// The identity of a catalogue: a new one after the table's filterable data may have changed
    /// or a read failed, so the panel reads it again.
    nonisolated final class CatalogToken: Sendable {}

    let table: PostGISTable
    let live: LiveOptions
    /// Reads the panel's catalogue (on the panel's thread).
    let reader: PostGISColumnCatalogReader
    /// Counts N and M, on a connection of its own so a superseded count can be cancelled
    /// without touching a catalogue being read.
    let countReader: PostGISColumnCatalogReader
    /// Runs the newest count; a newer filter cancels the one running.
    private let counter: LatestRequestWorker<CountJob, CountOutcome>
    private(set) var catalogToken = CatalogToken()
    /// The filter asked last (nil: every row) and its generation (a count for an older one is dropped).
    private(set) var filter: PostGISWhere?
    private(set) var expression = ""
    private(set) var generation = 0
    /// N: rows passing the filter, counted by the server (nil until counted).
    private(set) var passing: Int?
    /// M: the table's rows with a geometry, and whether that is the server's estimate.
    private(set) var total: (count: Int, isEstimate: Bool)?
    /// The share of the table the panel's last catalogue was read from (percent; nil: every row).
    private(set) var catalogSampledPercent: Double?

    /// A table's filter starting with `options.filter`; counts are handed to `countDelivered` on
    /// the counting thread.
    init(source: PostGISSource, options: PostGISViewOptions, statementTimeoutMilliseconds: Int,
         countDelivered: @escaping @Sendable (CountOutcome) -> Void) {
        table = source.table
        live = LiveOptions(options)
        reader = PostGISColumnCatalogReader(source: source, statementTimeoutMilliseconds: statementTimeoutMilliseconds)
        countReader = PostGISColumnCatalogReader(source: source, statementTimeoutMilliseconds: statementTimeoutMilliseconds)
        counter = LatestRequestWorker(label: "clustermap.table-count", work: { $0.run() }, deliver: { _, outcome in countDelivered(outcome) })
        filter = options.filter
    }

    /// Counts for the filter now (M too while unknown), cancelling a count still running.
    func count() {
        countReader.cancel()
        counter.submit(CountJob(generation: generation, filter: filter, reader: countReader, needsTotal: total == nil))
    }

    /// The filter changes to `filter` (written as `expression`): the queue's next query uses it;
    /// the count is stale. Returns the new generation.
    func setFilter(_ filter: PostGISWhere?, expression: String) -> Int {
        self.filter = filter
        self.expression = expression
        live.setFilter(filter, expression: expression)
        generation += 1
        passing = nil
        return generation
    }

    /// A count arrived; false when it was for an older filter (dropped).
    func countArrived(_ outcome: CountOutcome) -> Bool {
        guard outcome.generation == generation else { return false }
        if case .success(let counted) = outcome.answer {
            if let t = counted.total { total = t }
            passing = counted.passing ?? total?.count
        }
        return true
    }

    /// A catalogue was read (from a sample of `sampledPercent` % of the table, or every row).
    func catalogArrived(sampledPercent: Double?) { catalogSampledPercent = sampledPercent }

    /// What the panel says over its rows: the count, and that the rows' counts are estimates when
    /// the catalogue came from a sample.
    func panelStatus(placesText: String?) -> String? {
        guard let p = catalogSampledPercent else { return placesText }
        let share = p >= 1 ? String(format: "%.0f", p) : String(format: "%.2g", p)
        return (placesText ?? "Every place shows") + ". Ranges and place counts below are about (read from a \(share) % sample of "
            + "the table); the categories' counts are exact."
    }

    /// The rows changed (`--refresh`): the counts and the catalogue are read again.
    func rowsChanged() {
        total = nil
        passing = nil
        catalogIsStale()
    }

    /// A read failed: the catalogue is read again when shown.
    func catalogIsStale() {
        // The old one stays alive: a new object must not reuse its identity.
        oldTokens.append(catalogToken)
        catalogToken = CatalogToken()
    }
    private var oldTokens: [CatalogToken] = []

    /// "N of M places" while a filter applies ("of about M" for an estimate); nil otherwise or
    /// before the count arrived.
    var placesText: String? {
        guard filter != nil, let passing, let total else { return nil }
        let text = FilterState.placesText(passing: passing, of: total.count)
        return total.isEstimate ? text.replacingOccurrences(of: " of ", with: " of about ") : text
    }

    /// One count on the server: the rows passing a filter, and the table's rows when unknown.
    nonisolated struct CountJob: Sendable {
        let generation: Int
        let filter: PostGISWhere?
        let reader: PostGISColumnCatalogReader
        let needsTotal: Bool

        /// Runs both counts (on the worker's thread).
        func run() -> CountOutcome {
            let started = DispatchTime.now().uptimeNanoseconds
            let answer = Result { () throws -> Counted in
                let total = needsTotal ? try reader.placeCount() : nil
                // Without a filter every row passes: M says it (no second scan).
                let passing = filter == nil ? nil : try reader.count(where: filter)
                return Counted(passing: passing, total: total)
            }
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            return CountOutcome(generation: generation, answer: answer, milliseconds: ms)
        }
    }

    /// Counts from the server.
    nonisolated struct Counted: Sendable {
        let passing: Int?
        let total: (count: Int, isEstimate: Bool)?
    }

    /// A count job's answer.
    nonisolated struct CountOutcome: Sendable {
        let generation: Int
        let answer: Result<Counted, Error>
        let milliseconds: Double
    }

    /// The WHERE for `settings` on `table` (conditions and time window), and how it is written.
    /// - Throws: `PostGISError.badFilter` naming the column or option the table can't answer.
    static func sqlFilter(_ settings: FilterSettings, on table: PostGISTable) throws -> (filter: PostGISWhere?, expression: String) {
        var texts = settings.conditions
        if let window = try PostGISWhere.timeWindow(since: settings.since, until: settings.until, timeColumn: settings.timeProperty,
                                                    table: table) {
            texts.append(window)
        }
        let filter = PostGISWhere.all(try texts.map { try PostGISWhere(parsing: $0) })
        try filter?.check(against: table)
        return (filter, texts.joined(separator: " and "))
    }

    /// The panel's catalogue for a table's: field for field (a text column read as the other of
    /// category / free text by the person's choice says which it was inferred as).
    nonisolated static func filterCatalog(_ c: PostGISColumnCatalog, types: [String: PropertyType]) -> FilterCatalog {
        FilterCatalog(properties: c.columns.map { col in
            var property = col
            if let chosen = types[col.name], chosen == col.type, col.type == .category || col.type == .text {
                property.inferred = col.type == .category ? .text : .category
            }
            return property
        }, placeCount: c.rowCount)
    }
}

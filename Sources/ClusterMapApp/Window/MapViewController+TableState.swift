import AppSupport
import ClusterCore
import GeoData
import PostGIS

/// A table's total and its remembered filter (issue 31 item 2): `--total KIND:COLUMN` makes the
/// view queries total the column per cell (bubbles, tooltip, card and In View rows say it by
/// the column's name); the filter, time window and total are remembered per table address
/// (without its password) in the state file, as a file's are, and come back when the same table
/// opens again unless the command line (or the dialog) asks for its own.
extension MapViewController {
    /// The settings a table opens with: the ones asked for (launch options or the dialog) when
    /// any, else those remembered for `address`. The table becomes the remembered filters' "shown" data.
    func tableOpenSettings(_ asked: FilterSettings, address: String) -> FilterSettings {
        filterMemory.willLoad(source: SavedFilter.source(tableAddress: address))
        filterMemory.loadingShown()
        if asked != FilterSettings() { return asked }
        guard let source = filterMemory.shownSource, let saved = filterMemory.saved.settings(for: source), saved != FilterSettings() else {
            return asked
        }
        eventLog.emit("filter-restored", [("conditions", .int(saved.conditions.count)), ("source", .string("table"))])
        return saved
    }

    /// A remembered filter the table can no longer answer (a column gone) is forgotten.
    func forgetTableSettings(_ settings: FilterSettings) { filterMemory.forgetForShown(ifItIs: settings) }

    /// Remembers the table's filter for its address (the state file writes it at quit).
    func rememberTableSettings(_ settings: FilterSettings) { filterMemory.rememberForShown(settings) }

    /// `total` when the table can total it; else said in a banner naming the column (the
    /// bubbles show counts) and nil. Logged as `db-total` {kind, column} or {error}.
    func checkedTableTotal(_ total: FilterSettings.TotalSetting?, on table: PostGISTable,
                           pyramid: PostGISPyramid? = nil) -> FilterSettings.TotalSetting? {
        guard let total else { return nil }
        if let problem = table.totalProblem(kind: total.kind, column: total.property) {
            eventLog.emit("db-total", [("error", .string(problem))])
            showError("\(table.displayName): \(problem)")
            return nil
        }
        eventLog.emit("db-total", [("kind", .string(total.kind.rawValue)), ("column", .string(total.property))])
        // A pyramid without this total's columns: views fall back to the table; said once per total.
        let pyramid = pyramid ?? database?.source.pyramid
        if let pyramid, let why = pyramid.problem(total: total.property, mostCommon: total.kind == .mostCommon) {
            eventLog.emit("db-pyramid", [("used", .bool(false)), ("column", .string(total.property)), ("reason", .string(why))])
            chrome?.show(message: MessageText.line("\(table.displayName): \(why)"), isError: false)
        }
        return total
    }

    /// The panel (or a chip) asked for `total`: the views total it from now on (the cached ones
    /// are dropped by the filter change that carries it).
    func setTableTotal(_ total: FilterSettings.TotalSetting?, on t: TableFilter) {
        guard total != t.live.total else { return }
        t.live.setTotal(checkedTableTotal(total, on: t.table))
    }
}

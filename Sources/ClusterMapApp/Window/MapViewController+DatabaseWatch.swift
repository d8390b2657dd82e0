import CGtk
import Foundation
import AppSupport
import GeoData
import PostGIS

/// A PostGIS table's opening filter and change watch in the window (issue 31 item 5): `--where`
/// (or the dialog's filter field) narrows every view query on the server (`PostGISWhere`: values
/// as parameters, names checked against the table), and `--refresh SECONDS` (or the dialog's
/// "watch for changes") watches the table on a connection of its own (NOTIFY from ClusterMap's
/// trigger at once, else the server's row counters) and asks the shown view again when it
/// changed — at most once per SECONDS.
extension MapViewController {
    /// The launch's `--where/--refresh` for the table the launch named; none for another.
    func launchTableOptions(for address: String) -> TableOpenOptions {
        guard address == MapViewController.databaseAddress(options) else { return TableOpenOptions() }
        var settings = FilterSettings()
        settings.conditions = options.filters.conditions
        settings.since = options.filters.since
        settings.until = options.filters.until
        settings.timeProperty = options.filters.timeProperty
        settings.total = options.filters.total
        return TableOpenOptions(settings: settings, refreshSeconds: options.refreshSeconds)
    }

    /// The view options for a table opened with `open`'s filter.
    /// - Throws: `PostGISError.badFilter` for a condition the grammar or the table refuses.
    func databaseViewOptions(_ open: TableOpenOptions, on table: PostGISTable) throws -> PostGISViewOptions {
        var viewOptions = MapViewController.databaseViewOptions()
        let made = try TableFilter.sqlFilter(open.settings, on: table)
        guard made.filter != nil else { return viewOptions }
        viewOptions.filter = made.filter
        eventLog.emit("db-filter", [("where", .string(made.expression))])
        return viewOptions
    }

    /// A table opened with `settings`: the chips and the panel show them, the server counts them.
    func tableFilterDidOpen(_ t: TableFilter, settings: FilterSettings) {
        _ = presentation.setFilter(settings)
        let expression = (try? TableFilter.sqlFilter(settings, on: t.table).expression) ?? settings.conditions.joined(separator: " and ")
        _ = t.setFilter(t.filter, expression: expression)
        countTable(t)
        chrome?.filterDidChange()
    }

    /// Starts watching the link's table every `seconds` (nil: not watched).
    func startDatabaseWatch(_ link: DatabaseLink, seconds: Double?) {
        guard let seconds else { return }
        let source = link.source, stop = link.watchStop
        eventLog.emit("db-watch", [("table", .string(source.table.displayName)), ("seconds", .number(seconds))])
        Thread.detachNewThread { [weak self] in
            var watcher: PostGISChangeWatcher?
            var changed = false
            var last = Date.distantPast
            while !stop.isStopped {
                do {
                    if watcher == nil { watcher = try PostGISChangeWatcher(source: source) }
                    // Short waits so a closed table stops its watch within a second.
                    if try watcher?.waitForChange(seconds: 1) == true { changed = true }
                } catch {
                    // The server went away: the view queue's reconnect says so; try again later.
                    watcher = nil
                    Thread.sleep(forTimeInterval: 1)
                }
                guard changed, Date().timeIntervalSince(last) >= seconds, !stop.isStopped else { continue }
                changed = false
                last = Date()
                runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                    guard let c = self, !c.isClosed, c.database === link else { return }
                    c.databaseTableDidChange(link)
                }
            }
        }
    }

    /// The table changed: the cached views are stale, the shown one is asked for again.
    private func databaseTableDidChange(_ link: DatabaseLink) {
        link.tableChanged()
        eventLog.emit("data-changed", [("table", .string(link.source.table.displayName))])
        databaseCameraDidChange()
        // The counts and the panel's catalogue follow the rows.
        if let t = tableFilter {
            t.rowsChanged()
            countTable(t)
            chrome?.filterDidChange()
            // The bar's range and counts too (at most once per watch interval, as this is called).
            if timeBar.rereadWanted() { rereadTableTimeBar(link) }
        }
    }
}

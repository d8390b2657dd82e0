import CGtk
import Foundation
import AppSupport
import GeoData
import PostGIS

/// A PostGIS table's launch filters and change watch in the window (issue 31 item 5): the
/// command line's `--where` narrows every view query on the server (`PostGISWhere`: values as
/// parameters, names checked against the table), and `--refresh SECONDS` watches the table on a
/// connection of its own (NOTIFY from ClusterMap's trigger at once, else the server's row
/// counters) and asks the shown view again when it changed — at most once per SECONDS.
extension MapViewController {
    /// The view options for a table: the launch's `--where` conditions apply to the table the
    /// launch named (a table opened later from the dialog shows unfiltered).
    /// - Throws: `PostGISError.badFilter` for a condition the grammar refuses.
    func databaseViewOptions(for address: String) throws -> PostGISViewOptions {
        var viewOptions = MapViewController.databaseViewOptions()
        guard address == MapViewController.databaseAddress(options), !options.filters.conditions.isEmpty else { return viewOptions }
        viewOptions.filter = PostGISWhere.all(try options.filters.conditions.map { try PostGISWhere(parsing: $0) })
        eventLog.emit("db-filter", [("where", .string(options.filters.conditions.joined(separator: " and ")))])
        return viewOptions
    }

    /// Starts watching the link's table when the launch asked for `--refresh` on it.
    func startDatabaseWatch(_ link: DatabaseLink, address: String) {
        guard address == MapViewController.databaseAddress(options), let seconds = options.refreshSeconds else { return }
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
    }
}

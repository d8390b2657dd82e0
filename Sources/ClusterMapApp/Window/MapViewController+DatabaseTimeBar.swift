import CGtk
import Foundation
import AppSupport
import GeoData
import PostGIS

/// The time bar on a PostGIS table (issue 31 with issue 29 item 4): the bar is the files' bar —
/// same bins, window or cumulative, play, speed, keys — over the table's date column, its
/// histogram counted by the server (`PostGISColumnCatalogReader.timeBar`, "about" from a sample
/// of a big table). Its shown range is the table filter's time window (`setFilter` → the view
/// queries' parameterised WHERE); playing asks the next window only once the last is on the map
/// (`DatabaseLink.shows`), so it moves at most as fast as the server answers, and a window seen
/// before comes from the view queue's cache. Its state is remembered per table address (without
/// the password) as a file's is.
extension MapViewController {
    /// A table is on the map: the bar follows it — asked by the launch's `--time COLUMN`, or as it
    /// was left on this table (the state file), or still wanted from the data shown before.
    func tableTimeBarDidOpen(launchTime: String?) {
        if let launchTime {
            timeBar.want(property: launchTime)
        } else if let source = filterMemory.shownSource, let saved = filterMemory.saved.timeBar(for: source) {
            timeBar.want(restoring: saved)
        }
        timeBar.dataChanged()
        if timeBar.wanted { buildTimeBar() } else { showTimeBar() }
    }

    /// Reads the bar of the table's date column (the one asked, else its first) off the GTK
    /// thread, on a connection of its own, and shows it.
    func buildTableTimeBar(_ t: TableFilter, _ link: DatabaseLink) {
        let generation = timeBar.generation
        let reader = PostGISColumnCatalogReader(source: link.source, statementTimeoutMilliseconds: MapViewController.databaseStatementTimeoutMs)
        let column = timeBar.property
        let name = t.table.displayName
        eventLog.emit("db-time-bar-asked", [("column", .string(column ?? ""))])
        Thread.detachNewThread { [weak self] in
            let started = DispatchTime.now().uptimeNanoseconds
            let outcome = Result { try reader.timeBar(column: column, bins: 120) }
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = self, !c.isClosed, generation == c.timeBar.generation, c.timeBar.wanted, c.database === link else { return }
                switch outcome {
                case .success(let data):
                    let bar = data.map { d in
                        TimeBar(window: TimeWindow(property: d.column, extent: d.extent, mode: .cumulative),
                                histogram: TimeHistogram(counts: d.counts, extent: d.extent))
                    }
                    c.timeBar.countsRead(sampledPercent: data?.sampledPercent)
                    var fields: [(String, JSONValue)] = [("source", .string("table")), ("ms", .number(ms.rounded())),
                                                         ("counts", .array((data?.counts ?? []).map { .int($0) }))]
                    if let p = data?.sampledPercent { fields.append(("sampled-percent", .number(p))) }
                    c.timeBarDidBuild(bar, noDates: "No column of \(name) holds dates, so there is no time bar.", fields: fields)
                case .failure(let error):
                    c.timeBar.noDates()
                    c.eventLog.emit("db-fault", [("kind", .string((error as? PostGISError)?.kind ?? "other")), ("message", .string("\(error)"))])
                    if case PostGISError.badFilter(let problem)? = error as? PostGISError {
                        c.showError("\(name): \(problem)")  // --time naming a column without dates
                    } else {
                        c.showError("\(name): the time bar's column could not be read: \(error)")
                    }
                }
            }
        }
    }

    /// The table's rows changed under the shown bar: its range and counts are read again (off the
    /// GTK thread) and the bar keeps the person's window, speed and playing (`TimeBar.keeping`);
    /// the filter is asked again only when the window had to move into the new range.
    func rereadTableTimeBar(_ link: DatabaseLink) {
        guard let column = timeBar.model?.window.property else { _ = timeBar.rereadEnded(); return }
        let generation = timeBar.generation
        let reader = PostGISColumnCatalogReader(source: link.source, statementTimeoutMilliseconds: MapViewController.databaseStatementTimeoutMs)
        Thread.detachNewThread { [weak self] in
            let started = DispatchTime.now().uptimeNanoseconds
            let outcome = Result { try reader.timeBar(column: column, bins: 120) }
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = self, !c.isClosed else { return }
                let again = c.timeBar.rereadEnded()
                guard generation == c.timeBar.generation, c.database === link, let old = c.timeBar.model else { return }
                guard case .success(let data?) = outcome else {
                    // A fault is the view queue's to say (it reconnects); the bar keeps what it had.
                    if case .failure(let error) = outcome {
                        c.eventLog.emit("db-fault", [("kind", .string((error as? PostGISError)?.kind ?? "other")), ("message", .string("\(error)"))])
                    }
                    return
                }
                let read = TimeBar(window: TimeWindow(property: data.column, extent: data.extent, mode: .cumulative),
                                   histogram: TimeHistogram(counts: data.counts, extent: data.extent))
                let bar = read.keeping(old, now: MapViewController.now())
                c.timeBar.show(bar)
                c.chrome?.timeBarSetTicking(bar.isPlaying)
                c.timeBar.countsRead(sampledPercent: data.sampledPercent)
                c.eventLog.emit("time-bar", c.timeBarFields(bar, reason: "reread") + [
                    ("source", .string("table")), ("ms", .number(ms.rounded())), ("counts", .array(data.counts.map { .int($0) }))])
                c.askTimeBarRange()  // only when the window had to move (else it holds the range asked)
                c.showTimeBar()
                if again, c.timeBar.rereadWanted() { c.rereadTableTimeBar(link) }
            }
        }
    }
}

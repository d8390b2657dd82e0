import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import PostGIS

/// The filter panel and chips on a PostGIS table (issue 31 item 5): the same panel as for files,
/// its catalogue read on the server, its conditions (and the launch `--where`) the view queries'
/// WHERE. A change drops the cached views and asks the shown one again; "N of M places" comes from
/// a count on the server under the filter; the `filter` event is logged as for files (with
/// `source: table`).
extension MapViewController {
    /// Where the filter panel reads its catalogue: the table's server, or the shown file's
    /// properties (`FilterEngine`); nil without data.
    func filterCatalogSource() -> FilterCatalogSource? {
        if let t = tableFilter {
            let reader = t.reader, target = FilterDelivery(self), token = t.catalogToken
            return FilterCatalogSource(id: ObjectIdentifier(token)) { types in
                do {
                    let read = try reader.catalog(bins: FilterCatalog.bins, types: types)
                    // Said before the panel shows it (the GTK thread runs these in order).
                    runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                        guard let c = target.controller, !c.isClosed, let t = c.tableFilter, t.catalogToken === token else { return }
                        t.catalogArrived(sampledPercent: read.sampledPercent)
                        if let p = read.sampledPercent { c.eventLog.emit("db-catalog-sampled", [("percent", .number(p))]) }
                    }
                    return TableFilter.filterCatalog(read, types: types)
                } catch {
                    runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                        guard let c = target.controller, !c.isClosed, let t = c.tableFilter, t.catalogToken === token else { return }
                        t.catalogIsStale()
                        c.eventLog.emit("db-fault", [("kind", .string((error as? PostGISError)?.kind ?? "other")),
                                                     ("message", .string("\(error)"))])
                        c.showError("\(t.table.displayName): the filter's columns could not be read: \(error)")
                    }
                    return FilterCatalog(properties: [], placeCount: 0)
                }
            }
        }
        guard let engine = presentation.filterEngine() else { return nil }
        return FilterCatalogSource(id: ObjectIdentifier(engine)) { engine.catalog(types: $0) }
    }

    /// "N of M places" while a filter applies: the server's count on a table, else the filter's own.
    var filterPlacesText: String? {
        if let t = tableFilter { return t.placesText }
        return presentation.filterPlacesText
    }

    /// The panel's model on a table says the server's count ("of about M" for an estimate).
    func adjustForTable(_ model: inout FilterPanelModel) {
        guard let t = tableFilter else { return }
        model.placesText = t.panelStatus(placesText: t.placesText)
    }

    /// The table's filter becomes `settings`' conditions. A condition the table can't answer (no
    /// such column, a text compared with a number column) is said and changes nothing.
    func setTableFilter(_ settings: FilterSettings, on t: TableFilter) {
        let made: (filter: PostGISWhere?, expression: String)
        do {
            made = try TableFilter.sqlFilter(settings, on: t.table)
        } catch {
            eventLog.emit("filter", [("error", .string("\(error)")), ("source", .string("table"))])
            showError("\(t.table.displayName): \(error)")
            chrome?.filterDidChange()
            return
        }
        // Recorded for the chips and the panel; nothing is worked out in process.
        // (A total asked before and refused is not said again with every filter change.)
        let askedTotal = presentation.filterSettings.total
        _ = presentation.setFilter(settings)
        if settings.total != askedTotal { setTableTotal(settings.total, on: t) }
        rememberTableSettings(settings)
        applyTableFilter(made.filter, expression: made.expression, on: t)
        timeBarFollowFilter(settings)
        chrome?.filterDidChange()
    }

    /// Points the view queries at `filter`, drops the cached views, asks the shown one again and
    /// counts on the server.
    func applyTableFilter(_ filter: PostGISWhere?, expression: String, on t: TableFilter) {
        _ = t.setFilter(filter, expression: expression)
        eventLog.emit("db-filter", [("where", .string(expression))])
        if let link = database {
            link.filterChanged()
            databaseCameraDidChange()
        }
        countTable(t)
    }

    /// The filter of a table just connected, its counts delivered to this window.
    func makeTableFilter(source: PostGISSource, options: PostGISViewOptions) -> TableFilter {
        let target = FilterDelivery(self), reader = TableReaderBox()
        let t = TableFilter(source: source, options: options, statementTimeoutMilliseconds: MapViewController.databaseStatementTimeoutMs) { outcome in
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = target.controller, !c.isClosed, let t = c.tableFilter, t.countReader === reader.reader else { return }
                c.tableCountDidArrive(outcome, on: t)
            }
        }
        reader.reader = t.countReader
        return t
    }

    /// Counts the rows passing the table's filter (and the table's, once) off the GTK thread; the
    /// newest filter's count wins (a count still running is cancelled).
    func countTable(_ t: TableFilter) { t.count() }

    private func tableCountDidArrive(_ outcome: TableFilter.CountOutcome, on t: TableFilter) {
        // A cancel meant for the count before may reach this one: counted again.
        if case .failure(PostGISError.cancelled) = outcome.answer, outcome.generation == t.generation { return t.count() }
        guard t.countArrived(outcome) else { return }
        switch outcome.answer {
        case .success:
            let total = t.total
            let passing = t.passing ?? 0
            var fields: [(String, JSONValue)] = [("expression", .string(t.expression)), ("passing", .int(passing)),
                                                 ("places", .int(total?.count ?? passing)),
                                                 ("ms", .number((outcome.milliseconds * 10).rounded() / 10)),
                                                 ("source", .string("table")), ("counted", .string("server"))]
            if total?.isEstimate == true { fields.append(("places-estimated", .bool(true))) }
            eventLog.emit("filter", fields)
        case .failure(let error):
            eventLog.emit("filter", [("expression", .string(t.expression)), ("error", .string("\(error)")), ("source", .string("table"))])
        }
        chrome?.filterDidChange()
    }
}

/// Which reader a window's counts come from (set once the filter is made).
nonisolated final class TableReaderBox: @unchecked Sendable {
    var reader: PostGISColumnCatalogReader?
}

/// Where the filter panel's catalogue comes from: its identity (a new one: read again) and how
/// to read it with the person's types (called off the GTK thread).
nonisolated struct FilterCatalogSource: Sendable {
    let id: ObjectIdentifier
    let read: @Sendable ([String: PropertyType]) -> FilterCatalog
}

import AppSupport
import Foundation
import GeoData

/// Launch options the window can't apply as asked are said in the banner (and on stderr and in the
/// event log, as `showError` does for a bad `--where`), naming the option and why; the rest loads.
extension MapViewController {
    /// `--by` with a table: its bubbles (server cells or fetched points) would mix the values.
    func warnUnreadTableOptions() {
        guard MapViewController.databaseAddress(options) != nil, let by = options.filters.groupProperty else { return }
        showError("--by '\(by)' is not read for a database table: its bubbles would mix the values of '\(by)'; "
                  + "the table opens without it (say --where '\(by) = VALUE' for one of them)")
    }

    /// `--time name` over the loaded file(s): read off the GTK thread (the places' property table),
    /// said when it is not a date property or not there.
    func checkLaunchTimeOption(_ name: String) {
        guard let session, !live.isReplay else { return }
        let options = self.options
        Thread.detachNewThread { [weak self] in
            let table = session.propertyTable(), types = options.filters.types
            // `--type PROPERTY=TYPE` wins over the inferred type, as in the filter.
            let dates = table.names.filter { (types[$0] ?? table.type(of: $0)) == .date }
            let problem = types[name] == .date ? nil : timeOptionProblem(name, table: table, fallback: dates.first)
            runOnGtkThread { [weak self] in
                guard let c = self, !c.isClosed, let problem else { return }
                c.showError(problem)
            }
        }
    }
}

/// Why `--time name` can't drive the time bar over `table` (no such property, or not dates), in one
/// line naming the option and what the bar reads instead (`fallback`, nil: no bar); nil when it can.
nonisolated func timeOptionProblem(_ name: String, table: PropertyTable, fallback: String?) -> String? {
    let instead = fallback.map { "; the time bar reads '\($0)'" } ?? "; no property holds dates, so there is no time bar"
    guard table.contains(name) else {
        let known = table.names.prefix(12).joined(separator: ", ") + (table.names.count > 12 ? ", …" : "")
        return "--time '\(name)': no property '\(name)' (there are: \(known))" + instead
    }
    guard let type = table.type(of: name), type != .date else { return nil }
    return "--time '\(name)': '\(name)' holds \(type.plural), not dates (say --type \(name)=date if it does)" + instead
}

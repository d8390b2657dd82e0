import CGtk
import Foundation
import AppSupport

/// Cards of a table's places beyond the first few thousand of a view (issue 31): a view reads the
/// columns of its first `DatabaseLink.placeCards` places with it (more would slow every view);
/// any other place's columns are read by its primary key when its card opens, off the GTK thread
/// on a connection of their own, and the open card fills in when they come.
extension MapViewController {
    /// The selected place of a table's view has no columns yet: reads them (or takes them from
    /// an earlier read). Called when a place is selected and when a view change kept it selected.
    func readRemoteCardIfNeeded() {
        guard let link = database, let session, let remote = session.remote, let index = sceneState.selectedPoint,
              !remote.hasColumns(place: index), !session.hasLaterColumns(ofPlace: index),
              index < remote.rowIDs.count, let row = remote.rowIDs[index] else { return }
        if let columns = link.cardColumns[row] {
            showRemoteCard(columns, row: row)
            return
        }
        guard link.startCardRead(row) else { return }
        eventLog.emit("db-card-request", [("row", .int(Int(row)))])
        let reader = link.rowReader
        // Its point: a row whose key is not an integer is found by the spatial index and the key's hash.
        let point = remote.items.first { if case .point(index) = $0.kind { return true } else { return false } }?.coordinate
        let started = MapViewController.now()
        Thread.detachNewThread { [weak self] in
            let outcome = Result { try reader.properties(ofRow: row, at: point) }
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = self, !c.isClosed, c.database === link else { return }
                let columns = try? outcome.get()
                link.cardRead(row, columns: columns)
                var fields: [(String, JSONValue)] = [("row", .int(Int(row))), ("found", .bool(columns != nil)),
                                                     ("ms", .number(((MapViewController.now() - started) * 10_000).rounded() / 10))]
                if case .failure(let error) = outcome { fields.append(("error", .string("\(error)"))) }
                c.eventLog.emit("db-card", fields)
                if let columns { c.showRemoteCard(columns, row: row) }
            }
        }
    }

    /// Gives the place of `row` in the shown view its columns; its open card is read again.
    private func showRemoteCard(_ columns: String, row: Int64) {
        guard let session, let index = session.remote?.placeIndex(ofRow: row),
              session.setRemoteColumns(columns, ofPlace: index) else { return }
        guard presentation.placeColumnsDidArrive(index) else { return }
        // The filled card is bigger than the one revealed at the click: shown whole again.
        if let size = sceneState.callout?.size { revealCallout(of: index, size: size) }
        sceneDidChange()
    }
}

import AppSupport
import MapModel

/// A remote source's next view (a PostGIS table's answer, a cluster tile file's tiles) on the
/// map: each view numbers its places afresh, so whatever names a place of the last one follows
/// its row (primary key, feature id) or lets go (`MapPresentation+Remote.swift`).
extension MapViewController {
    /// Shows a remote view: after another view of the same source as a change in place (a selected
    /// place keeps its card while its row is still in view; hover, focus, the In View rows and the
    /// places still fading follow their rows); a source's `first` view afresh (another source's
    /// row ids name other rows).
    func showRemoteView(_ session: MapDataSession, first: Bool) {
        guard !first, let old = self.session, old.remote != nil else {
            presentation.show(session)
            return
        }
        if sceneState.fan != nil { closeFan() }
        let newID: (Int) -> Int? = { old.remotePlaceIndex($0, in: session) }
        eventLog.emit(presentation.dataDidChange(to: session, renumbered: true, newID: newID))
        inView?.renumber(newID)
        readRemoteCardIfNeeded()
    }
}

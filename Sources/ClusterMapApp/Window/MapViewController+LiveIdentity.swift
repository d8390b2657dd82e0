import Foundation
import AppSupport

/// Who is who in a watched file or a feed (issue 34 item 3, issue 33 item 3): the identity keys
/// of the shown places are read as soon as the file is watched (or the feed's first document is
/// shown), while its bytes are surely the ones loaded (a big file is mapped, and its old bytes
/// can't be read once it changes). Places superseded by a later line of their id are removed then.
extension MapViewController {
    func captureLiveIdentity() {
        guard let session else { return }
        let idProperty = options.idProperty
        let generation = live.generation
        Thread.detachNewThread { [weak self] in
            let plan = session.captureIdentity(idProperty: idProperty)
            runOnGtkThread {
                guard let c = self, generation == c.live.generation else { return }
                c.eventLog.emit("identity", [("superseded", .int(plan?.change.removed ?? 0))])
                // A reload running or done meanwhile compares with these keys and removes them itself.
                if let plan, c.session === session, !c.live.isReloading { c.applyLiveUpdate(plan) }
            }
        }
    }
}

import CGtk
import Foundation
import AppSupport
import ClusterCore

/// Background compaction of the live index (SPEC §3.4, issue 33 item 2): once the data and the
/// camera have rested for about a second, the index is rebuilt on another thread and installed
/// on the GTK thread, after which the map equals a fresh build of the current points bit for
/// bit. The change of grouping is animated like any data change (split/merge).
extension MapViewController {
    /// How long data and camera rest before the index compacts.
    static let compactionRestSeconds = 1.0

    /// The data changed: compact once it (and the camera) have rested.
    func scheduleCompaction() {
        live.dataChanged(restFor: Self.compactionRestSeconds) { [weak self] in
            self?.compactIfResting()
        }
    }

    /// Whether the camera is still: no gesture, no animation, no fan open (a fan names a cluster
    /// a compaction may regroup).
    private var isResting: Bool { !isGestureActive && !cameraController.isAnimating && sceneState.fan == nil }

    private func compactIfResting() {
        guard let session, !isClosed else { return }
        if let built = live.builtCompaction {
            finishCompaction(built.job, index: built.index, buildMs: built.ms)
            return
        }
        guard !live.isCompacting else { return }
        guard isResting else { scheduleCompaction(); return }
        guard let job = session.clusterer.compaction() else { return }
        live.compactionStarted()
        let index = session.clusterer
        let started = ProcessClock.now()
        Thread.detachNewThread { [weak self] in
            job.build()
            let ms = (ProcessClock.now() - started) * 1000
            runOnGtkThread {
                guard let c = self, !c.isClosed else { return }
                c.live.compactionBuilt()
                c.finishCompaction(job, index: index, buildMs: ms)
            }
        }
    }

    /// Installs a built compaction if it still fits the shown index; waits while the camera moves.
    private func finishCompaction(_ job: LiveClusterIndex.Compaction, index: LiveClusterIndex, buildMs: Double) {
        live.releaseHeldCompaction()
        guard let session, session.clusterer === index else { return }
        guard isResting else {
            live.holdCompaction(job, index: index, ms: buildMs)
            scheduleCompaction()
            return
        }
        let started = ProcessClock.now()
        let installed = index.finish(job)
        let installMs = (ProcessClock.now() - started) * 1000
        // The replaced state is freed off the GTK thread (at 1M points it takes tens of ms).
        Thread.detachNewThread { job.releaseRetired() }
        eventLog.emit("compacted", [("installed", .bool(installed)), ("points", .int(index.count)),
                                    ("build_ms", .number((buildMs * 10).rounded() / 10)),
                                    ("install_ms", .number((installMs * 100).rounded() / 100))])
        guard installed else { scheduleCompaction(); return }  // changed meanwhile: next rest
        presentation.clustersDidRegroup()
        sceneDidChange()
    }
}

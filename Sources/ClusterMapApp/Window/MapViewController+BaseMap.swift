import CGtk
import Foundation
import AppSupport
import GeoData
import MapModel

/// Loading the finer base maps and the base-map labels off the GTK thread.
///
/// The 1:50m map (≈ 0.1 s of CPU) waits for the first clustered frame unless the camera needs it
/// sooner; the 1:10m map and the labels (≈ 1–2 s of CPU) wait for the first clustered frame, then
/// load on a background thread at low priority, so launch and the first frame never get slower on a
/// 2-core machine; until they arrive the map simply has fewer details and names.
extension MapViewController {
    /// Loads the 1:50m base map off the GTK thread and hands it back the GLib way.
    func loadDetailedBaseMapInBackground() {
        guard !detailedBaseMapRequested, let dir = dataDirectory.map({ URL(fileURLWithPath: $0) }) else { return }
        detailedBaseMapRequested = true
        Thread.detachNewThread {
            guard let detailed = try? BaseMap.load(level: .detailed, dataDirectory: dir) else { return }
            let bands = detailed.standardZoomBands()
            runOnGtkThread {
                guard let c = MapApplication.window?.controller else { return }
                c.renderer.baseMap.setBaseMap(detailed, bands: bands)
                c.redraw()
            }
        }
    }

    /// Starts loading the labels, then the 1:10m map (once).
    func loadFineBaseMapInBackground() {
        guard !fineBaseMapRequested, let dir = dataDirectory.map({ URL(fileURLWithPath: $0) }) else { return }
        fineBaseMapRequested = true
        let log = eventLog
        Thread.detachNewThread {
            // Low CPU priority for this thread only (on Linux `who = 0` is the calling thread).
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 15)
            let start = ProcessClock.now()
            do {
                // Seas, countries and big cities first (a world view's names, a third of the time),
                // then everything.
                let first = try BaseMapLabelSource.loadFirst(dataDirectory: dir)
                let firstIndex = first.index, firstMs = (ProcessClock.now() - start) * 1000
                runOnGtkThread {
                    guard let c = MapApplication.window?.controller else { return }
                    c.presentation.setLabelIndex(firstIndex)
                    log.emit("basemap-labels-first", [("count", .int(firstIndex.count)), ("ms", .number(firstMs.rounded()))])
                    c.labelIndexDidChange()
                }
                let labels = try BaseMapLabelSource.load(continuing: first, dataDirectory: dir)
                let ms = (ProcessClock.now() - start) * 1000
                runOnGtkThread {
                    guard let c = MapApplication.window?.controller else { return }
                    c.presentation.setLabelIndex(labels)
                    log.emit("basemap-labels", [("count", .int(labels.count)), ("ms", .number(ms.rounded()))])
                    c.labelIndexDidChange()
                }
            } catch {
                ErrorOutput.write("clustermap: base-map labels", "\(error)")
            }
            do {
                let fine = try BaseMap.load(level: .fine, dataDirectory: dir)
                let bands = fine.standardZoomBands()
                let ms = (ProcessClock.now() - start) * 1000
                runOnGtkThread {
                    guard let c = MapApplication.window?.controller else { return }
                    c.renderer.baseMap.setBaseMap(fine, bands: bands)
                    log.emit("basemap", [("level", .string(fine.level.rawValue)), ("ms", .number(ms.rounded()))])
                    c.redraw()
                }
            } catch {
                ErrorOutput.write("clustermap: base map 1:10m", "\(error)")
            }
        }
    }

    /// New base-map names: placed again and reported in the next `scene` event.
    private func labelIndexDidChange() {
        sceneDidChange()
        forceSceneEvent = true
        cameraDidChange()
    }
}

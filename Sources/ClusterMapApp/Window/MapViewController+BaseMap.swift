import CGtk
import Foundation
import AppSupport
import GeoData
import MapModel
import MapRender

/// Loading the finer base maps and the base-map labels off the GTK thread.
///
/// The 1:50m map (≈ 0.1 s of CPU) waits for the first clustered frame unless the camera needs it
/// sooner; the 1:10m map and the labels (≈ 1–2 s of CPU) wait for the first clustered frame, then
/// load on a background thread at low priority, so launch and the first frame never get slower on a
/// 2-core machine; until they arrive the map simply has fewer details and names.
extension MapViewController {
    /// The frame renderer over the 1:110m map (loaded here, at once: the first frame needs it).
    static func makeRenderer(options: LaunchOptions, dataDirectory: String?) -> MapFrameRenderer {
        var coarse: BaseMap?
        if let dir = dataDirectory.map({ URL(fileURLWithPath: $0) }) {
            do { coarse = try BaseMap.load(level: .coarse, dataDirectory: dir) } catch {
                ErrorOutput.write("clustermap: base map", "\(error)")
            }
        } else {
            ErrorOutput.write("clustermap", "cannot find the data folder (set CLUSTERMAP_DATA_DIR)")
        }
        let renderer = MapFrameRenderer(coarse: coarse, palette: options.dark ? .dark : .light)
        renderer.baseMap.drawProgressivelyAtRest()
        return renderer
    }

    /// Base-map tiles render off the GTK thread; each one finished asks for a frame when the frame
    /// on screen shows stand-ins it would sharpen (not after an exact direct paint). Label sprites
    /// made off the GTK thread while the map moves ask for a frame the same way.
    func startBaseMapWorkers() {
        let tileWorker = BaseMapTileWorker()
        tileWorker.notifyWhenTileReady { [weak self] in
            runOnGtkThread {
                guard let c = self, !c.isClosed, c.renderer.baseMap.improvesWithNewTiles else { return }
                c.redraw()
            }
        }
        renderer.baseMap.renderTiles(with: tileWorker)
        sceneRenderer.labelRenderer.notifyWhenSpriteReady { [weak self] in
            runOnGtkThread { if let c = self, !c.isClosed { c.redraw() } }
        }
    }

    /// Loads the 1:50m base map off the GTK thread and hands it back the GLib way.
    func loadDetailedBaseMapInBackground() {
        guard !detailedBaseMapRequested, let dir = dataDirectory.map({ URL(fileURLWithPath: $0) }) else { return }
        detailedBaseMapRequested = true
        Thread.detachNewThread { [weak self] in
            guard let detailed = try? BaseMap.load(level: .detailed, dataDirectory: dir) else { return }
            let bands = detailed.standardZoomBands()
            runOnGtkThread { [weak self] in
                guard let c = self, !c.isClosed else { return }
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
        Thread.detachNewThread { [weak self] in
            // Low CPU priority for this thread only (on Linux `who = 0` is the calling thread).
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 15)
            let start = ProcessClock.now()
            do {
                // Seas, countries and big cities first (a world view's names, a third of the time),
                // then everything.
                let first = try BaseMapLabelSource.loadFirst(dataDirectory: dir)
                let firstIndex = first.index, firstMs = (ProcessClock.now() - start) * 1000
                runOnGtkThread { [weak self] in
                    guard let c = self, !c.isClosed else { return }
                    c.presentation.setLabelIndex(firstIndex)
                    log.emit("basemap-labels-first", [("count", .int(firstIndex.count)), ("ms", .number(firstMs.rounded()))])
                    c.labelIndexDidChange()
                }
                let labels = try BaseMapLabelSource.load(continuing: first, dataDirectory: dir)
                let ms = (ProcessClock.now() - start) * 1000
                runOnGtkThread { [weak self] in
                    guard let c = self, !c.isClosed else { return }
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
                runOnGtkThread { [weak self] in
                    guard let c = self, !c.isClosed else { return }
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

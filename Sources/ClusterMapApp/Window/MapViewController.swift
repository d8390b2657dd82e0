import CGtk
import Foundation
import AppSupport
import ClusterCore
import MapModel

/// What the map shows and how it moves: the camera, redraws, the event log, rest detection.
///
/// Gesture files call into it with camera changes; the draw callback asks it to paint.
final class MapViewController {
    let drawingArea: UnsafeMutablePointer<GtkWidget>
    let options: LaunchOptions
    let eventLog: EventLog
    private(set) var camera: Camera
    /// Last pointer position over the map (scroll events carry none in GTK 4.8; ARCHITECTURE §4).
    var pointer = ScreenPoint(x: 0, y: 0)
    /// True while a drag gesture is in progress (the camera is not at rest).
    var isDragging = false

    private var hasDrawnFirstFrame = false
    private var lastCameraChange = 0.0
    private var restCheckPending = false
    private var lastRestCamera: Camera?

    /// How long the camera must be still before it counts as "at rest" (camera/scene events).
    static let restDelaySeconds = 0.15

    init(drawingArea: UnsafeMutablePointer<GtkWidget>, options: LaunchOptions) {
        self.drawingArea = drawingArea
        self.options = options
        self.eventLog = EventLog(path: options.eventLogPath)
        let size = ScreenSize(width: Double(options.width), height: Double(options.height))
        camera = Camera(center: options.center ?? GeoCoordinate(latitude: 20, longitude: 0),
                        zoom: options.zoom ?? MapViewController.zoomShowingWholeWorld(size), viewportSize: size)

        let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cr, w, h, _ in
            MapApplication.window?.controller.draw(cr!, width: Int(w), height: Int(h))
        }
        gtk_drawing_area_set_draw_func(gcast(drawingArea), draw, nil, nil)
        installGestures()
    }

    /// The zoom at which the whole world's width fits the viewport.
    static func zoomShowingWholeWorld(_ size: ScreenSize) -> Double {
        max(0, log2(size.width / 256))
    }

    // MARK: Drawing

    func draw(_ cr: OpaquePointer, width: Int, height: Int) {
        let start = ProcessClock.now()
        let size = ScreenSize(width: Double(width), height: Double(height))
        if size != camera.viewportSize { camera.viewportSize = size }
        MapPainter.paint(cr, camera: camera, controller: self)
        let drawMs = (ProcessClock.now() - start) * 1000
        if eventLog.isEnabled {
            eventLog.emit("frame", [("ms", .number(ProcessClock.millisecondsSinceStart().rounded())),
                                    ("draw_ms", .number((drawMs * 1000).rounded() / 1000)),
                                    ("lat", .number(camera.center.latitude)),
                                    ("lon", .number(camera.center.longitude)),
                                    ("zoom", .number(camera.zoom))])
        }
        if !hasDrawnFirstFrame {
            hasDrawnFirstFrame = true
            eventLog.emit("ready", [("ms", .number(ProcessClock.millisecondsSinceStart().rounded()))])
            cameraDidChange()
        }
    }

    func redraw() { gtk_widget_queue_draw(drawingArea) }

    // MARK: Camera changes

    /// Replaces the camera (from a gesture or an animation) and redraws.
    func setCamera(_ new: Camera) {
        var c = new
        c.viewportSize = camera.viewportSize
        guard c != camera else { return }
        camera = c
        cameraDidChange()
        redraw()
    }

    /// Zooms one step around the viewport centre (buttons, +/- keys).
    func zoomStep(_ direction: Double) {
        let centre = ScreenPoint(x: camera.viewportSize.width / 2, y: camera.viewportSize.height / 2)
        setCamera(camera.zoomed(by: direction, around: centre))
    }

    private func cameraDidChange() {
        lastCameraChange = ProcessClock.now()
        scheduleRestCheck()
    }

    private func scheduleRestCheck() {
        guard !restCheckPending else { return }
        restCheckPending = true
        let check: @convention(c) (gpointer?) -> gboolean = { _ in
            MapApplication.window?.controller.restCheck() ?? 0
        }
        g_timeout_add(UInt32(MapViewController.restDelaySeconds * 1000), check, nil)
    }

    /// Called from a GLib timeout: emits `camera` and `scene` once the camera has been still.
    private func restCheck() -> gboolean {
        restCheckPending = false
        let still = ProcessClock.now() - lastCameraChange >= MapViewController.restDelaySeconds * 0.9
        if !still || isDragging {
            scheduleRestCheck()
            return 0
        }
        if lastRestCamera != camera {
            lastRestCamera = camera
            eventLog.emit("camera", [("lat", .number(camera.center.latitude)),
                                     ("lon", .number(camera.center.longitude)),
                                     ("zoom", .number(camera.zoom))])
            eventLog.emit("scene", [("bubbles", .array([])), ("pins", .array([]))])
        }
        return 0
    }

    /// Called when a gesture ends so the rest check can fire.
    func gestureDidEnd() { cameraDidChange() }

    private func installGestures() {
        DragGesture.install(on: drawingArea)
        ScrollGesture.install(on: drawingArea)
        PointerMotion.install(on: drawingArea)
    }
}

import CGtk
import Foundation
import AppSupport
import TilesOnline
import ClusterCore
import GeoData
import MapModel
import MapRender

/// The GTK side of the map: turns signals into intents and presentations into pixels. It owns
/// how the map moves (the camera controller, the frame clock, rest detection) and the frame
/// renderer; what the map shows — data, selection, fan, names, the scene — is `presentation`'s
/// (AppSupport's `MapPresentation`), whose events it writes to the log. Gesture files hand it
/// `CameraChange`s; the draw callback paints. Callbacks find it in their user data (`UserData`).
final class MapViewController {
    let drawingArea: UnsafeMutablePointer<GtkWidget>
    let options: LaunchOptions
    let eventLog: EventLog
    let renderer: MapFrameRenderer
    var cameraController: CameraController
    var camera: Camera { cameraController.camera }
    /// Last pointer position over the map (scroll events carry none in GTK 4.8; ARCHITECTURE §4).
    var pointer = ScreenPoint(x: 0, y: 0)
    /// True while a drag or pinch is in progress (the camera is not at rest).
    private(set) var isGestureActive = false
    /// Set when the window closes: callbacks still on their way find nothing to do.
    private(set) var isClosed = false
    /// Whether the pointer is over the map (hover is refreshed there when the camera rests).
    var isPointerInside = false

    private var hasDrawnFirstFrame = false
    /// Rest detection (`MapViewController+Rest.swift`): when the camera last changed, whether a check is queued.
    var lastCameraChange = 0.0
    var restCheckPending = false
    /// Whether the last frame was drawn while the camera moved (see `restCheck`).
    private(set) var lastFrameWasMoving = false
    /// The camera of the last rest reported (`camera` event).
    var lastRestCamera: Camera?
    var tickCallbackID: UInt32 = 0
    /// What the map shows: data, selection, fan, transitions, names; composes the scene.
    let presentation: MapPresentation
    /// The data on the map (nil until the first load finishes).
    var session: MapDataSession? { presentation.session }
    /// Selection, hover, focus and fan state.
    var sceneState: SceneState { presentation.state }
    /// What the last frame drew, in view coordinates (for hit-testing and the scene event).
    var lastScene: Scene {
        get {
            if let shift = pendingSceneShift {
                pendingSceneShift = nil
                drawnScene = panLayer.layerScene.translated(by: shift.x, shift.y, keepingWithin: ScreenRect(
                    x: 0, y: 0, width: camera.viewportSize.width, height: camera.viewportSize.height),
                                                   margin: presentation.sceneBuilder.style.radii.max() ?? 30)
            }
            return drawnScene
        }
        set { drawnScene = newValue; pendingSceneShift = nil }
    }
    private var drawnScene = Scene()
    /// How far the pan layer's scene is moved on the last frame, which copied it (`lastScene`
    /// moves it when asked).
    var pendingSceneShift: ScreenPoint?
    /// Paints the scene (sprite-cached bubbles and pins, callout) as a frame overlay.
    let sceneRenderer: SceneRenderer
    /// The image frames are drawn into before GTK gets them.
    let offscreenFrame = OffscreenFrame()
    /// The scene overlay, copied instead of drawn while the camera pans at one zoom.
    /// `CLUSTERMAP_PAN_LAYER_MIN_MARKS` sets its threshold (marks per megapixel of view; tests use
    /// it where real data shows fewer marks than the layer needs to pay).
    lazy var panLayer: PanLayer = {
        let layer = PanLayer(sceneRenderer: sceneRenderer)
        if let v = ProcessInfo.processInfo.environment["CLUSTERMAP_PAN_LAYER_MIN_MARKS"].flatMap(Double.init) {
            layer.minimumMarksPerMegapixel = v
        }
        return layer
    }()
    /// Whether the rest layer's idle steps are queued (`scheduleRestLayer`).
    var restLayerPending = false
    /// Whether the 1:10m map and the labels have started loading (after the first clustered frame).
    var fineBaseMapRequested = false
    /// Whether the 1:50m map has started loading (after the launch data, or when the camera needs it).
    var detailedBaseMapRequested = false
    /// The street map from `--basemap`, if any (it loads its own tiles), and for an online source
    /// its fetcher (whose HTTP cache index is saved at exit).
    var tileLayer: TileMapLayer?
    var onlineTiles: XYZTileSource?
    /// The person's MapTiler API key (asked for once, remembered in the state file).
    private(set) var mapTilerKey: String?
    var loadGeneration = 0
    /// The window's header bar, banner and progress bar.
    private(set) weak var chrome: MapChrome?
    /// The list of a same-spot bubble's members (more than a fan can show), over the map.
    let placeList: PlaceListPanel
    /// The list of what is in view, beside the map (F9).
    let inView: InViewPanel?
    /// Where the focused item was last drawn (to find its successor after re-clustering).
    var focusPosition: ScreenPoint?
    /// Log the scene at the next rest even if the camera did not move.
    var forceSceneEvent = false
    var currentLoadCancel: CancelFlag?
    /// Whether the running load is a big one (its frames are paced: `FramePacer`).
    var currentLoadIsBig = false
    /// Frames during a big load come at every refresh the GTK thread makes (an interval under one
    /// 60 Hz refresh). Paced to every second refresh (0.020) their gaps were 33 ms with a tail
    /// (p95 35–36 ms, `scripts/bench-window.py` at 10M points), at every refresh 16–17 ms (p95
    /// 21–22) with no measurable cost to the load (3 interleaved pairs: 8.2–9.6 vs 8.5–9.7 s): the
    /// loader's lower priority already keeps it out of the frames' way.
    /// `CLUSTERMAP_FRAME_INTERVAL` (seconds) overrides it, to measure another pace.
    var framePacer = FramePacer(minimumInterval: ProcessInfo.processInfo.environment["CLUSTERMAP_FRAME_INTERVAL"].flatMap(Double.init) ?? 0.008)
    /// Works filters out off the GTK thread, newest request first (`MapViewController+Filter.swift`).
    lazy var filterWorker = MapViewController.makeFilterWorker(for: self)
    /// The open card's buttons as real GTK buttons over the drawn links (accessible, Tab-reachable).
    lazy var cardButtons = BubbleCardButtons(controller: self, overlay: gtk_widget_get_parent(drawingArea)!)
    /// The remembered filters and which data they are for.
    let filterMemory = FilterMemory()
    /// The time bar under the map (`MapViewController+TimeBar.swift`).
    let timeBar = TimeBarSession()
    /// The live source of the shown data (watched file, feed, replay).
    let live = LiveData()
    let dataDirectory = DataDirectory.locate()
    /// Main-menu overrides (nil until the person uses them).
    private(set) var userReducedMotion: Bool?
    private(set) var userDarkStyle: Bool?
    /// A PostGIS table on the map, if one is open (`MapViewController+Database.swift`), and its chip.
    var database: DatabaseLink?
    var databaseChip: DatabaseStatusChip?
    /// The table's filter (`MapViewController+TableFilter.swift`), while a table is shown.
    var tableFilter: TableFilter?
    /// A clustered tile file open as data, if one is (`MapViewController+ClusterTiles.swift`).
    var clusterTiles: ClusterTileLink?

    /// How long the camera must be still before it counts as "at rest" (camera/scene events).
    static let restDelaySeconds = 0.15

    init(drawingArea: UnsafeMutablePointer<GtkWidget>, options: LaunchOptions, eventLog: EventLog, launchLoad: CancelFlag?,
         placeList: PlaceListPanel, inView: InViewPanel?) {
        self.drawingArea = drawingArea
        self.placeList = placeList
        self.inView = inView
        self.options = options
        self.eventLog = eventLog
        let sceneRenderer = SceneRenderer()
        self.sceneRenderer = sceneRenderer
        presentation = MapPresentation(labelRenderer: sceneRenderer.labelRenderer)
        let size = ScreenSize(width: Double(options.width), height: Double(options.height))
        let start = Camera(center: options.center ?? GeoCoordinate(latitude: 20, longitude: 0),
                           zoom: options.zoom ?? MapViewController.zoomShowingWholeWorld(size), viewportSize: size)
        cameraController = CameraController(camera: start, motionPolicy: MotionPolicy(commandLineFlag: options.reduceMotion))

        renderer = MapViewController.makeRenderer(options: options, dataDirectory: dataDirectory)
        startBaseMapWorkers()

        let draw: @MainActor @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cr, w, h, data in
            UserData.controller(data)?.draw(cr!, width: Int(w), height: Int(h))
        }
        gtk_drawing_area_set_draw_func(gcast(drawingArea), draw, UserData.retain(self), UserData.release)
        followDesktopPreferences()
        renderer.setOverlays([panLayer])
        openTileBaseMap()
        // The launch data is already loading (started before GTK); it arrives as generation 1.
        loadGeneration = 1
        currentLoadCancel = launchLoad
        currentLoadIsBig = LoaderPriority.isBig(MapViewController.initialSources(options, dataDirectory: dataDirectory).files)
        if launchLoad == nil && !MapViewController.launchIsLive(options)
            && MapViewController.databaseAddress(options) == nil
            && !options.files.contains(where: ClusterTileLink.isTileFile) { showError("Cannot find the bundled data folder (set CLUSTERMAP_DATA_DIR).") }
    }

    /// The zoom at which the whole world's width fits the viewport.
    static func zoomShowingWholeWorld(_ size: ScreenSize) -> Double {
        max(0, log2(size.width / 256))
    }

    // MARK: Drawing

    func draw(_ cr: OpaquePointer, width: Int, height: Int) {
        let start = ProcessClock.now()
        collectLoadedTiles()
        // The refresh this frame belongs to (not when drawing began): the pacer's next frame
        // then lands on the second refresh after it even when this draw started late.
        framePacer.frameDrawn(at: gtk_widget_get_frame_clock(drawingArea).map { Double(gdk_frame_clock_get_frame_time($0)) / 1e6 }
                                  ?? MapViewController.now())
        let size = ScreenSize(width: Double(width), height: Double(height))
        if size != camera.viewportSize {
            cameraController.setViewportSize(size)
            // After this frame: the chrome may resize widgets, which GTK defers while drawing.
            runOnGtkThread { [weak self] in self?.chrome?.mapSizeDidChange(size) }
            viewportDidChange()
        }
        let moving = isGestureActive || cameraController.isAnimating
        // A frame begun in the middle of a bubble transition is not the scene at rest either (the
        // rest check could otherwise report one whose merging bubbles have not yet disappeared).
        let inTransition = presentation.transitions.isAnimating(at: MapViewController.now())
        // Into an image of our own, handed to GTK in one copy (see `OffscreenFrame`). While moving,
        // the base map may come from scaled cached tiles (fast, slightly soft); the frame at rest
        // is exact.
        offscreenFrame.draw(into: cr, width: width, height: height,
                            scale: Double(gtk_widget_get_scale_factor(drawingArea))) { image in
            prepareScene(image, moving: moving)
            renderer.draw(in: image, camera: camera, isAnimating: moving)
        }
        lastFrameWasMoving = moving || inTransition
        // Settled (the rest check has run for this camera) and drawn again at rest (a selection,
        // new data): the layer a pan starts from is drawn anew in idle time.
        if !moving && lastRestCamera == camera { scheduleRestLayer() }
        // A new zoom at rest is drawn from scaled tiles while the exact ones render a few per frame.
        if renderer.baseMap.hasPendingTiles { runOnGtkThread { [weak self] in self?.redraw() } }
        requestMissingTiles()
        let drawMs = (ProcessClock.now() - start) * 1000
        if eventLog.isEnabled {
            eventLog.emit("frame", [("ms", .number(ProcessClock.millisecondsSinceStart().rounded())),
                                    ("draw_ms", .number((drawMs * 1000).rounded() / 1000)),
                                    ("lat", .number(camera.center.latitude)),
                                    ("lon", .number(camera.center.longitude)),
                                    ("zoom", .number(camera.zoom)),
                                    // Names in the scene, and how many of them wait for their sprites.
                                    ("labels", .int(lastScene.labels.count + lastScene.placeNames.count)),
                                    ("deferred", .int(sceneRenderer.labelRenderer.deferredCount)),
                                    // Whether names were left out until their texts are measured.
                                    ("unmeasured", .bool(presentation.labelLayout.isIncomplete)),
                                    ("moving", .bool(moving)),
                                    // Whether the scene was copied from the pan layer (else drawn).
                                    ("layer_copy", .bool(panLayer.mode != .direct))])
        }
        // The finer maps load once the launch data is on screen (or none is loading), so they
        // don't take a core from the load; the 1:50m map at once if the camera already needs it.
        let launchLoadDone = session != nil || currentLoadCancel == nil
        if !detailedBaseMapRequested && (launchLoadDone || camera.zoom >= renderer.baseMap.detailedMinZoom - 0.5) {
            loadDetailedBaseMapInBackground()
        }
        if !fineBaseMapRequested && launchLoadDone { loadFineBaseMapInBackground() }
        if !hasDrawnFirstFrame {
            hasDrawnFirstFrame = true
            eventLog.emit("ready", [("ms", .number(ProcessClock.millisecondsSinceStart().rounded()))])
            cameraDidChange()
        }
    }

    /// Asks GTK for a frame; while a big file loads, through `framePacer`.
    func redraw() {
        guard currentLoadIsBig && currentLoadCancel != nil else { gtk_widget_queue_draw(drawingArea); return }
        switch framePacer.request(at: MapViewController.now()) {
        case .now:
            gtk_widget_queue_draw(drawingArea)
        case .after(let seconds):
            runAfter(seconds) { [weak self] in
                guard let self, !self.isClosed else { return }
                self.framePacer.timerFired()
                gtk_widget_queue_draw(self.drawingArea)
            }
        case .alreadyPending:
            break
        }
    }

    // MARK: Camera changes

    /// Seconds on the monotonic clock GTK's frame clock uses.
    static func now() -> Double { Double(g_get_monotonic_time()) / 1e6 }

    /// Sets the main menu's overrides (`.some(nil)` clears one; `nil` leaves it as it is).
    func setToggles(dark: Bool?? = nil, reducedMotion: Bool?? = nil) {
        if let dark { userDarkStyle = dark }
        if let reducedMotion { userReducedMotion = reducedMotion }
    }

    /// The person's MapTiler API key (remembered in the state file; nil: none).
    func remember(mapTilerKey key: String?) { mapTilerKey = key }

    /// The window is closing: callbacks still on their way do nothing from now on.
    func markClosed() { isClosed = true }

    /// The window's chrome, once it exists (it is made after the controller, which it drives).
    func attach(chrome: MapChrome) {
        self.chrome = chrome
        chrome.mapSizeDidChange(camera.viewportSize)  // a window opened narrow starts with its legend collapsed
    }

    /// A drag or pinch started: the camera is not at rest until it stops.
    func gestureDidBegin() { isGestureActive = true }

    /// The drag or pinch stopped (its last change may still be applied).
    func gestureDidStop() { isGestureActive = false }

    /// Called when a gesture ends so the rest check can fire.
    func gestureDidEnd() {
        cameraDidChange()
        redraw()
    }
}

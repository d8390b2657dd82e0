import CGtk
import AppSupport
import Foundation

/// The time bar under the map (SPEC §10): Slower, Play/Pause and Faster buttons, the shown range
/// and speed in words, and the histogram of places over time with the shown part highlighted and
/// the playhead — a slider for the keyboard (Left/Right step, Home/End, Space plays, `[` `]`
/// speed) and screen readers (its value is the shown range). Thin: it draws a `TimeBar` and
/// reports what the person asks for; the controller changes the model.
///
/// The earthquake replay (`live-earthquakes`) is this bar over the quakes' dates, with its
/// words ("Replaying 1987-03-05 · 120 days/s") in the label.
final class TimeBarView {
    /// What the person asked for.
    enum Request {
        case playPause, slower, faster, start, end
        /// Cumulative ↔ a window (the mode button, W).
        case mode
        case step(Int)
        /// A click or drag on the histogram: the share 0…1 along it.
        case seek(Double)
        /// The clock of a playing bar: the frame's time in seconds.
        case tick(Double)
    }

    let bar: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let pauseButton: UnsafeMutablePointer<GtkWidget>
    private let slower: UnsafeMutablePointer<GtkWidget>
    private let faster: UnsafeMutablePointer<GtkWidget>
    private let modeButton: UnsafeMutablePointer<GtkWidget>
    /// The histogram: a focusable slider.
    let area: UnsafeMutablePointer<GtkWidget>
    private let eventLog: EventLog
    /// What is drawn (nil: hidden).
    private(set) var model: TimeBar?
    /// Called for every request (the controller's handler).
    private(set) var onRequest: ((Request) -> Void)?
    private var tickID: guint = 0
    /// What the label last said apart from the moving date, logged when it changes.
    private var lastState = ""
    private var buttonsReported = false

    init(overlay: UnsafeMutablePointer<GtkWidget>, eventLog: EventLog) {
        self.eventLog = eventLog
        bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
        gtk_widget_add_css_class(bar, "cm-replay")
        gtk_widget_set_halign(bar, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(bar, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(bar, 36)
        slower = TimeBarView.button("media-seek-backward-symbolic", tooltip: "Slower ([)", action: "win.replay-slower")
        pauseButton = TimeBarView.button("media-playback-pause-symbolic", tooltip: "Pause", action: "win.replay-pause")
        faster = TimeBarView.button("media-seek-forward-symbolic", tooltip: "Faster (])", action: "win.replay-faster")
        area = AccessibleRole.newWidget(gtk_drawing_area_get_type(), role: GTK_ACCESSIBLE_ROLE_SLIDER)
        gtk_widget_set_size_request(area, 240, 28)
        gtk_widget_set_valign(area, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(area, 6)
        gtk_widget_set_focusable(area, 1)
        gtk_widget_set_can_focus(area, 1)
        gtk_widget_set_tooltip_text(area, "Time: ← → step, Home/End, Space plays, [ ] speed")
        AccessibleText.setLabel(of: area, to: "Time")
        modeButton = gtk_button_new_with_label("All")!
        gtk_widget_add_css_class(modeButton, "flat")
        gtk_widget_set_focusable(modeButton, 0)
        gtk_widget_set_tooltip_text(modeButton, "Show everything up to the playhead, or only a window before it (W)")
        label = plainLabel("")
        gtk_widget_set_margin_start(label, 8)
        gtk_widget_set_margin_end(label, 8)
        // Digits keep their width as the date runs (the bar doesn't wobble).
        gtk_widget_add_css_class(label, "numeric")
        // Room for the longest words ("Window 2011-04-13 – 2011-04-20 · 120 days/s"): the bar
        // keeps its width as they change.
        gtk_label_set_width_chars(opaque(label), 44)
        for w in [slower, pauseButton, faster, area, modeButton, label] { gtk_box_append(gcast(bar), w) }
        gtk_drawing_area_set_draw_func(gcast(area), TimeBarView.draw, UserData.retain(self), UserData.release)
        installInput()
        gtk_widget_set_visible(bar, 0)
        gtk_overlay_add_overlay(opaque(overlay), bar)
    }

    private static func button(_ icon: String, tooltip: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
        let b = gtk_button_new_from_icon_name(icon)!
        gtk_widget_add_css_class(b, "flat")
        gtk_widget_add_css_class(b, "circular")
        gtk_widget_set_tooltip_text(b, tooltip)
        gtk_widget_set_focusable(b, 0)   // the map and the slider keep the keys
        gtk_actionable_set_action_name(opaque(b), action)
        AccessibleText.setLabel(of: b, to: tooltip)
        return b
    }

    // MARK: - Showing

    /// Shows `model` with `text` in the label (nil model: hidden); `playing` sets the middle
    /// button; `finished` hides the buttons (a replay that has run out). A replay (`isReplay`)
    /// logs its words as `replay-chip` and has no mode button (it only adds places).
    func update(_ model: TimeBar?, text: String, playing: Bool, finished: Bool = false, isReplay: Bool = false) {
        self.model = model
        guard let model else {
            gtk_widget_set_visible(bar, 0)
            setTicking(false)
            lastState = ""
            return
        }
        gtk_label_set_text(opaque(label), text)
        let state = "\(model.speed) \(playing) \(finished) \(model.window.mode)"
        if state != lastState {
            lastState = state
            eventLog.emit(isReplay ? "replay-chip" : "time-bar-text", [("text", .string(text))])
        }
        gtk_widget_set_visible(modeButton, isReplay ? 0 : 1)
        if case .window(let seconds) = model.window.mode {
            gtk_button_set_label(gcast(modeButton), seconds >= 86400 ? "\(Int((seconds / 86400).rounded())) days" : "\(Int((seconds / 3600).rounded())) h")
        } else {
            gtk_button_set_label(gcast(modeButton), "All")
        }
        let paused = !playing
        gtk_button_set_icon_name(gcast(pauseButton), paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic")
        let playWord = paused ? (finished ? "Play" : "Resume") : "Pause"
        gtk_widget_set_tooltip_text(pauseButton, playWord + " (Space)")
        AccessibleText.setLabel(of: pauseButton, to: playWord)
        for b in [slower, pauseButton, faster] { gtk_widget_set_visible(b, finished ? 0 : 1) }
        AccessibleText.setDescription(of: area, to: "\(model.rangeText), \(model.speedText)\(paused ? ", paused" : "")")
        setSliderValue(percent: model.histogram.fraction(of: model.window.playhead) * 100, text: model.rangeText)
        gtk_widget_queue_draw(area)
        if gtk_widget_get_visible(bar) == 0 {
            gtk_widget_set_visible(bar, 1)
            if !buttonsReported {
                buttonsReported = true
                for (name, w) in [("replay-slower", slower), ("replay-pause", pauseButton), ("replay-faster", faster), ("time-bar", area)] {
                    reportPosition(of: w, name: name, eventLog: eventLog)
                }
            }
        }
    }

    /// The slider's value for screen readers: the playhead as a percentage of the data's time,
    /// and the shown range in words. (GTK 4.8 doesn't expose these for a drawing area over
    /// AT-SPI; the description, set with them, says the same.)
    private func setSliderValue(percent: Double, text: String) {
        var props = [GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW,
                     GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT]
        var values = [GValue](repeating: GValue(), count: 4)
        for (k, v) in [0.0, 100.0, (percent * 10).rounded() / 10].enumerated() {
            g_value_init(&values[k], GType(15 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_DOUBLE
            g_value_set_double(&values[k], v)
        }
        g_value_init(&values[3], GType(16 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_STRING
        g_value_set_string(&values[3], text)
        values.withUnsafeMutableBufferPointer { v in
            gtk_accessible_update_property_value(OpaquePointer(area), 4, &props, v.baseAddress)
        }
        for k in values.indices { g_value_unset(&values[k]) }
    }

    /// Sets who gets the bar's requests (the controller's handler).
    func setRequestHandler(_ handler: @escaping (Request) -> Void) {
        onRequest = handler
    }

    /// Runs the frame clock while the bar plays by itself (a replay has its own timer).
    func setTicking(_ on: Bool) {
        if on, tickID == 0 {
            tickID = gtk_widget_add_tick_callback(area, { _, clock, data -> gboolean in
                guard let view = UserData.object(data, as: TimeBarView.self), let clock else { return 0 }
                view.onRequest?(.tick(Double(gdk_frame_clock_get_frame_time(clock)) / 1_000_000))
                return view.tickID == 0 ? 0 : 1
            }, UserData.retain(self), UserData.release)
        } else if !on, tickID != 0 {
            gtk_widget_remove_tick_callback(area, tickID)
            tickID = 0
        }
    }

    // MARK: - Input

    private func installInput() {
        let keys = gtk_event_controller_key_new()!
        let pressed: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, _, data in
            guard let view = UserData.object(data, as: TimeBarView.self), let request = TimeBarView.request(forKey: keyval) else { return 0 }
            view.onRequest?(request)
            return 1
        }
        connectSignal(keys, "key-pressed", unsafeBitCast(pressed, to: GCallback.self), owner: self)
        addController(keys, to: area)

        let drag = gtk_gesture_drag_new()!
        typealias Point = @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void
        let begin: Point = { gesture, x, _, data in
            guard let view = UserData.object(data, as: TimeBarView.self) else { return }
            gtk_widget_grab_focus(view.area)
            view.seek(x)
            _ = gesture
        }
        let update: Point = { gesture, dx, _, data in
            guard let view = UserData.object(data, as: TimeBarView.self), let gesture else { return }
            var x = 0.0, y = 0.0
            gtk_gesture_drag_get_start_point(gesture, &x, &y)
            view.seek(x + dx)
        }
        let clicked: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            UserData.object(data, as: TimeBarView.self)?.onRequest?(.mode)
        }
        connectSignal(modeButton, "clicked", unsafeBitCast(clicked, to: GCallback.self), owner: self)
        connectSignal(drag, "drag-begin", unsafeBitCast(begin, to: GCallback.self), owner: self)
        connectSignal(drag, "drag-update", unsafeBitCast(update, to: GCallback.self), owner: self)
        addController(drag, to: area)
    }

    private func seek(_ x: Double) {
        let w = Double(gtk_widget_get_width(area))
        guard w > 0 else { return }
        onRequest?(.seek(min(1, max(0, x / w))))
    }

    /// The slider's keys (also the map's `,` `.` steps and `[` `]` speeds).
    static func request(forKey keyval: guint) -> Request? {
        switch Int32(keyval) {
        case GDK_KEY_Left, GDK_KEY_comma, GDK_KEY_KP_Left: return .step(-1)
        case GDK_KEY_Right, GDK_KEY_period, GDK_KEY_KP_Right: return .step(1)
        case GDK_KEY_Page_Down: return .step(-10)
        case GDK_KEY_Page_Up: return .step(10)
        case GDK_KEY_Home: return .start
        case GDK_KEY_End: return .end
        case GDK_KEY_space, GDK_KEY_Return, GDK_KEY_KP_Enter: return .playPause
        case GDK_KEY_bracketleft: return .slower
        case GDK_KEY_bracketright: return .faster
        case GDK_KEY_p, GDK_KEY_P: return .playPause
        case GDK_KEY_w, GDK_KEY_W: return .mode
        default: return nil
        }
    }

    /// The bar's keys that also work on the map (whose arrows, Home and Space do other things).
    static func mapRequest(forKey keyval: guint) -> Request? {
        switch Int32(keyval) {
        case GDK_KEY_comma, GDK_KEY_period, GDK_KEY_bracketleft, GDK_KEY_bracketright, GDK_KEY_p, GDK_KEY_P, GDK_KEY_w, GDK_KEY_W:
            return request(forKey: keyval)
        default: return nil
        }
    }

    /// "Replaying 1987-03-05 · 120 days/s" (or paused / finished): the replay's words.
    static func replayText(date: String, daysPerSecond: Double, paused: Bool, finished: Bool) -> String {
        if finished { return "Replayed to \(date)" }
        let speed = daysPerSecond >= 10 ? "\(Int(daysPerSecond.rounded()))" : String(format: "%.1f", daysPerSecond)
        return "\(paused ? "Paused at" : "Replaying") \(date) · \(speed) days/s"
    }

    // MARK: - Drawing

    /// Histogram bars in the text colour, the shown part in the accent colour, the playhead.
    private static let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { a, cr, width, height, data in
        guard let a, let cr, let view = UserData.object(data, as: TimeBarView.self), let model = view.model else { return }
        var fg = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(asWidget(a)), &fg)
        let w = Double(width), h = Double(height)
        let h0 = model.histogram
        let heights = h0.heights()
        let shown = model.shown
        let lo = h0.fraction(of: shown.lowerBound) * w, hi = h0.fraction(of: shown.upperBound) * w
        // The shown range's background.
        cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 0.18)
        cairo_rectangle(cr, lo, 0, max(1, hi - lo), h)
        cairo_fill(cr)
        let barWidth = w / Double(heights.count)
        for (i, v) in heights.enumerated() where v > 0 {
            let x = Double(i) * barWidth, mid = x + barWidth / 2
            if mid >= lo && mid <= hi {
                cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 1)
            } else {
                cairo_set_source_rgba(cr, Double(fg.red), Double(fg.green), Double(fg.blue), 0.35)
            }
            let bh = max(1, v * (h - 4))
            cairo_rectangle(cr, x + 0.5, h - 2 - bh, max(1, barWidth - 1), bh)
            cairo_fill(cr)
        }
        // The playhead.
        cairo_set_source_rgba(cr, Double(fg.red), Double(fg.green), Double(fg.blue), 0.9)
        cairo_rectangle(cr, min(w - 2, max(0, hi - 1)), 0, 2, h)
        cairo_fill(cr)
    }
}

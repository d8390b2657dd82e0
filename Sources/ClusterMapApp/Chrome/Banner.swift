import CGtk
import AppSupport
import GeoData
import MapModel

/// A message banner over the top of the map (SPEC §4, §9): an icon, a wrapping plain-text label
/// and a close button in a revealer. Errors stay until closed; information hides after a while.
/// Every message shown is logged as `{"event":"message","text":…,"error":bool}`.
final class Banner {
    let revealer: UnsafeMutablePointer<GtkWidget>
    private let box: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let eventLog: EventLog
    /// What is shown: the error (if any) stays on top of later information.
    private var errorText: String?
    private var infoText: String?
    private var hideGeneration = 0
    /// The button of a message that offers something ("Show It"), hidden otherwise.
    private let actionButton: UnsafeMutablePointer<GtkWidget>
    private var action: (() -> Void)?
    /// The open callout card's frame on the map (nil: none); the banner avoids covering it.
    private(set) var calloutFrame: (() -> ScreenRect?)?

    /// Information messages hide after this long (errors never do).
    static let infoSeconds: UInt32 = 12

    init(overlay: UnsafeMutablePointer<GtkWidget>, eventLog: EventLog) {
        self.eventLog = eventLog
        revealer = gtk_revealer_new()!
        gtk_revealer_set_transition_type(opaque(revealer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        gtk_widget_set_halign(revealer, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(revealer, GTK_ALIGN_START)
        gtk_widget_set_can_target(revealer, 1)

        box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "cm-banner")
        gtk_widget_set_margin_top(box, 12)
        gtk_widget_set_margin_start(box, 12)
        gtk_widget_set_margin_end(box, 12)
        gtk_widget_set_size_request(box, 360, -1)

        icon = gtk_image_new_from_icon_name("dialog-information-symbolic")!
        gtk_widget_set_valign(icon, GTK_ALIGN_START)
        gtk_widget_add_css_class(icon, "cm-banner-icon")
        label = plainLabel("")
        gtk_label_set_wrap(opaque(label), 1)
        gtk_label_set_wrap_mode(opaque(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(opaque(label), 72)
        gtk_label_set_selectable(opaque(label), 1)
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        gtk_widget_set_focusable(label, 0)

        actionButton = gtk_button_new_with_label("")!
        gtk_widget_set_valign(actionButton, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(actionButton, 0)
        let acted: @convention(c) (UnsafeMutablePointer<GtkButton>?, gpointer?) -> Void = { _, data in
            guard let b = UserData.object(data, as: Banner.self) else { return }
            let run = b.action
            b.dismiss()
            run?()
        }
        connectSignal(actionButton, "clicked", unsafeBitCast(acted, to: GCallback.self), owner: self)

        let close = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(close, "flat")
        gtk_widget_add_css_class(close, "circular")
        gtk_widget_set_valign(close, GTK_ALIGN_START)
        gtk_widget_set_tooltip_text(close, "Dismiss")
        let clicked: @MainActor @convention(c) (UnsafeMutablePointer<GtkButton>?, gpointer?) -> Void = { _, data in
            UserData.object(data, as: Banner.self)?.dismiss()
        }
        connectSignal(close, "clicked", unsafeBitCast(clicked, to: GCallback.self), owner: self)

        gtk_box_append(gcast(box), icon)
        gtk_box_append(gcast(box), label)
        gtk_box_append(gcast(box), actionButton)
        gtk_box_append(gcast(box), close)
        gtk_revealer_set_child(opaque(revealer), box)
        gtk_revealer_set_reveal_child(opaque(revealer), 0)
        gtk_overlay_add_overlay(opaque(overlay), revealer)
        // Tests wait for this instead of sleeping through the slide-down.
        let revealed: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?, gpointer?) -> Void = { _, _, data in
            guard let b = UserData.object(data, as: Banner.self), gtk_revealer_get_child_revealed(opaque(b.revealer)) != 0 else { return }
            b.eventLog.emit("widget", [("name", .string("banner"))])
        }
        connectSignal(revealer, "notify::child-revealed", unsafeBitCast(revealed, to: GCallback.self), owner: self)
    }

    var isShown: Bool { gtk_revealer_get_reveal_child(opaque(revealer)) != 0 }

    /// Shows a message (plain text). An error replaces an earlier error; information is added
    /// below a visible error, or replaces earlier information.
    func show(_ text: String, isError: Bool, action: (title: String, run: () -> Void)? = nil) {
        // Bounded, one safe line per message: a long word made Pango's wrapping spin for
        // minutes, and a 1 MB text showed an empty banner (issue 15 item 1).
        let message = MessageText.lines(text)
        eventLog.emit("message", [("text", .string(message)), ("error", .bool(isError))])
        if isError {
            errorText = message
            infoText = nil
        } else {
            infoText = message
        }
        self.action = action?.run
        gtk_button_set_label(gcast(actionButton), action?.title ?? "")
        gtk_widget_set_visible(actionButton, action == nil ? 0 : 1)
        refresh()
        place()
        if action != nil { reportPosition(of: actionButton, name: "banner-action", eventLog: eventLog) }
        // Above every other overlay (the legend card was added after it and covered it).
        if let parent = gtk_widget_get_parent(revealer) { gtk_widget_insert_before(revealer, parent, nil) }
        hideGeneration += 1
        if errorText == nil {
            let generation = hideGeneration
            runAfter(milliseconds: Banner.infoSeconds * 1000) { [weak self] in
                guard let b = self, b.hideGeneration == generation, b.errorText == nil else { return }
                b.dismiss()
            }
        }
    }

    /// The fault `error` is over: when it is the error shown, it goes and `note` (information,
    /// hiding after a while) takes its place, as a desktop app's "connected again"; another error
    /// shown since stays, with `note` below it.
    func errorIsOver(_ error: String, note: String) {
        if errorText == MessageText.lines(error) {
            errorText = nil
            eventLog.emit("message-error-over")
        }
        show(note, isError: false)
    }

    /// Where the open callout card is (nil: none), asked each time the banner is placed; it avoids covering it.
    func avoidCallout(at frame: @escaping () -> ScreenRect?) {
        calloutFrame = frame
    }

    /// A shown banner checks its place again (a callout card opened or closed under it since).
    func placeAgain() {
        if isShown { place() }
    }

    /// At the top centre, or at the bottom when the top would cover the open callout card.
    private func place() {
        guard let map = gtk_widget_get_parent(revealer) else { return }
        var minW: Int32 = 0, natW: Int32 = 0, minH: Int32 = 0, natH: Int32 = 0
        gtk_widget_measure(box, GTK_ORIENTATION_HORIZONTAL, -1, &minW, &natW, nil, nil)
        let width = min(Double(natW), Double(gtk_widget_get_width(map)))
        gtk_widget_measure(box, GTK_ORIENTATION_VERTICAL, Int32(width), &minH, &natH, nil, nil)
        let down = ChromeLayout.bannerMovesDown(callout: calloutFrame?(), bannerSize: ScreenSize(width: width, height: Double(natH)),
                                                mapWidth: Double(gtk_widget_get_width(map)))
        gtk_widget_set_valign(revealer, down ? GTK_ALIGN_END : GTK_ALIGN_START)
        gtk_revealer_set_transition_type(opaque(revealer), down ? GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP : GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        // Above the attribution strip and the scale bar when at the bottom.
        gtk_widget_set_margin_top(box, down ? 0 : 12)
        gtk_widget_set_margin_bottom(box, down ? 40 : 0)
        if down != isDown { eventLog.emit("banner-place", [("bottom", .bool(down))]) }
        isDown = down
    }

    private var isDown = false

    /// Hides the banner and forgets its messages.
    func dismiss() {
        guard isShown else { return }
        errorText = nil
        infoText = nil
        action = nil
        hideGeneration += 1
        gtk_revealer_set_reveal_child(opaque(revealer), 0)
        eventLog.emit("message-dismissed")
    }

    private func refresh() {
        let text = [errorText, infoText].compactMap { $0 }.joined(separator: "\n")
        gtk_label_set_text(opaque(label), text)
        if errorText != nil {
            gtk_image_set_from_icon_name(opaque(icon), "dialog-error-symbolic")
            gtk_widget_add_css_class(box, "error")
        } else {
            gtk_image_set_from_icon_name(opaque(icon), "dialog-information-symbolic")
            gtk_widget_remove_css_class(box, "error")
        }
        gtk_revealer_set_reveal_child(opaque(revealer), 1)
    }
}

import CGtk
import MapModel

/// The open card's buttons — a bubble's "Zoom In", "List Places" and ×, and a place's links the
/// same way — as real GTK buttons laid over the links the card draws (issue 29 item 5, SPEC
/// §5.7): a screen reader lists them by name, Tab from the map reaches a bubble card's, Enter or
/// Space presses them, Escape closes the card and gives the focus back to the map. They draw only a
/// focus ring: the card's own drawing stays what the eye sees (and what the tests' screenshots
/// compare), and a click on a link lands on its button and does what the map's click did.
final class BubbleCardButtons {
    private unowned let controller: MapViewController
    private let overlay: UnsafeMutablePointer<GtkWidget>
    /// One widget per button of the card shown, in the card's order.
    private var widgets: [UnsafeMutablePointer<GtkWidget>] = []
    /// What the widgets stand for (the card and its buttons, placed on the map).
    private var placed: Placement?
    private var targets: [Target] = []

    private struct Placement: Equatable {
        var owner: Owner
        var buttons: [CalloutButton]
        var origin: ScreenPoint
    }

    /// Whose buttons: a bubble's card or a place's callout.
    enum Owner: Equatable {
        case bubble(SceneItemID)
        case place(Int)
    }

    /// One button's click target (kept alive while its widget exists).
    final class Target {
        weak var buttons: BubbleCardButtons?
        let owner: Owner
        let action: CalloutAction
        init(_ buttons: BubbleCardButtons, owner: Owner, action: CalloutAction) {
            self.buttons = buttons; self.owner = owner; self.action = action
        }
    }

    init(controller: MapViewController, overlay: UnsafeMutablePointer<GtkWidget>) {
        self.controller = controller
        self.overlay = overlay
        Self.installStyle()
    }

    /// The name a screen reader says for a button.
    static func accessibleName(_ button: CalloutButton, owner: Owner) -> String {
        switch button.action {
        case .close: if case .bubble = owner { return "Close the bubble's card" } else { return "Close the place's card" }
        default: return button.title
        }
    }

    /// Follows the card drawn in `scene` (none: the buttons go). Called after a frame is drawn,
    /// never while it is: widgets change only outside the snapshot.
    func sync(with callout: SceneCallout?) {
        let wanted = callout.map { c in
            // The links first, then ×: Tab reaches what the card offers before closing it.
            Placement(owner: c.bubble.map(Owner.bubble) ?? .place(c.pointIndex),
                      buttons: c.buttons.filter { $0.action != .close } + c.buttons.filter { $0.action == .close },
                      origin: ScreenPoint(x: c.frame.x, y: c.frame.y))
        }
        guard wanted != placed else { return }
        if wanted?.owner != placed?.owner || wanted?.buttons.map(\.action) != placed?.buttons.map(\.action) {
            rebuild(for: wanted)
        }
        placed = wanted
        guard let wanted else { return }
        for (w, b) in zip(widgets, wanted.buttons) {
            gtk_widget_set_margin_start(w, Int32(max(0, (wanted.origin.x + b.frame.x).rounded())))
            gtk_widget_set_margin_top(w, Int32(max(0, (wanted.origin.y + b.frame.y).rounded())))
            gtk_widget_set_size_request(w, Int32(b.frame.width.rounded()), Int32(b.frame.height.rounded()))
        }
    }

    /// Tab on the map while a bubble's card is open: its first button takes the focus. (A place's
    /// callout keeps Tab walking the places — selecting one opens its callout, and Tab must go on
    /// to the next place — its buttons stay reachable by screen readers.)
    func focusFirst() -> Bool {
        guard case .bubble? = placed?.owner, let first = widgets.first else { return false }
        return gtk_widget_grab_focus(first) != 0
    }

    /// The buttons' names, in order (for the event log and the tests).
    var names: [String] {
        guard let placed else { return [] }
        return placed.buttons.map { Self.accessibleName($0, owner: placed.owner) }
    }

    private func rebuild(for placement: Placement?) {
        // A focused button going away hands the focus back to the map, not to nowhere.
        let hadFocus = widgets.contains { gtk_widget_has_focus($0) != 0 }
        for w in widgets { gtk_overlay_remove_overlay(opaque(overlay), w) }
        widgets = []
        targets = []
        if hadFocus { gtk_widget_grab_focus(controller.drawingArea) }
        guard let placement else { return }
        for b in placement.buttons {
            let w = gtk_button_new()!
            gtk_widget_add_css_class(w, "cm-card-button")
            gtk_widget_set_halign(w, GTK_ALIGN_START)
            gtk_widget_set_valign(w, GTK_ALIGN_START)
            let name = Self.accessibleName(b, owner: placement.owner)
            AccessibleText.setLabel(of: w, to: name)
            gtk_widget_set_tooltip_text(w, name)
            let target = Target(self, owner: placement.owner, action: b.action)
            targets.append(target)
            connectSignal(w, "clicked", unsafeBitCast(Self.clicked, to: GCallback.self), owner: target)
            let keys = gtk_event_controller_key_new()!
            connectSignal(keys, "key-pressed", unsafeBitCast(Self.keyPressed, to: GCallback.self), owner: target)
            addController(keys, to: w)
            gtk_overlay_add_overlay(opaque(overlay), w)
            widgets.append(w)
        }
    }

    fileprivate func press(_ action: CalloutAction, of owner: Owner) {
        switch owner {
        case .bubble(let id): controller.pressBubbleCardButton(action, of: id)
        case .place(let index): controller.pressCalloutButton(action, of: index)
        }
    }

    private static let clicked: @convention(c) (UnsafeMutablePointer<GtkButton>?, gpointer?) -> Void = { _, data in
        guard let t = UserData.object(data, as: Target.self), let buttons = t.buttons else { return }
        buttons.press(t.action, of: t.owner)
    }

    private static let keyPressed: @MainActor @convention(c) (OpaquePointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, _, data in
        guard Int32(keyval) == GDK_KEY_Escape, let t = UserData.object(data, as: Target.self), let buttons = t.buttons else { return 0 }
        gtk_widget_grab_focus(buttons.controller.drawingArea)
        buttons.press(.close, of: t.owner)
        return 1
    }

    private static var styled = false

    /// Nothing of their own is drawn but the keyboard focus ring (the card draws the links).
    private static func installStyle() {
        guard !styled else { return }
        styled = true
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, """
        button.cm-card-button { background: none; border: none; box-shadow: none; padding: 0; margin: 0;
          min-width: 0; min-height: 0; outline: none; }
        button.cm-card-button:focus-visible { outline: 2px solid @accent_color; outline-offset: 1px; border-radius: 4px; }
        """, -1)
        if let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        g_object_unref(provider)
    }
}

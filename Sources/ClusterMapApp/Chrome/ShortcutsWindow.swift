import CGtk

/// The keyboard shortcuts window (Ctrl+? or the main menu): a GtkShortcutsWindow, built from
/// GtkBuilder XML (GTK 4.8 can only fill one that way) each time it is asked for.
enum ShortcutsWindow {
    /// Every key and gesture the map understands (SPEC §5), grouped as GNOME apps do.
    static let groups: [(title: String, items: [(accel: String?, gesture: String?, title: String)])] = [
        ("Map", [
            (nil, "mouse", "Drag to move the map"),
            (nil, "mouse", "Scroll to zoom"),
            (nil, "mouse", "Double-click to zoom in"),
            (nil, "gesture-pinch", "Pinch to zoom (touchpad, touch screen)"),
            ("Left Right Up Down", nil, "Move the map"),
            ("plus equal", nil, "Zoom in"),
            ("minus", nil, "Zoom out"),
            ("0 Home", nil, "Show all the data"),
        ]),
        ("Places", [
            (nil, "mouse", "Click a bubble to fly in, a place to select it"),
            (nil, "mouse", "Right-click a bubble for its card: count, totals, categories"),
            ("Tab <Shift>Tab", nil, "Move through bubbles and places"),
            ("Return", nil, "Fly into the bubble or select the place"),
            ("<Shift>Return Menu", nil, "Open the focused bubble's card"),
            ("l", nil, "List the places of the open bubble card"),
            ("Escape", nil, "Close the callout or fan; leave the search field"),
            ("F9", nil, "Show or hide the list of places in view"),
            ("F8", nil, "Show or hide the filter panel"),
        ]),
        ("Time Bar", [
            ("<Ctrl>T", nil, "Show or hide the time bar"),
            ("Left Right", nil, "Step back or on (on the bar; comma and period on the map)"),
            ("p", nil, "Play or pause (Space on the bar); [ and ] slower or faster"),
            ("w", nil, "Everything so far, or a window before the playhead"),
        ]),
        ("App", [
            ("<Ctrl>O", nil, "Open files"),
            ("<Ctrl><Shift>O", nil, "Connect to a database table"),
            ("<Ctrl>F", nil, "Search places"),
            ("F10", nil, "Main menu"),
            ("<Ctrl>question", nil, "Keyboard shortcuts"),
            ("<Ctrl>Q", nil, "Quit"),
        ]),
    ]

    static func xml() -> String {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        // max-height 16 keeps every group on one page (GTK 4.8's page buttons warn "min width -4").
        var x = """
        <?xml version="1.0" encoding="UTF-8"?>
        <interface>
          <object class="GtkShortcutsWindow" id="shortcuts">
            <property name="modal">1</property>
            <child>
              <object class="GtkShortcutsSection">
                <property name="section-name">main</property>
                <property name="max-height">16</property>

        """
        for g in groups {
            x += "        <child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(esc(g.title))</property>\n"
            for item in g.items {
                x += "          <child><object class=\"GtkShortcutsShortcut\">"
                if let a = item.accel { x += "<property name=\"accelerator\">\(esc(a))</property>" }
                if item.gesture == "mouse" {
                    x += "<property name=\"shortcut-type\">gesture</property><property name=\"icon\"><object class=\"GThemedIcon\"><property name=\"name\">input-mouse-symbolic</property></object></property>"
                } else if let gst = item.gesture {
                    x += "<property name=\"shortcut-type\">\(gst)</property>"
                }
                x += "<property name=\"title\">\(esc(item.title))</property></object></child>\n"
            }
            x += "        </object></child>\n"
        }
        x += """
              </object>
            </child>
          </object>
        </interface>
        """
        return x
    }

    /// Builds the window and shows it over `window` (`win.show-help-overlay`, Ctrl+? or the main
    /// menu). Built on demand rather than at start-up as GTK's help overlay is: its builder XML
    /// costs ~25 M instructions (a tenth of the GTK thread's start) that the launch needn't pay.
    static func present(over window: UnsafeMutablePointer<GtkWidget>) {
        let builder = gtk_builder_new_from_string(xml(), -1)!
        defer { g_object_unref(gpointer(builder)) }
        guard let obj = gtk_builder_get_object(builder, "shortcuts") else { return }
        let shortcuts = UnsafeMutablePointer<GtkWidget>(OpaquePointer(obj))
        gtk_window_set_transient_for(gcast(shortcuts), gcast(window))
        gtk_window_present(gcast(shortcuts))
    }
}

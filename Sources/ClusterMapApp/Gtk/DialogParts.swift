import CGtk

/// The parts the app's small modal dialogs share (a one-line prompt, Connect to Database…): a
/// fixed-size modal window over the main one, a padded column, a hidden line that says what is
/// wrong in the window itself, and a Cancel / accept row where Enter accepts and Escape closes.
enum DialogParts {
    /// A modal, non-resizable window `width` wide over `parent`.
    static func modalWindow(title: String, over parent: UnsafeMutablePointer<GtkWidget>, width: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        gtk_window_set_title(gcast(window), title)
        gtk_window_set_transient_for(gcast(window), gcast(parent))
        gtk_window_set_modal(gcast(window), 1)
        gtk_window_set_resizable(gcast(window), 0)
        gtk_window_set_default_size(gcast(window), width, -1)
        // Escape closes it as the window's own close button does.
        let escape = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(escape, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                      gtk_named_action_new("window.close")))
        addController(escape, to: window)
        return window
    }

    /// A vertical box with the dialogs' 18-pixel margins.
    static func column(spacing: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, spacing)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(box, 18)
        }
        return box
    }

    /// The hidden, wrapping error line appended to `box` (shown with `say`).
    static func problemLine(in box: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let problem = plainLabel("")
        gtk_label_set_wrap(opaque(problem), 1)
        gtk_label_set_wrap_mode(opaque(problem), PANGO_WRAP_WORD_CHAR)
        gtk_widget_add_css_class(problem, "error")
        gtk_widget_set_visible(problem, 0)
        gtk_box_append(gcast(box), problem)
        return problem
    }

    /// Cancel and the accept button (`acceptLabel`, a mnemonic), right-aligned at the end of `box`,
    /// which becomes `window`'s child; the accept button is the default (Enter in an entry).
    static func buttonRow(accept acceptLabel: String, in box: UnsafeMutablePointer<GtkWidget>,
                          of window: UnsafeMutablePointer<GtkWidget>)
        -> (cancel: UnsafeMutablePointer<GtkWidget>, accept: UnsafeMutablePointer<GtkWidget>) {
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let cancel = gtk_button_new_with_mnemonic("_Cancel")!
        let accept = gtk_button_new_with_mnemonic(acceptLabel)!
        gtk_widget_add_css_class(accept, "suggested-action")
        gtk_box_append(gcast(buttons), cancel)
        gtk_box_append(gcast(buttons), accept)
        gtk_box_append(gcast(box), buttons)
        gtk_window_set_child(gcast(window), box)
        gtk_window_set_default_widget(gcast(window), accept)
        return (cancel, accept)
    }
}

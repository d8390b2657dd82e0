import AppSupport
import CGtk

/// A small modal window asking for one line of text (a MapTiler API key, a tile URL template).
///
/// What is typed is checked before the window closes: a problem is said under the entry, in the
/// window, and the person can correct it (never a second dialog). Enter accepts, Escape cancels.
/// One prompt at a time.
final class TextPromptDialog {
    /// Returns a problem to show, or nil when the text is acceptable.
    typealias Check = (String) -> String?

    private static var current: TextPromptDialog?

    let window: UnsafeMutablePointer<GtkWidget>
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let problem: UnsafeMutablePointer<GtkWidget>
    private let check: Check
    private let accept: (String) -> Void
    /// Where a refused text is logged (`prompt-problem`, with the window's title and the
    /// problem said), if anywhere: the window stays open then.
    private(set) var eventLog: EventLog?

    /// Opens the prompt over `parent`; `accept` gets the trimmed text once `check` passes; a refused
    /// text is logged to `eventLog` if given.
    @discardableResult
    static func show(parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, placeholder: String,
                     initial: String = "", acceptLabel: String, secret: Bool = false, check: @escaping Check,
                     accept: @escaping (String) -> Void, eventLog: EventLog? = nil) -> TextPromptDialog {
        current?.close()
        let dialog = TextPromptDialog(parent: parent, title: title, message: message, placeholder: placeholder,
                                      initial: initial, acceptLabel: acceptLabel, check: check, accept: accept)
        // A password: shown as dots, and never offered to input methods that learn words.
        if secret {
            gtk_entry_set_visibility(gcast(dialog.entry), 0)
            gtk_entry_set_input_purpose(gcast(dialog.entry), GTK_INPUT_PURPOSE_PASSWORD)
        }
        dialog.eventLog = eventLog
        current = dialog
        gtk_window_present(gcast(dialog.window))
        return dialog
    }

    private init(parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, placeholder: String,
                 initial: String, acceptLabel: String, check: @escaping Check, accept: @escaping (String) -> Void) {
        self.check = check
        self.accept = accept
        window = DialogParts.modalWindow(title: title, over: parent, width: 480)
        let box = DialogParts.column(spacing: 12)
        let text = plainLabel(message)
        gtk_label_set_wrap(opaque(text), 1)
        gtk_label_set_max_width_chars(opaque(text), 56)
        gtk_box_append(gcast(box), text)

        entry = gtk_entry_new()
        gtk_entry_set_placeholder_text(gcast(entry), placeholder)
        gtk_editable_set_text(OpaquePointer(entry), initial)
        gtk_entry_set_activates_default(gcast(entry), 1)
        AccessibleText.setLabel(of: entry, to: title)
        gtk_box_append(gcast(box), entry)

        problem = DialogParts.problemLine(in: box)
        let (cancel, ok) = DialogParts.buttonRow(accept: acceptLabel, in: box, of: window)

        typealias Clicked = @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void
        let onAccept: Clicked = { _, _ in TextPromptDialog.current?.tryAccept() }
        let onCancel: Clicked = { _, _ in TextPromptDialog.current?.close() }
        connectSignal(ok, "clicked", unsafeBitCast(onAccept, to: GCallback.self))
        connectSignal(cancel, "clicked", unsafeBitCast(onCancel, to: GCallback.self))
        // The window's own close button and Escape: forget the prompt, let GTK close it.
        let onClose: @MainActor @convention(c) (UnsafeMutablePointer<GtkWindow>?, gpointer?) -> gboolean = { window, _ in
            if let window, let c = TextPromptDialog.current, c.window == asWidget(window) { TextPromptDialog.current = nil }
            return 0
        }
        connectSignal(window, "close-request", unsafeBitCast(onClose, to: GCallback.self))
    }

    /// The text as typed, trimmed.
    var text: String {
        String(cString: gtk_editable_get_text(OpaquePointer(entry))).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func tryAccept() {
        let value = text
        if let message = check(value) {
            gtk_label_set_text(opaque(problem), message)
            gtk_widget_set_visible(problem, 1)
            gtk_widget_grab_focus(entry)
            let title = gtk_window_get_title(gcast(window)).map { String(cString: $0) } ?? ""
            eventLog?.emit("prompt-problem", [("title", .string(title)), ("text", .string(message))])
            return
        }
        close()
        accept(value)
    }

    private func close() {
        if TextPromptDialog.current === self { TextPromptDialog.current = nil }
        gtk_window_destroy(gcast(window))
    }
}

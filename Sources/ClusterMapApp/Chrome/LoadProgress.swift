import CGtk
import AppSupport
import Foundation

/// The loading panel at the bottom of the map: what is loading, a progress bar and Cancel
/// (SPEC §4). Shown only for loads that take longer than a moment, so small files don't flash it.
final class LoadProgress {
    let panel: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let bar: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    private let eventLog: EventLog
    private var loading = false
    private var loadNumber = 0
    private var name = ""
    /// Whether the file is read and its places are being indexed (a phase with no fraction of
    /// its own: at 10M points it is most of the wait, so the bar pulses instead of sitting full).
    private var indexing = false

    /// How often the bar moves while indexing.
    static let pulseMs: UInt32 = 120

    /// Loads shorter than this never show the panel.
    static let showDelayMs: UInt32 = 150

    init(overlay: UnsafeMutablePointer<GtkWidget>, eventLog: EventLog, controller: MapViewController) {
        self.eventLog = eventLog
        panel = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 18)!
        gtk_widget_add_css_class(panel, "cm-progress")
        gtk_widget_add_css_class(panel, "osd")
        gtk_widget_set_halign(panel, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(panel, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(panel, 36)

        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
        gtk_widget_set_valign(column, GTK_ALIGN_CENTER)
        title = plainLabel("")
        gtk_label_set_ellipsize(opaque(title), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_width_chars(opaque(title), 30)
        gtk_label_set_max_width_chars(opaque(title), 40)
        bar = gtk_progress_bar_new()!
        gtk_widget_set_size_request(bar, 280, -1)
        gtk_box_append(gcast(column), title)
        gtk_box_append(gcast(column), bar)

        cancelButton = gtk_button_new_with_mnemonic("_Cancel")!
        gtk_widget_set_valign(cancelButton, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(cancelButton, "Stop loading; the map keeps what it shows")
        let clicked: @MainActor @convention(c) (UnsafeMutablePointer<GtkButton>?, gpointer?) -> Void = { _, data in
            UserData.controller(data)?.cancelLoad()
        }
        connectSignal(cancelButton, "clicked", unsafeBitCast(clicked, to: GCallback.self), owner: controller)

        gtk_box_append(gcast(panel), column)
        gtk_box_append(gcast(panel), cancelButton)
        gtk_widget_set_visible(panel, 0)
        gtk_overlay_add_overlay(opaque(overlay), panel)
    }

    func start(name: String) {
        loading = true
        loadNumber += 1
        self.name = name
        gtk_label_set_text(opaque(title), "Loading \(name)…")
        gtk_progress_bar_set_fraction(opaque(bar), 0)
        indexing = false
        let number = loadNumber
        runAfter(milliseconds: LoadProgress.showDelayMs) { [weak self] in
            guard let p = self, p.loading, p.loadNumber == number else { return }
            p.reveal()
        }
    }

    func progress(_ fraction: Double) {
        let f = max(0, min(1, fraction.isFinite ? fraction : 0))
        guard f < 0.999 else { return startIndexing() }
        gtk_progress_bar_set_fraction(opaque(bar), f)
        gtk_label_set_text(opaque(title), "Loading \(name)…")
    }

    /// The file is read: the bar pulses until the places are indexed.
    private func startIndexing() {
        guard !indexing else { return }
        indexing = true
        gtk_label_set_text(opaque(title), "Indexing \(name)…")
        gtk_progress_bar_set_pulse_step(opaque(bar), 0.08)
        pulse(loadNumber)
    }

    private func pulse(_ number: Int) {
        guard loading, indexing, loadNumber == number else { return }
        gtk_progress_bar_pulse(opaque(bar))
        runAfter(milliseconds: LoadProgress.pulseMs) { [weak self] in self?.pulse(number) }
    }

    /// A stream of unknown size: the bar pulses and the title counts what has arrived.
    func bytesRead(_ bytes: Int) {
        gtk_progress_bar_pulse(opaque(bar))
        let mb = Double(bytes) / 1_000_000
        gtk_label_set_text(opaque(title), "Loading \(name)… \(mb < 10 ? String(format: "%.1f", mb) : String(Int(mb))) MB read")
    }

    func end() {
        loading = false
        indexing = false
        gtk_widget_set_visible(panel, 0)
    }

    private func reveal() {
        gtk_widget_set_visible(panel, 1)
        lastReported = nil
        reportCancelPosition(attempt: 0, previous: nil)
    }

    private var lastReported: (x: Double, y: Double)?

    /// Logs where Cancel is once it is laid out (tests click it there). Right after the panel
    /// is shown again its old allocation can still be read, so wait until two readings a frame
    /// apart agree.
    private func reportCancelPosition(attempt: Int, previous: (x: Double, y: Double)?) {
        guard loading, gtk_widget_get_visible(panel) != 0 else { return }
        let now = surfaceCenter(of: cancelButton)
        if let c = now, let p = previous, abs(c.x - p.x) < 0.5, abs(c.y - p.y) < 0.5 {
            lastReported = c
            eventLog.emit("widget", [("name", .string("cancel")), ("x", .number(c.x.rounded())), ("y", .number(c.y.rounded()))])
            return
        }
        guard attempt < 80 else { return }
        runAfter(milliseconds: 40) { [weak self] in self?.reportCancelPosition(attempt: attempt + 1, previous: now) }
    }
}

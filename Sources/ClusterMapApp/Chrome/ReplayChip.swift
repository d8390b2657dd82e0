import CGtk
import AppSupport
import Foundation

/// The quiet chip at the bottom of the map while the earthquakes replay (`live-earthquakes`):
/// the replayed date and speed ("Replaying 1987-03-05 · 120 days/s"), with Slower, Pause and
/// Faster buttons, so the replay can be followed and steered by mouse (keys `[` and `]` too).
final class ReplayChip {
    let chip: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let pauseButton: UnsafeMutablePointer<GtkWidget>
    private let slower: UnsafeMutablePointer<GtkWidget>
    private let faster: UnsafeMutablePointer<GtkWidget>
    private let eventLog: EventLog
    /// What the chip last said, apart from the running date (logged when it changes).
    private var lastState = ""

    init(overlay: UnsafeMutablePointer<GtkWidget>, eventLog: EventLog) {
        self.eventLog = eventLog
        chip = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
        gtk_widget_add_css_class(chip, "cm-replay")
        gtk_widget_set_halign(chip, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(chip, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(chip, 36)
        label = plainLabel("")
        gtk_widget_set_margin_start(label, 8)
        gtk_widget_set_margin_end(label, 6)
        // Digits keep their width as the date runs (the chip doesn't wobble).
        gtk_widget_add_css_class(label, "numeric")
        slower = ReplayChip.button("media-seek-backward-symbolic", tooltip: "Slower ([)", action: "win.replay-slower")
        pauseButton = ReplayChip.button("media-playback-pause-symbolic", tooltip: "Pause", action: "win.replay-pause")
        faster = ReplayChip.button("media-seek-forward-symbolic", tooltip: "Faster (])", action: "win.replay-faster")
        for w in [label, slower, pauseButton, faster] { gtk_box_append(gcast(chip), w) }
        gtk_widget_set_visible(chip, 0)
        gtk_overlay_add_overlay(opaque(overlay), chip)
    }

    private static func button(_ icon: String, tooltip: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
        let b = gtk_button_new_from_icon_name(icon)!
        gtk_widget_add_css_class(b, "flat")
        gtk_widget_add_css_class(b, "circular")
        gtk_widget_set_tooltip_text(b, tooltip)
        gtk_widget_set_focusable(b, 0)   // the map keeps the keys
        gtk_actionable_set_action_name(opaque(b), action)
        AccessibleText.setLabel(of: b, to: tooltip)
        return b
    }

    /// Shows the replay's state (nil: no replay, hidden).
    func update(date: String?, daysPerSecond: Double, paused: Bool, finished: Bool) {
        guard let date else {
            gtk_widget_set_visible(chip, 0)
            lastState = ""
            return
        }
        let text = ReplayChip.text(date: date, daysPerSecond: daysPerSecond, paused: paused, finished: finished)
        gtk_label_set_text(opaque(label), text)
        let state = "\(daysPerSecond) \(paused) \(finished)"
        if state != lastState {
            lastState = state
            eventLog.emit("replay-chip", [("text", .string(text))])
        }
        gtk_button_set_icon_name(gcast(pauseButton), paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic")
        gtk_widget_set_tooltip_text(pauseButton, paused ? "Resume" : "Pause")
        AccessibleText.setLabel(of: pauseButton, to: paused ? "Resume" : "Pause")
        for b in [slower, pauseButton, faster] { gtk_widget_set_visible(b, finished ? 0 : 1) }
        if gtk_widget_get_visible(chip) == 0 {
            gtk_widget_set_visible(chip, 1)
            reportButtons()
        }
    }

    /// "Replaying 1987-03-05 · 120 days/s" (or paused / finished).
    static func text(date: String, daysPerSecond: Double, paused: Bool, finished: Bool) -> String {
        if finished { return "Replayed to \(date)" }
        let speed = daysPerSecond >= 10 ? "\(Int(daysPerSecond.rounded()))" : String(format: "%.1f", daysPerSecond)
        return "\(paused ? "Paused at" : "Replaying") \(date) · \(speed) days/s"
    }

    /// Logs where the buttons are once laid out (tests click them there).
    private func reportButtons() {
        for (name, w) in [("replay-slower", slower), ("replay-pause", pauseButton), ("replay-faster", faster)] {
            reportPosition(of: w, name: name, eventLog: eventLog)
        }
    }
}

import CGtk
import AppSupport
import MapModel

/// The callout card's buttons (SPEC §7): close, "Copy coordinates", "More" / "Less".
extension MapViewController {
    /// A button on the open card was clicked: the presentation changes the card; closing it and
    /// the clipboard are the window's.
    func pressCalloutButton(_ action: CalloutAction, of index: Int) {
        let (effect, events) = presentation.pressCalloutButton(action, of: index)
        switch effect {
        case .close:
            eventLog.emit(events)
            clearSelectionAndFan()
            return
        case .copy(let text):
            if let display = gdk_display_get_default(), let clipboard = gdk_display_get_clipboard(display) {
                gdk_clipboard_set_text(clipboard, text)
            }
        case .changed, .none:
            break
        }
        eventLog.emit(events)
        guard effect != .none else { return }
        // The card changed in place (no grow animation, the camera stays); logged at the next rest.
        sceneDidChange()
        forceSceneEvent = true
        cameraDidChange()
    }
}

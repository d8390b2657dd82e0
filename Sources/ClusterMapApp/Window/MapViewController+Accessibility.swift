import CGtk
import AppSupport
import MapModel

/// What screen readers and the "in view" list learn from the map (SPEC §5.7).
extension MapViewController {
    /// The scene came to rest (after the camera and scene events): the list follows it.
    func sceneDidSettle() {
        inView?.update(from: self)
        chrome?.sceneDidSettle(lastScene)
    }

    /// The map's accessible description is the selected place's callout text (so a screen reader
    /// can read what the callout shows), or a hint when nothing is selected.
    func updateMapAccessibility() {
        let text: String
        if let card = bubbleCardDescription {
            text = card
        } else if let c = sceneState.callout {
            text = "Selected: " + ([c.title] + c.lines).joined(separator: ". ")
        } else {
            text = "Tab moves through the bubbles and places in view, Enter opens one, F9 lists them."
        }
        AccessibleText.setDescription(of: drawingArea, to: text)
    }
}

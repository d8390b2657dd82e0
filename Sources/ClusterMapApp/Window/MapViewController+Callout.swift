import CGtk
import AppSupport
import MapModel
import MapRender

/// The callout card's buttons (SPEC §7): close, "Copy coordinates", "More" / "Less".
extension MapViewController {
    /// The card of a place, measured, with its buttons; `expanded` shows the ids behind "More".
    func calloutContent(of index: Int, expanded: Bool, copied: Bool = false) -> SceneState.CalloutContent {
        guard let session else { return SceneState.CalloutContent(pointIndex: index, title: "", lines: [], size: ScreenSize(width: 0, height: 0)) }
        let card = session.calloutText(of: index)
        var links: [(action: CalloutAction, title: String)] = [(.copyCoordinates, copied ? "Copied" : "Copy coordinates")]
        if !card.moreLines.isEmpty { links.append(expanded ? (.less, "Less") : (.more, "More")) }
        let lines = card.lines(expanded: expanded)
        let measured = CalloutMeasurer.card(title: card.title, lines: lines, links: links,
                                            maxHeight: expanded ? 360 : CalloutMeasurer.defaultMaxHeight)
        return SceneState.CalloutContent(pointIndex: index, title: card.title, lines: lines, size: measured.size,
                                         buttons: measured.buttons)
    }

    /// A button on the open card was clicked.
    func pressCalloutButton(_ action: CalloutAction, of index: Int) {
        eventLog.emit("callout-button", [("id", .int(index)), ("action", .string(action.rawValue))])
        switch action {
        case .close:
            clearSelectionAndFan()
        case .copyCoordinates:
            guard let session else { return }
            let c = session.places.coordinates[index]
            let text = PropertyFormat.coordinates(c)
            if let display = gdk_display_get_default(), let clipboard = gdk_display_get_clipboard(display) {
                gdk_clipboard_set_text(clipboard, text)
            }
            eventLog.emit("copy", [("text", .string(text))])
            replaceCallout(calloutContent(of: index, expanded: isCalloutExpanded, copied: true))
        case .more, .less:
            replaceCallout(calloutContent(of: index, expanded: action == .more))
        }
    }

    /// Whether the open card shows its "More" lines.
    var isCalloutExpanded: Bool {
        sceneState.callout?.buttons.contains { $0.action == .less } ?? false
    }

    /// Swaps the open card's content in place (no grow animation, the camera stays).
    private func replaceCallout(_ content: SceneState.CalloutContent) {
        guard sceneState.callout?.pointIndex == content.pointIndex else { return }
        sceneState.callout = content
        sceneDidChange()
        forceSceneEvent = true
        lastLoggedCallout = nil
        cameraDidChange()
    }
}

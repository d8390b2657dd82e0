import AppSupport
import GeoData

extension AppChrome {
    /// The filter asked or shown changed: the chips, the count and the panel follow.
    func filterDidChange() {
        let p = controller.presentation
        filterChips?.update(chips: FilterPanelModel.chips(p.filterSettings), placesText: p.filterPlacesText)
        filterPanel?.refresh()
    }
}

import AppSupport
import GeoData

extension AppChrome {
    /// The filter asked or shown changed: the chips, the count and the panel follow.
    func filterDidChange() {
        let p = controller.presentation
        // The time window's chip names the date property it read (the first one, unless --time said).
        let chips = FilterPanelModel.chips(p.filterSettings, timeProperty: p.shownFilter?.result.timeProperty,
                                           unheld: controller.tableFilter == nil ? p.filterEngine()?.propertiesNoPlaceHolds ?? [] : [])
        // A first frame (repair or recount) says it is provisional until the exact build lands.
        let refining = p.filterIsInterim ? " · refining…" : ""
        filterChips?.update(chips: chips, placesText: controller.filterPlacesText.map { $0 + refining })
        filterPanel?.refresh()
    }
}

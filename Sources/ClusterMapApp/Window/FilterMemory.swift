import AppSupport
import GeoData

/// Which data is shown and loading (keys of `SavedFilter`), and the filters remembered per file
/// (read from and written to the state file by `WindowState`).
final class FilterMemory {
    private(set) var loadingSource: String?
    private(set) var shownSource: String?
    private(set) var saved: [SavedFilter] = []

    /// Data with key `source` starts loading.
    func willLoad(source: String?) { loadingSource = source }

    /// The data loading is shown now.
    func loadingShown() { shownSource = loadingSource }

    /// The filters remembered per file, as read from the state file.
    func restore(_ saved: [SavedFilter]) { self.saved = saved }

    /// Remembers `settings` as the shown file's filter.
    func rememberForShown(_ settings: FilterSettings) {
        if let source = shownSource { saved.remember(settings, for: source) }
    }

    /// Remembers `timeBar` (nil: hidden) as the shown file's time bar.
    func rememberForShown(timeBar: SavedTimeBar?) {
        if let source = shownSource { saved.remember(timeBar: timeBar, for: source) }
    }

    /// Forgets the shown file's filter when it is `settings` (one the data can no longer answer).
    func forgetForShown(ifItIs settings: FilterSettings) {
        if let source = shownSource, saved.settings(for: source) == settings { saved.remember(FilterSettings(), for: source) }
    }
}

import CGtk
import AppSupport

/// The main menu's online maps that need a word from the person first: MapTiler (a personal API
/// key, asked for once and remembered) and a custom tile URL template.
extension AppChrome {
    /// MapTiler's streets, asking for the API key the first time.
    func chooseMapTiler() {
        if let key = controller.mapTilerKey, let template = MapTilerSource.template(key: key) {
            controller.switchBaseMap(to: template)
            return
        }
        let previous = controller.tileLayer?.path
        mainMenu.setBasemap(previous)  // until a key is given
        TextPromptDialog.show(
            parent: window, title: "MapTiler API Key",
            message: "MapTiler's street map needs your personal API key (free for personal use at "
                + "maptiler.com, under Account → API keys). It is kept on this computer, in a file only you can read.",
            placeholder: "API key", acceptLabel: "_Use Key",
            check: { MapTilerSource.validKey($0) == nil ? "That doesn't look like a MapTiler key (letters and digits, no spaces)." : nil },
            accept: { [weak self] key in
                guard let self, let template = MapTilerSource.template(key: key) else { return }
                self.controller.remember(mapTilerKey: MapTilerSource.validKey(key))
                self.controller.switchBaseMap(to: template)
                WindowState.save(window: self.window, controller: self.controller)
            }, eventLog: controller.eventLog)
    }

    /// Any XYZ raster source, by its URL template.
    func chooseCustomTileURL() {
        let current = controller.tileLayer?.path
        let initial = current.flatMap { LaunchOptions.isOnlineBasemap($0) && !MapTilerSource.isMapTiler($0) ? $0 : nil } ?? ""
        TextPromptDialog.show(
            parent: window, title: "Custom Tile URL",
            message: "The address of a raster tile server, with {z}, {x} and {y} where the tile goes, e.g. "
                + "https://tiles.example.org/{z}/{x}/{y}.png ({s} picks a subdomain, {r} asks for @2x tiles on HiDPI). "
                + "Please respect the server's usage policy.",
            placeholder: "https://…/{z}/{x}/{y}.png", initial: initial, acceptLabel: "_Show Map",
            check: { text in
                guard LaunchOptions.isOnlineBasemap(text.lowercased()) else { return "The address must start with https:// or http://." }
                do { _ = try LaunchOptions.parseBasemap(text) } catch { return "\(error)".replacingOccurrences(of: "--basemap ", with: "") }
                return nil
            },
            accept: { [weak self] url in self?.controller.switchBaseMap(to: url) }, eventLog: controller.eventLog)
    }
}

import CGtk
import MapModel
import MapRender

/// Following the desktop's dark style and reduced-motion settings live (SPEC §2, §5.6).
extension MapViewController {
    /// Reads the preferences now and subscribes to their changes.
    func followDesktopPreferences() {
        DesktopPreferences.observe(owner: self) { _, _, data in
            UserData.controller(data)?.applyPreferences()
        }
        applyPreferences()
    }

    /// The reduced-motion toggle from the main menu (nil until the person uses it).
    func setReducedMotionToggle(_ on: Bool?) {
        setToggles(reducedMotion: on)
        applyPreferences()
    }

    /// The remembered menu choices (nil: never used); the caller applies them (`applyPreferences`).
    func restoreToggles(dark: Bool?, reducedMotion: Bool?) {
        if let dark { setToggles(dark: dark) }
        if let reducedMotion { setToggles(reducedMotion: reducedMotion) }
    }

    /// The dark-style toggle from the main menu; the caller applies it (after the theme follows).
    func setDarkStyleToggle(_ on: Bool) { setToggles(dark: on) }

    func applyPreferences() {
        let dark = options.dark || userDarkStyle ?? DesktopPreferences.prefersDark
        let palette: MapPalette = dark ? .dark : .light
        if renderer.palette != palette {
            renderer.setPalette(palette)
            chrome?.paletteDidChange()
            redraw()
        }
        let policy = MotionPolicy(gtkEnableAnimations: DesktopPreferences.enablesAnimations,
                                  gtkInterfaceReducedMotion: DesktopPreferences.interfaceReducedMotion,
                                  userToggle: userReducedMotion, commandLineFlag: options.reduceMotion)
        if policy != cameraController.motionPolicy {
            if let ended = cameraController.updateMotionPolicy(policy, at: MapViewController.now()), ended.isFlight {
                eventLog.emit("flight-end")
            }
            eventLog.emit("motion", [("reduced", .bool(policy.prefersReducedMotion))])
            redraw()
        }
    }
}

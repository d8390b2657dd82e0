import CGtk
import MapModel
import MapRender

/// Following the desktop's dark style and reduced-motion settings live (SPEC §2, §5.6).
extension MapViewController {
    /// Reads the preferences now and subscribes to their changes.
    func followDesktopPreferences() {
        DesktopPreferences.observe { _, _, _ in
            MapApplication.window?.controller.applyPreferences()
        }
        applyPreferences()
    }

    /// The reduced-motion toggle from the main menu (nil until the person uses it).
    func setReducedMotionToggle(_ on: Bool?) {
        userReducedMotion = on
        applyPreferences()
    }

    func applyPreferences() {
        let dark = options.dark || userDarkStyle ?? DesktopPreferences.prefersDark
        let palette: MapPalette = dark ? .dark : .light
        if renderer.palette != palette {
            renderer.palette = palette
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

import Foundation

/// Which of GTK's renderers the window asks for.
///
/// ClusterMap draws every frame itself with cairo into the drawing area's image surface, so the
/// renderer only composites that image and the chrome. Where there is no GPU (no DRM render node,
/// as on servers, in containers and under Xvfb), GTK's default GL renderer runs in software
/// (Mesa's llvmpipe): it compiles its shaders on the GTK thread at the first launch (≈ 3 s on a
/// 2-core machine, again whenever Mesa's shader cache is empty), uploads the frame as a texture
/// every time and holds ≈ 100 MB more. The cairo renderer does none of that, so there the app asks
/// for it. A GSK_RENDERER the person set is always kept.
public enum GtkRendererChoice {
    /// The value to give `GSK_RENDERER` before GTK starts, or nil to leave GTK's choice alone.
    /// `hasRenderNode` says whether a GPU's DRM render node (`/dev/dri/renderD*`) is there.
    public static func rendererOverride(environment: [String: String], hasRenderNode: Bool) -> String? {
        if let chosen = environment["GSK_RENDERER"], !chosen.isEmpty { return nil }
        if environment["LIBGL_ALWAYS_SOFTWARE"].map({ $0 == "1" || $0.lowercased() == "true" }) == true {
            return "cairo"
        }
        return hasRenderNode ? nil : "cairo"
    }

    /// Whether this machine has a DRM render node (a GPU that GL can use).
    public static func machineHasRenderNode(devicesFolder: String = "/dev/dri") -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devicesFolder)) ?? []
        return names.contains { $0.hasPrefix("renderD") }
    }

    /// Sets `GSK_RENDERER` for this process when `rendererOverride` says so; returns what was set.
    @discardableResult
    public static func apply() -> String? {
        let env = ProcessInfo.processInfo.environment
        guard let renderer = rendererOverride(environment: env, hasRenderNode: machineHasRenderNode()) else { return nil }
        setenv("GSK_RENDERER", renderer, 1)
        return renderer
    }
}
